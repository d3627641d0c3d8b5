import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension ReliabilityTests {
    /// Terminals that are missing, unusable, tiny, resized in a burst,
    /// suspended or hung up: a clear message or correct behaviour, and the
    /// terminal restored every time (`stty -a` shows `icanon` and `echo`).
    @Suite struct HostileTerminals {
        let binary = ReliabilitySettings.failedbanks

        /// How the browser is started when it must refuse the terminal.
        enum Refusal: String, CaseIterable, Sendable, CustomStringConvertible {
            case stdinFromDevNull, stdoutIntoCat, termUnset, termDumb, termUnknown
            var description: String { rawValue }

            func command(_ binary: String, store: String) -> String {
                let app = "\(ProcessRunner.shellQuoted(binary)) --db \(ProcessRunner.shellQuoted(store)) 2> err.txt"
                switch self {
                case .stdinFromDevNull: return "\(app) < /dev/null"
                case .stdoutIntoCat: return "\(app) | cat > cat.txt; (exit ${PIPESTATUS[0]})"
                case .termUnset: return "env -u TERM \(app)"
                case .termDumb: return "env TERM=dumb \(app)"
                case .termUnknown: return "env TERM=no-such-terminal-9000 \(app)"
                }
            }

            var keyWords: [String] {
                switch self {
                case .stdinFromDevNull, .stdoutIntoCat: return ["terminal"]
                case .termUnset, .termDumb, .termUnknown: return ["TERM", "terminal"]
                }
            }
        }

        @Test(arguments: Refusal.allCases)
        func browserWithoutAUsableTerminalSaysWhyExitsNonZeroAndWritesNoEscapes(_ refusal: Refusal) throws {
            let scratch = TemporaryDirectory("term-\(refusal)")
            defer { scratch.remove() }
            let store = try scratch.bundledStore(named: "banks.sqlite")
            let before = try FileSnapshot(store)

            let probe = try TerminalProbe(refusal.command(binary, store: store), in: scratch)
            let status = try #require(probe.exitStatus(), "the browser exits; screen:\n\(probe.tmux.capture())")
            let message = (try? String(contentsOfFile: scratch.path("err.txt"), encoding: .utf8)) ?? ""
            #expect(status != 0 && status < 128, "\(refusal): exit status \(status); stderr: \(message)")
            #expect(
                refusal.keyWords.contains { message.contains($0) },
                "\(refusal): stderr should say \(refusal.keyWords): \(message)"
            )
            #expect(message.split(separator: "\n").count == 1, "\(refusal): one line of message: \(message)")
            #expect(
                !message.contains("Fatal error") && !message.contains("Error opening terminal"),
                "\(refusal): \(message)"
            )
            let written = probe.outputBytes()
            #expect(
                !written.contains(0x1b),
                "\(refusal): escape sequences reached the terminal: \(String(decoding: written, as: UTF8.self).debugDescription)"
            )
            #expect(
                written.isEmpty,
                "\(refusal): stdout wrote \(String(decoding: written, as: UTF8.self).debugDescription)"
            )
            if refusal == .stdoutIntoCat {
                let piped = FileManager.default.contents(atPath: scratch.path("cat.txt")) ?? Data()
                #expect(
                    piped.isEmpty,
                    "nothing goes down the pipe: \(String(decoding: piped, as: UTF8.self).debugDescription)"
                )
            }
            #expect(sttyIsSane(probe.stty), "\(refusal): terminal left: \(probe.stty)")
            #expect(probe.tmux.paneFormat("#{alternate_on}") == "0", "\(refusal): left the alternate screen on")
            let after = try FileSnapshot(store)
            #expect(after == before, "\(refusal): \(after.differences(from: before))")
        }

        /// The browser started on a fresh store, and the bank count.
        private func launch(
            width: Int = 80,
            height: Int = 24,
            waitForFirstScreen: Bool = true
        ) throws -> (BrowserFixture, TmuxSession, Int) {
            let fixture = try BrowserFixture()
            let total = try StoreFacts(fixture).byDate.count
            let tmux = try fixture.launch(width: width, height: height)
            if waitForFirstScreen { try tmux.waitFor("1/\(total)", timeout: 10) }
            return (fixture, tmux, total)
        }

        /// `q`, then: exit 0, terminal restored, nothing on stderr, the store intact with `count` banks.
        private func quitCleanly(_ fixture: BrowserFixture, _ tmux: TmuxSession, count: Int, _ what: String) throws {
            tmux.send("q")
            let status = fixture.exitStatus(timeout: 30)
            #expect(
                status == 0,
                "\(what): exit status \(status.map(String.init) ?? "none (still running)"); screen:\n\(tmux.capture())"
            )
            #expect(
                sttyIsSane(fixture.sttyAfterExit() ?? ""),
                "\(what): terminal left: \(fixture.sttyAfterExit() ?? "no stty record")"
            )
            #expect(fixture.standardError().isEmpty, "\(what): stderr: \(fixture.standardError())")
            #expect(try fixture.sql("PRAGMA integrity_check") == "ok")
            #expect(try fixture.sql("SELECT count(*) FROM failed_bank_info") == "\(count)")
        }

        @Test func oneByOneWindowKeepsTheAppAliveAndItComesBackWhenTheWindowGrows() throws {
            let (fixture, tmux, total) = try launch()
            defer {
                tmux.close()
                fixture.remove()
            }
            tmux.send("Down")
            let before = try tmux.waitFor("2/\(total)")
            tmux.resize(width: 1, height: 1)
            usleep(600_000)
            // (Keys are not sent meanwhile: the too-small screen ignores them, and whether one lands
            // before or after the next resize would decide the outcome.)
            #expect(
                fixture.exitStatus(timeout: 0.2) == nil,
                "the app survives a 1×1 window; stderr: \(fixture.standardError())"
            )
            tmux.resize(width: 80, height: 24)
            let back = try tmux.waitUntil("the 80×24 screen again") {
                $0.contains("2/\(total)") && $0.lines[0].contains("Failed Banks")
            }
            #expect(back == before, "after:\n\(back)\nbefore:\n\(before)")
            tmux.send("C-l")
            #expect(try tmux.waitUntilSettled() == back, "the screen after growing equals a full repaint")
            try quitCleanly(fixture, tmux, count: total, "1×1")
        }

        /// Regression: started smaller than 80×24, the browser did not repaint when the window grew to
        /// exactly 80×24 (any other size did) — the old small picture stayed until a key was pressed.
        @Test(arguments: [[1, 1], [40, 12]])
        func startedInASmallWindowTheBrowserRepaintsWhenTheWindowGrowsTo80x24(_ size: [Int]) throws {
            let (fixture, tmux, total) = try launch(width: size[0], height: size[1], waitForFirstScreen: false)
            defer {
                tmux.close()
                fixture.remove()
            }
            _ = fixture.appPID()
            usleep(800_000)
            #expect(
                fixture.exitStatus(timeout: 0.2) == nil,
                "the app starts in a \(size[0])×\(size[1]) window; stderr: \(fixture.standardError())"
            )
            tmux.resize(width: 80, height: 24)
            try tmux.waitUntil("the first screen at 80×24 (from \(size[0])×\(size[1]))", timeout: 5) {
                $0.lines[0].contains("Failed Banks") && $0.contains("1/\(total)")
            }
            try quitCleanly(fixture, tmux, count: total, "started \(size[0])×\(size[1])")
        }

        @Test func burstOfResizesDuringADeleteAnimationSettlesToTheRightScreen() throws {
            let seed = ReliabilitySettings.seed(ci: 9_301)
            let rounds = ReliabilitySettings.trials(ci: 1, long: 10)
            var random = ReliabilityRandom(seed: seed)
            for round in 0..<rounds {
                let (fixture, tmux, total) = try launch()
                defer {
                    tmux.close()
                    fixture.remove()
                }
                let what = "round \(round) of seed \(seed); \(ReliabilitySettings.replay(seed))"
                tmux.send("d")
                try tmux.waitFor("Delete")
                tmux.send("Enter")
                for _ in 0..<10 {
                    tmux.resize(width: random.int(1...160), height: random.int(1...50))
                    usleep(useconds_t(random.int(0...30_000)))
                }
                tmux.resize(width: 80, height: 24)
                let settled = try tmux.waitUntil("the 80×24 screen after the delete", timeout: 5) {
                    $0.contains("/\(total - 1)") && $0.contains("Deleted") && $0.lines[0].contains("Failed Banks")
                }
                let screen = try tmux.waitUntilSettled()  // any animation has finished
                tmux.send("C-l")
                #expect(
                    try tmux.waitUntilSettled() == screen,
                    "\(what): incremental screen equals a full repaint\nbefore Ctrl-L:\n\(screen)\nafter:\n\(tmux.capture())"
                )
                #expect(settled.lines[0].contains("Failed Banks"), "\(what):\n\(settled)")
                try quitCleanly(fixture, tmux, count: total - 1, what)
            }
        }

        @Test func ctrlZSuspendsWithTheTerminalRestoredAndFgResumes() throws {
            let fixture = try BrowserFixture()
            defer { fixture.remove() }
            let total = try StoreFacts(fixture).byDate.count
            let directory = fixture.directory.path
            // `env --default-signal`: the shell a person has (the test thread's blocked signal mask is not passed on).
            let tmux = try TmuxSession(
                command: ["/usr/bin/env", "--default-signal", "/bin/bash", "--norc", "--noprofile", "-i"],
                width: 80,
                height: 24,
                environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "screen", "PS1": "PROMPT$ "]
            )
            defer { tmux.close() }
            try tmux.waitFor("PROMPT$")
            tmux.type("cd \(ProcessRunner.shellQuoted(directory))")
            tmux.send("Enter")
            tmux.type("\(ProcessRunner.shellQuoted(binary)) --db banks.sqlite 2> app.stderr")
            tmux.send("Enter")
            try tmux.waitFor("1/\(total)", timeout: 10)
            tmux.send("Down")
            try tmux.waitFor("2/\(total)")

            tmux.send("C-z")
            let suspended = try tmux.waitFor("Stopped", timeout: 5)
            #expect(!suspended.contains("2/\(total)"), "the app's screen is put away while suspended:\n\(suspended)")
            #expect(tmux.paneFormat("#{alternate_on}") == "0", "the alternate screen is off while suspended")
            tmux.type("stty -a > stty-suspended.txt")
            tmux.send("Enter")
            try waitUntil("stty while suspended", timeout: 5) {
                !((try? String(contentsOfFile: directory + "/stty-suspended.txt", encoding: .utf8)) ?? "").isEmpty
            }
            let stty = (try? String(contentsOfFile: directory + "/stty-suspended.txt", encoding: .utf8)) ?? ""
            #expect(sttyIsSane(stty), "terminal while suspended: \(stty)")

            tmux.type("fg")
            tmux.send("Enter")
            try tmux.waitUntil("the app's screen again", timeout: 10) {
                $0.contains("Failed Banks") && $0.contains("2/\(total)")
            }
            tmux.send("Down")
            let resumed = try tmux.waitFor("3/\(total)", timeout: 10)
            #expect(!resumed.contains("PROMPT$"), "a full repaint after fg:\n\(resumed)")
            tmux.send("q")
            try tmux.waitUntil("the prompt after quitting", timeout: 5) {
                $0.lines.last { !$0.isEmpty }?.hasPrefix("PROMPT$") == true
            }
            tmux.type("echo \"STATUS=$?\"; stty -a > stty-end.txt")
            tmux.send("Enter")
            try tmux.waitFor("STATUS=0", timeout: 5)
            try waitUntil("stty after quitting", timeout: 5) {
                !((try? String(contentsOfFile: directory + "/stty-end.txt", encoding: .utf8)) ?? "").isEmpty
            }
            #expect(sttyIsSane((try? String(contentsOfFile: directory + "/stty-end.txt", encoding: .utf8)) ?? ""))
            #expect(fixture.standardError().isEmpty, "stderr: \(fixture.standardError())")
        }

        /// Regression: the browser never closed its connection (its object graph is a retain cycle,
        /// which LeakSanitizer reports at every exit), so `-wal` and `-shm` stayed beside the store.
        @Test func quittingTheBrowserClosesTheStoreLeavingNoWalOrShm() throws {
            let (fixture, tmux, _) = try launch()
            defer {
                tmux.close()
                fixture.remove()
            }
            tmux.send("q")
            #expect(fixture.exitStatus(timeout: 30) == 0)
            // Looked at before anything else opens the store (the last connection to close removes them).
            let files = try FileSnapshot(fixture.database).siblings
            #expect(files == ["banks.sqlite"], "beside the store after quitting: \(files)")
        }

        @Test func sighupRestoresTheTerminalAndExitsWithTheSignal() throws {
            let (fixture, tmux, total) = try launch()
            defer {
                tmux.close()
                fixture.remove()
            }
            let pid = try #require(fixture.appPID())
            kill(pid, SIGHUP)
            let status = fixture.exitStatus(timeout: 30)
            #expect(status == 128 + SIGHUP, "exit status \(status.map(String.init) ?? "none (still running)")")
            #expect(
                sttyIsSane(fixture.sttyAfterExit() ?? ""),
                "terminal left: \(fixture.sttyAfterExit() ?? "no stty record")"
            )
            #expect(tmux.paneFormat("#{alternate_on}") == "0", "the alternate screen is off after SIGHUP")
            #expect(fixture.standardError().isEmpty, "stderr: \(fixture.standardError())")
            #expect(try fixture.sql("PRAGMA integrity_check") == "ok")
            #expect(try fixture.sql("SELECT count(*) FROM failed_bank_info") == "\(total)")
        }

        @Test func closingThePaneEndsTheAppAndLeavesTheStoreIntact() throws {
            let (fixture, tmux, total) = try launch()
            defer {
                tmux.close()
                fixture.remove()
            }
            let pid = try #require(fixture.appPID())
            tmux.send("d")  // mid-interaction: the Delete button showing
            try tmux.waitFor("Delete")
            _ = try ProcessRunner.run(tmux.tmux, ["-L", tmux.socket, "kill-pane", "-t", tmux.target])
            var ended = false
            try? waitUntil("the app to end after its terminal closed", timeout: 5) {
                ended = processHasEnded(pid)
                return ended
            }
            #expect(ended, "the app (pid \(pid)) still runs after its terminal was closed")
            if !ended { kill(pid, SIGKILL) }
            #expect(try fixture.sql("PRAGMA integrity_check") == "ok")
            #expect(try fixture.sql("SELECT count(*) FROM failed_bank_info") == "\(total)")
            #expect(
                fixture.standardError().isEmpty || !fixture.standardError().contains("Fatal error"),
                "stderr: \(fixture.standardError())"
            )
        }
    }
}
