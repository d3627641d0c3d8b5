import Foundation
import SQLiteStore
import TerminalUI
import TestSupport
import Testing

@testable import MyStashKit

/// A clipboard that records what it was given.
final class RecordingClipboard: Clipboard {
    private(set) var copied: [String] = []
    private(set) var cleared: [String] = []
    func copy(_ text: String) { copied.append(text) }
    /// What `clear` reports (a system clipboard that can read back by default).
    var clearing = ClipboardClearing.cleared
    func clear(ifStillHolding text: String) -> ClipboardClearing {
        cleared.append(text)
        return clearing
    }
}

/// `c`, `C` and `t` copy without showing; the status line counts down to the clearing.
@Suite struct ClipboardTests {
    /// The app over a stash holding one password entry "Bank" (a user ID and a TOTP secret
    /// too), copying to a recording clipboard cleared after 45 s, on a test clock.
    static func bankApp(in temp: TemporaryStash, password: String) throws -> (StashApp, RecordingClipboard, TestClock) {
        let stash = try temp.open()
        try stash.addPassword(
            PasswordEntry(
                name: "Bank",
                userID: "me@example.com",
                password: password,
                totp: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
            )
        )
        let clipboard = RecordingClipboard()
        let clock = TestClock(now: 100)
        return (try app(stash, clipboard: clipboard, clock: clock), clipboard, clock)
    }

    /// The app over `stash` on an 80×24 memory screen, without animation, copying to `clipboard`
    /// (cleared after 45 s); locking after `lockAfter` idle seconds (0: never).
    static func app(
        _ stash: Stash,
        clipboard: RecordingClipboard,
        clock: TestClock,
        lockAfter: Double = 0
    ) throws
        -> StashApp
    {
        try StashApp(
            stash: stash,
            backend: MemoryBackend(width: 80, height: 24),
            clock: clock,
            animated: false,
            lockAfter: lockAfter,
            clipboard: clipboard,
            clipSeconds: 45
        )
    }

    @Test func copyingThePasswordCountsDownAndClears() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let (app, clipboard, clock) = try ClipboardTests.bankApp(in: temp, password: "copy-Secret-77")
        app.send(.tab)
        app.send(.character("c"))
        app.loop.draw()
        #expect(clipboard.copied == ["copy-Secret-77"])
        #expect(app.screenText.contains("Copied the password of “Bank” — cleared in 45 s"), "\(app.screenText)")
        #expect(!app.screenText.contains("copy-Secret-77"))
        clock.advance(by: 10.2)
        app.browser.updateClipboardStatus(at: clock.now)
        app.loop.draw()
        #expect(app.screenText.contains("cleared in 35 s"))
        app.send(.character("C"))
        #expect(clipboard.copied.last == "me@example.com")
        app.send(.character("t"))
        #expect(clipboard.copied.last?.count == 6)
        clock.advance(by: 45)
        app.browser.updateClipboardStatus(at: clock.now)
        app.loop.draw()
        #expect(clipboard.cleared == [clipboard.copied.last!])
        #expect(app.screenText.contains("Clipboard cleared"))
    }
}

