import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension ReliabilityTests {
    /// Readers (`watch`, the browser) and writers (an import, a `sqlite3`
    /// shell, a second import) on one store at once: nobody crashes, nobody
    /// shows "database is locked", and what the readers end up with is what a
    /// fresh fetch returns.
    @Suite struct ConcurrentWriters {
        let binary = ReliabilitySettings.failedbanks

        /// One round in CI; the long form runs several, each with its own seed (the base seed + the round).
        @Test(arguments: Array(0..<ReliabilitySettings.trials(ci: 1, long: 5)))
        func watchAndBrowserFollowAnImportAndAShellDeletingAndUpdatingAtRandom(_ round: Int) throws {
            let seed = ReliabilitySettings.seed(ci: 9_101) &+ UInt64(round)
            let rows = ReliabilitySettings.size(ci: 20_000, long: 100_000)
            let replay = ReliabilitySettings.replay(seed)
            let scratch = TemporaryDirectory("concurrent")
            defer { scratch.remove() }
            let fixture = try BrowserFixture()
            defer { fixture.remove() }
            let store = fixture.database
            let firstCount = try StoreFacts(fixture).byDate.count
            let big = try ReliabilitySettings.generatedList(rows: rows, seed: seed, in: scratch.url)
            let second = try ReliabilitySettings.generatedList(rows: 2_000, seed: seed &+ 1, in: scratch.url)

            // Readers first: watch (its snapshot), then the browser.
            let watch = try SpawnedProcess(binary, ["watch", "--db", store], in: scratch.url, name: "watch")
            defer { watch.signal(SIGKILL) }
            try waitUntil("watch's snapshot line", timeout: 10) {
                watch.standardOutput.contains("\n") || !watch.isRunning
            }
            let tmux = try fixture.launch()
            defer { tmux.close() }
            try tmux.waitFor("1/\(firstCount)", timeout: 10)

            // Writers: the big import, a shell changing banks at random, and a second import midway.
            let importer = try SpawnedProcess(
                binary,
                ["import", big, "--db", store, "--quiet"],
                in: scratch.url,
                name: "import"
            )
            defer { importer.signal(SIGKILL) }
            let shell = try SpawnedProcess(
                BrowserFixture.sqlite3!,
                ["-batch", "-bail", store],
                in: scratch.url,
                name: "shell",
                withInput: true
            )
            defer { shell.signal(SIGKILL) }
            shell.write(".timeout 120000\n")
            var random = ReliabilityRandom(seed: seed)
            var secondImporter: SpawnedProcess?
            var statements = 0
            var shellLog = ""
            var screensWithLockWords: [String] = []
            let started = Date()
            // While the import runs, and for a while after it (so that changes also land between its batches).
            var quietAfterImport: Date?
            while true {
                if !importer.isRunning, quietAfterImport == nil { quietAfterImport = Date().addingTimeInterval(1.5) }
                if let until = quietAfterImport, Date() > until { break }
                if Date().timeIntervalSince(started) > 300 { break }
                if secondImporter == nil, Date().timeIntervalSince(started) > 0.3 {
                    secondImporter = try SpawnedProcess(
                        binary,
                        ["import", second, "--db", store, "--quiet"],
                        in: scratch.url,
                        name: "import2"
                    )
                }
                let change = Self.randomChange(&random, maxID: Int64(firstCount + rows + 2_000), serial: statements)
                shellLog += change
                #expect(shell.write(change), "the sqlite3 shell takes statements: \(shell.standardError)")
                statements += 1
                if statements % 8 == 0 {
                    // What a person would see meanwhile: no lock error in the browser's status line either.
                    let screen = tmux.capture()
                    if let word = LockWords.first(in: screen) {
                        screensWithLockWords.append("\"\(word)\" on screen:\n\(screen)")
                    }
                }
                usleep(useconds_t(random.int(5_000...40_000)))
            }
            shell.closeInput()
            try? shellLog.write(toFile: scratch.path("shell.sql"), atomically: true, encoding: .utf8)
            #expect(shell.finish(timeout: 130), "the shell finishes its statements")
            #expect(importer.finish(timeout: 120), "the import finishes")
            #expect(secondImporter?.finish(timeout: 120) ?? true, "the second import finishes")
            let context = "seed \(seed), \(rows) rows, \(statements) shell statements; \(replay)"

            // Every process: no crash, no lock error.
            #expect(importer.exitStatus == 0, "import: \(importer.standardError); \(context)")
            #expect(
                secondImporter?.exitStatus == 0,
                "second import: \(secondImporter?.standardError ?? ""); \(context)"
            )
            #expect(shell.exitStatus == 0, "sqlite3: \(shell.standardError); \(context)")
            LockWords.expectNone(
                in: [
                    ("import", importer.standardError), ("second import", secondImporter?.standardError ?? ""),
                    ("watch", watch.standardError), ("browser", fixture.standardError()),
                ],
                context
            )
            #expect(
                screensWithLockWords.isEmpty,
                "the browser showed a lock error: \(screensWithLockWords.first ?? ""); \(context)"
            )
            #expect(watch.isRunning, "watch keeps running: \(watch.standardError); \(context)")

            // Let the readers catch up: watch's output stops growing (then it is given 30 s more to
            // equal a fresh list: eventually consistent), and the browser repaints.
            let settled = try WatchedState.settled(
                watch: watch,
                binary: binary,
                store: store,
                quiet: 1.5,
                timeout: 30,
                converging: 30
            )
            let (watched, expected, total) = (settled.watched, settled.expected, settled.total)
            #expect(watched.problems.isEmpty, "watch's batches: \(watched.problems.prefix(10)); \(context)")
            #expect(watched.sections.map(\.name) == expected.map(\.name), "watched section names; \(context)")
            if watched.sections != expected {
                let firstDifference = zip(watched.sections, expected).enumerated().first {
                    $0.element.0 != $0.element.1
                }?.offset
                let seen = Set(watched.sections.flatMap(\.ids))
                let fetched = Set(expected.flatMap(\.ids))
                let kept = TemporaryDirectory.create("failedbanks-concurrent-\(seed)")
                try? FileManager.default.removeItem(at: kept)
                try? FileManager.default.copyItem(at: scratch.url, to: kept)
                try? settled.listed.write(
                    to: kept.appendingPathComponent("list.json"),
                    atomically: true,
                    encoding: .utf8
                )
                try? TemporaryDirectory.copyStore(store, to: kept.appendingPathComponent("banks.sqlite").path)
                Issue.record(
                    """
                    the watched state (\(watched.snapshots) snapshots, \(watched.batches) batches, \(seen.count) banks) differs from \
                    a fresh fetch (\(total) banks) after waiting \(Int(settled.convergence)) s, first in section \(firstDifference.map { expected[$0].name } ?? "count"); \
                    only watched: \(seen.subtracting(fetched).sorted().prefix(10)), only fetched: \(fetched.subtracting(seen).sorted().prefix(10)); \
                    watch output, shell statements and store kept in \(kept.path); \(context)
                    """
                )
            }

            // The browser: alive, showing the fresh total, its screen equal to a full repaint.
            let screen = try tmux.waitUntil("the browser to show \(total) banks", timeout: 10) {
                $0.contains("/\(total)")
            }
            #expect(!screen.contains("EXITED"), "the browser is still running:\n\(screen)")
            tmux.send("C-l")
            #expect(try tmux.waitUntilSettled() == screen, "incremental screen equals a full repaint; \(context)")
            if let header = screen.lines.first(where: { line in expected.contains { line.contains("\($0.name) (") } }),
                let section = expected.first(where: { header.contains("\($0.name) (") })
            {
                #expect(
                    header.contains("\(section.name) (\(section.ids.count))"),
                    "header \(header) vs fresh count \(section.ids.count); \(context)"
                )
            }
            watch.signal(SIGINT)
            #expect(watch.finish(timeout: 30), "watch ends on SIGINT")
            #expect(try fixture.sql("PRAGMA integrity_check") == "ok")
            print(
                "concurrent writers: \(rows)-row import + 2,000-row import + \(statements) shell statements; "
                    + "watch saw \(watched.snapshots) snapshots and \(watched.batches) batches (settled \(String(format: "%.1f", settled.convergence)) s after the quiet period); "
                    + "\(total) banks at the end; seed \(seed)"
            )
        }

        /// One random change by the shell: delete a bank (with or without foreign keys),
        /// rename it, move it to another state or year, or insert a new one (the soak uses it too).
        static func randomChange(_ random: inout ReliabilityRandom, maxID: Int64, serial: Int) -> String {
            let id = random.int(1...Int(maxID))
            switch random.int(0...6) {
            case 0:
                return "PRAGMA foreign_keys = ON; DELETE FROM failed_bank_info WHERE id = \(id);\n"
            case 1:
                return
                    "DELETE FROM failed_bank_details WHERE info_id = \(id); DELETE FROM failed_bank_info WHERE id = \(id);\n"
            case 2:
                return "UPDATE failed_bank_info SET name = 'Renamed \(serial) Bank' WHERE id = \(id);\n"
            case 3:
                let state = random.pick(["AK", "CA", "NY", "TX", "ZZ"])
                return "UPDATE failed_bank_info SET state = '\(state)' WHERE id = \(id);\n"
            case 4, 5:
                let date = String(
                    format: "%04d-%02d-%02d",
                    random.int(1995...2027),
                    random.int(1...12),
                    random.int(1...28)
                )
                return "UPDATE failed_bank_details SET close_date = '\(date)' WHERE info_id = \(id);\n"
            default:
                let date = String(
                    format: "%04d-%02d-%02d",
                    random.int(1995...2027),
                    random.int(1...12),
                    random.int(1...28)
                )
                return """
                    BEGIN; INSERT INTO failed_bank_info(name, city, state) VALUES ('Shell \(serial) Bank', 'Testville', 'KS');
                    INSERT INTO failed_bank_details(close_date, cert, info_id, acquiring_institution, fund)
                      VALUES ('\(date)', \(90_000_000 + serial), last_insert_rowid(), 'Nobody', 1); COMMIT;

                    """
            }
        }
    }
}

/// Polls `condition` every 20 ms until it holds; throws after `timeout` seconds, or
/// ``generousDeadline`` if longer: a loaded machine can stall a program for seconds.
func waitUntil(_ what: String, timeout: Double, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(max(timeout, generousDeadline))
    while !condition() {
        if Date() > deadline {
            throw EndToEndError("timed out after \(max(timeout, generousDeadline)) s waiting for \(what)")
        }
        usleep(20_000)
    }
}

/// Waits until the file at `path` has not grown for `quiet` seconds.
func waitUntilStable(_ path: String, quiet: Double, timeout: Double) throws {
    func size() -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? -1
    }
    let deadline = Date().addingTimeInterval(timeout)
    var last = size()
    var since = Date()
    while Date().timeIntervalSince(since) < quiet {
        if Date() > deadline { throw EndToEndError("\(path) kept growing for \(timeout) s") }
        usleep(50_000)
        let now = size()
        if now != last {
            last = now
            since = Date()
        }
    }
}