/// The same copies from inside the password's form: Ctrl-X then `c`, `C` or `t` (letters alone type into the fields).
@Suite struct FormClipboardTests {
    @Test func ctrlXCopiesWhatTheFormHoldsAndItsStatusLineCountsDown() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let (app, clipboard, clock) = try ClipboardTests.bankApp(in: temp, password: "form-Secret-88")
        app.send(.tab)
        app.send(.enter)
        app.loop.draw()
        #expect(app.screenText.contains("Edit Password"))
        #expect(app.screenText.contains("^X c/C/t copy, h history"), "\(app.screenText)")
        app.send(.control("x"))
        app.loop.draw()
        #expect(app.screenText.contains("Ctrl-X: copy c password"), "\(app.screenText)")
        app.send(.character("c"))
        app.loop.draw()
        #expect(clipboard.copied == ["form-Secret-88"])
        #expect(app.screenText.contains("Edit Password"))
        #expect(app.screenText.contains("Copied the password of “Bank” — cleared in 45 s"), "\(app.screenText)")
        #expect(!app.screenText.contains("form-Secret-88"))
        #expect(!app.screenText.contains("cform"), "the c was a command, not typed into a field")
        clock.advance(by: 10.2)
        app.browser.updateClipboardStatus(at: clock.now)
        app.loop.draw()
        #expect(app.screenText.contains("cleared in 35 s"), "\(app.screenText)")
        // The fields as they stand in the form (edited, not yet saved).
        app.send(.character("x"))  // the name is now “Bankx”
        app.send(.control("x"))
        app.send(.character("C"))
        #expect(clipboard.copied.last == "me@example.com")
        app.send(.tab)
        app.send(.control("e"))
        app.send(.character("2"))
        app.send(.control("x"))
        app.send(.character("C"))
        #expect(clipboard.copied.last == "me@example.com2")
        app.send(.control("x"))
        app.send(.character("t"))
        let code = try #require(clipboard.copied.last)
        let expected = try [Date().addingTimeInterval(-30), Date(), Date().addingTimeInterval(30)].map {
            try TOTP(parsing: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ").code(at: $0)
        }
        #expect(expected.contains(code), "\(code)")
        app.loop.draw()
        #expect(app.screenText.contains("Copied the TOTP code of “Bankx” — cleared in 45 s"), "\(app.screenText)")
        // Time up: cleared, and the form says so.
        clock.advance(by: 45)
        app.browser.updateClipboardStatus(at: clock.now)
        app.loop.draw()
        #expect(clipboard.cleared == [code])
        #expect(app.screenText.contains("Clipboard cleared"), "\(app.screenText)")
        #expect(app.screenText.contains("Edit Password"))
        #expect(try app.stash.names(of: .passwords) == ["Bank"], "copying saves nothing")
    }

    @Test func nothingToCopyIsSaidAndAnyOtherKeyEndsThePrefix() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        let clipboard = RecordingClipboard()
        let app = try ClipboardTests.app(stash, clipboard: clipboard, clock: TestClock(now: 1))
        app.send(.tab)
        app.send(.character("a"))
        for character in "Shop" { app.send(.character(character)) }
        app.send(.control("x"))
        app.send(.character("c"))
        app.loop.draw()
        #expect(app.screenText.contains("Not copied: the password is empty"), "\(app.screenText)")
        app.send(.control("x"))
        app.send(.character("t"))
        app.loop.draw()
        #expect(app.screenText.contains("Not copied: this entry has no TOTP secret"), "\(app.screenText)")
        #expect(clipboard.copied.isEmpty)
        // Ctrl-X then Esc: the prefix ends, the form stays.
        app.send(.control("x"))
        app.send(.escape)
        app.loop.draw()
        #expect(app.screenText.contains("New Password") && !app.screenText.contains("Ctrl-X: copy"))
        #expect(app.screenText.contains("Shop") && !app.screenText.contains("Shopc"))
    }

    @Test func aCtrlXPendingWhenTheAppLocksIsForgotten() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open(passphrase: "lock me")
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "pending-Secret-1"))
        let clipboard = RecordingClipboard()
        let clock = TestClock(now: 100)
        let app = try ClipboardTests.app(stash, clipboard: clipboard, clock: clock, lockAfter: 60)
        app.send(.tab)
        app.send(.enter)
        app.send(.control("x"))
        clock.advance(by: 61)
        app.lockIfIdle(now: clock.now)
        #expect(app.isLocked)
        for character in "lock me" { app.send(.character(character)) }
        app.send(.enter)
        #expect(!app.isLocked)
        app.send(.character("c"))  // typed into the name field, not a copy
        app.loop.draw()
        #expect(clipboard.copied.isEmpty)
        #expect(app.screenText.contains("Bankc"), "\(app.screenText)")
    }

    @Test func cOnAnEntryWithoutAUserIDSaysSoInsteadOfCopyingNothing() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        try stash.addPassword(PasswordEntry(name: "Router", password: "router-pw"))
        let clipboard = RecordingClipboard()
        let app = try ClipboardTests.app(stash, clipboard: clipboard, clock: TestClock(now: 1))
        app.send(.tab)
        app.send(.character("C"))
        app.loop.draw()
        #expect(clipboard.copied.isEmpty)
        #expect(app.screenText.contains("Not copied: “Router” has no user ID"), "\(app.screenText)")
    }
}

/// `mystash copy` through a system tool (a stand-in `xclip`) and its background clearer.
@Suite(.enabled(if: EndToEnd.binary != nil, "needs the built mystash (swift build)"))
struct CopyCommandTests {
    @Test func copyPutsTheFieldOnTheClipboardAndTheClearerEmptiesIt() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open(passphrase: "copy pass")
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "cli-copy-secret"))
        stash.lock()
        let clipboard = try StandInClipboard(in: temp.directory)
        let result = try ScriptRun.run(
            ["copy", "Bank", "--clip-seconds", "1", "--db", temp.path, "--passphrase-fd", "3"],
            fd3: "copy pass\n",
            extraEnvironment: clipboard.environment
        )
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "")
        #expect(result.standardError.contains("Copied the password of “Bank” — cleared in 1 s"))
        #expect(clipboard.content == "cli-copy-secret")
        // The background clearer empties it.
        #expect(clipboard.waitUntilEmpty())
    }
}

/// `c` in a real terminal: tmux (`set-clipboard on`) takes the OSC 52 sequence into its buffer.
@Suite(.serialized) struct ClipboardEndToEndTests {
    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func copyReachesTmuxThroughOSC52AndTheStatusCountsDown() throws {
        let session = try StashSession()
        defer { session.remove() }
        let stash = try Stash(path: session.database)
        try stash.setUp(passphrase: SecureBytes(utf8: "clip pass"), parameters: .minimum)
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "osc52-Secret-5"))
        stash.lock()
        let (pane, _) = try session.launch(["--no-animation", "--clip-seconds", "30"])
        defer { pane.close() }
        _ = try? ProcessRunner.runDetaching(pane.tmux, ["-L", pane.socket, "set-option", "-g", "set-clipboard", "on"])
        try pane.waitFor("Master passphrase:")
        pane.type("clip pass")
        pane.press("Enter")
        try pane.waitFor("No notes yet")  // the app has the terminal: keys reach it now
        pane.press("Tab")
        try pane.waitFor("Bank")
        pane.type("c")
        let screen = try pane.waitFor("Copied the password of “Bank” — cleared in")
        #expect(!screen.contains("osc52-Secret-5"))
        let deadline = Date().addingTimeInterval(10)
        var buffer = ""
        while Date() < deadline {
            buffer =
                (try? ProcessRunner.runDetaching(pane.tmux, ["-L", pane.socket, "show-buffer"]).standardOutput) ?? ""
            if buffer == "osc52-Secret-5" { break }
            usleep(50_000)
        }
        #expect(buffer == "osc52-Secret-5")
        // The countdown moves on.
        try pane.waitUntil("the countdown") { screen in
            (20...28).contains { screen.contains("cleared in \($0) s") }
        }
    }
}

/// A stand-in `xclip` in a folder of its own: what it holds is a file the test reads.
struct StandInClipboard {
    let state: String
    /// The environment that makes `mystash` find it (`DISPLAY` set, the folder first on `PATH`).
    let environment: [String: String]

    init(in directory: URL) throws {
        let bin = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        state = directory.appendingPathComponent("clipboard.txt").path
        let xclip = bin.appendingPathComponent("xclip").path
        try """
        #!/bin/sh
        case "$*" in *-out*) cat \(ProcessRunner.shellQuoted(state)) 2>/dev/null ;; *) cat > \(ProcessRunner.shellQuoted(state)) ;; esac

        """.write(toFile: xclip, atomically: true, encoding: .utf8)
        chmod(xclip, 0o755)
        environment = ["DISPLAY": ":99", "WAYLAND_DISPLAY": "", "PATH": bin.path + ":/usr/bin:/bin"]
    }

    var content: String { (try? String(contentsOfFile: state, encoding: .utf8)) ?? "" }

    /// Waits (30 s at most) until the clipboard is empty; whether it became so.
    func waitUntilEmpty() -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if content.isEmpty { return true }
            usleep(50_000)
        }
        return content.isEmpty
    }
}

/// The background clearer of `mystash copy`, found by its command line (`mystash __clear-clipboard SECONDS`).
enum ClearerProcess {
    /// The pid of the clearer started with `seconds` (a number each test chooses apart), waiting for it to show.
    static func find(seconds: Int) -> pid_t? {
        let wanted = ["mystash", "__clear-clipboard", String(seconds)]
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = pid_t(entry),
                    let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
                else { continue }
                let arguments = data.split(separator: 0, omittingEmptySubsequences: false)
                    .map { String(decoding: $0, as: UTF8.self) }
                if Array(arguments.prefix(3)) == wanted { return pid }
            }
            usleep(50_000)
        }
        return nil
    }

    /// Whether the process `pid` has ended (gone, or a zombie waiting for its new parent).
    static func hasEnded(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return true }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }
}

/// The clearer of `mystash copy` clears on every catchable signal, and holds nothing of the copy's.
@Suite(.enabled(if: EndToEnd.binary != nil, "needs the built mystash (swift build)"))
struct ClipboardClearerTests {
    /// A stash holding "Bank" (password `clearer-secret`), unlocked by "clear pass".
    private static func makeStash(_ temp: TemporaryStash) throws {
        let stash = try temp.open(passphrase: "clear pass")
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "clearer-secret"))
        stash.lock()
    }

    /// A `--clip-seconds` no other test uses (the clearer is found by it), far beyond any test's wait.
    private static func clipSeconds(_ n: Int32) -> Int { 50_000 + Int(getpid() % 1000) * 40 + Int(n) }

    @Test(arguments: [SIGTERM, SIGINT, SIGQUIT, SIGUSR1, SIGTSTP])
    func aSignalToTheClearerClearsTheClipboardAtOnce(signal: Int32) throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try Self.makeStash(temp)
        let clipboard = try StandInClipboard(in: temp.directory)
        let seconds = Self.clipSeconds(signal)
        let result = try ScriptRun.run(
            ["copy", "Bank", "--clip-seconds", String(seconds), "--db", temp.path, "--passphrase-fd", "3"],
            fd3: "clear pass\n",
            extraEnvironment: clipboard.environment
        )
        #expect(result.status == 0, "\(result.standardError)")
        #expect(clipboard.content == "clearer-secret")
        let pid = try #require(ClearerProcess.find(seconds: seconds), "no clearer running")
        defer { kill(pid, SIGKILL) }
        kill(pid, signal)
        #expect(clipboard.waitUntilEmpty(), "signal \(signal) left “\(clipboard.content)” on the clipboard")
        let deadline = Date().addingTimeInterval(30)
        while !ClearerProcess.hasEnded(pid) && Date() < deadline { usleep(50_000) }
        #expect(ClearerProcess.hasEnded(pid), "the clearer still runs after signal \(signal)")
    }

    @Test func theClearerHoldsNoDescriptorOfTheCopyNotEvenThePassphrases() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try Self.makeStash(temp)
        let clipboard = try StandInClipboard(in: temp.directory)
        let seconds = Self.clipSeconds(0)
        // The passphrase on a socket the test keeps: sending on it fails once no process holds its other end.
        let copy = try ScriptRun.startBlocked(
            [
                EndToEnd.binary!, "copy", "Bank", "--clip-seconds", String(seconds), "--db", temp.path,
                "--passphrase-fd", "3",
            ],
            extraEnvironment: clipboard.environment,
            socket: true,
            newSession: true  // no terminal: the clearer's descriptor 3 is not the terminal's either
        )
        let line = Array("clear pass\n".utf8)
        #expect(send(copy.writeEnd, line, line.count, Int32(MSG_NOSIGNAL)) == line.count)
        #expect(copy.wait() == 0)
        defer { close(copy.writeEnd) }
        let pid = try #require(ClearerProcess.find(seconds: seconds), "no clearer running")
        defer { kill(pid, SIGKILL) }
        #expect(clipboard.content == "clearer-secret")
        let probe: [UInt8] = [0x78]
        let sent = send(copy.writeEnd, probe, probe.count, Int32(MSG_NOSIGNAL))
        #expect(sent == -1 && errno == EPIPE, "the passphrase's descriptor is still open in the clearer")
    }
}

/// Under tmux a copy goes to a buffer of its own, gone after `--clip-seconds`; the person's own copies stay.
@Suite(.serialized) struct TmuxClipboardTests {
    static let secret = "tmux-Secret-6"

    /// Every tmux buffer of the pane's server: name → contents.
    static func buffers(_ pane: TmuxSession) -> [String: String] {
        let names =
            (try? ProcessRunner.runDetaching(pane.tmux, ["-L", pane.socket, "list-buffers", "-F", "#{buffer_name}"])
                .standardOutput)
            ?? ""
        var result: [String: String] = [:]
        for name in names.split(separator: "\n").map(String.init) {
            result[name] = try? ProcessRunner.runDetaching(pane.tmux, ["-L", pane.socket, "show-buffer", "-b", name])
                .standardOutput
        }
        return result
    }

    /// Waits (30 s at most) until no buffer holds the secret; the buffers then.
    static func waitUntilNoBufferHoldsTheSecret(_ pane: TmuxSession) -> [String: String] {
        let deadline = Date().addingTimeInterval(30)
        var now = buffers(pane)
        while now.values.contains(secret) && Date() < deadline {
            usleep(100_000)
            now = buffers(pane)
        }
        return now
    }

    private static func makeStash(_ session: StashSession) throws {
        let stash = try Stash(path: session.database)
        try stash.setUp(passphrase: SecureBytes(utf8: "tmux pass"), parameters: .minimum)
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: secret))
        stash.lock()
    }

    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func afterClipSecondsTheCopiedPasswordIsInNoTmuxBufferAndTheUsersOwnCopyStays() throws {
        let session = try StashSession()
        defer { session.remove() }
        try Self.makeStash(session)
        let (pane, run) = try session.launch(["--clip-seconds", "15"], subcommand: ["copy", "Bank"])
        defer { pane.close() }
        _ = try? ProcessRunner.runDetaching(pane.tmux, ["-L", pane.socket, "set-option", "-g", "set-clipboard", "on"])
        try pane.waitFor("Master passphrase:")
        pane.type("tmux pass")
        pane.press("Enter")
        try pane.waitFor("EXITED")
        #expect(session.exitStatus(of: run) == 0, "\(session.file("stderr-\(run).txt"))")
        #expect(session.file("stderr-\(run).txt").contains("Copied the password of “Bank” — cleared in 15 s\n"))
        // Within the 15 s, the copy is in tmux (where a paste finds it).
        let copied = Self.buffers(pane)
        #expect(copied.values.contains(Self.secret), "no tmux buffer holds the copy: \(copied)")
        // The person copies something of their own meanwhile.
        _ = try ProcessRunner.runDetaching(pane.tmux, ["-L", pane.socket, "set-buffer", "my own clip"])
        let after = Self.waitUntilNoBufferHoldsTheSecret(pane)
        #expect(!after.values.contains(Self.secret), "the password is still in a tmux buffer: \(after)")
        #expect(after.values.contains("my own clip"), "the person's own copy was cleared too: \(after)")
    }

    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func theAppsCopyIsInNoTmuxBufferOnceItSaysCleared() throws {
        let session = try StashSession()
        defer { session.remove() }
        try Self.makeStash(session)
        let (pane, _) = try session.launch(["--no-animation", "--clip-seconds", "4"])
        defer { pane.close() }
        _ = try? ProcessRunner.runDetaching(pane.tmux, ["-L", pane.socket, "set-option", "-g", "set-clipboard", "on"])
        try pane.waitFor("Master passphrase:")
        pane.type("tmux pass")
        pane.press("Enter")
        try pane.waitFor("No notes yet")
        pane.press("Tab")
        try pane.waitFor("Bank")
        pane.type("c")
        try pane.waitFor("Copied the password of “Bank”")
        try pane.waitFor("Clipboard cleared")
        let after = Self.buffers(pane)
        #expect(!after.values.contains(Self.secret), "the password is still in a tmux buffer: \(after)")
    }
}

/// Where no tmux buffer or tool can be read back, the clearing is said to be unconfirmed.
@Suite struct UnverifiedClearingTests {
    @Test func anOSC52ClearIsReportedAsUnconfirmed() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let clipboard = SystemClipboard(terminal: ends[1], environment: ["PATH": "/nonexistent"])
        #expect(!clipboard.canVerifyClearing)
        clipboard.copy("osc-only")
        #expect(clipboard.clear(ifStillHolding: "osc-only") == .unverified)
        #expect(ClipboardClearing.unverified.message == "Clipboard clear sent (OSC 52: the terminal cannot confirm it)")
    }

    @Test func theStatusLineSaysWhatTheClearingAchieved() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let (app, clipboard, clock) = try ClipboardTests.bankApp(in: temp, password: "status-Secret-1")
        clipboard.clearing = .unverified
        app.send(.tab)
        app.send(.character("c"))
        clock.advance(by: 45)
        app.browser.updateClipboardStatus(at: clock.now)
        app.loop.draw()
        #expect(
            app.screenText.contains("Clipboard clear sent (OSC 52: the terminal cannot confirm it)"),
            "\(app.screenText)"
        )
        clipboard.clearing = .replaced
        app.send(.character("c"))
        clock.advance(by: 45)
        app.browser.updateClipboardStatus(at: clock.now)
        app.loop.draw()
        #expect(app.screenText.contains("Clipboard left alone: it holds something else now"), "\(app.screenText)")
    }
}
