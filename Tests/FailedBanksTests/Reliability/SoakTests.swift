import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `SOAK_MINUTES` (fractions allowed), nil when unset: how long ``ReliabilityTests/Soak`` runs.
let soakMinutes: Double? = ReliabilitySettings.environment["SOAK_MINUTES"].flatMap(Double.init).flatMap {
    $0 > 0 ? $0 : nil
}

extension ReliabilityTests {
    /// The soak (long form, not in CI): for `SOAK_MINUTES` minutes, random writers — imports of
    /// generated lists, a `sqlite3` shell inserting, updating and deleting, and deletes and undos
    /// in the browser (tmux keys; the question a delete that met the shell's change asks, "Delete it
    /// as it is now / Keep it", answered as a person would) — while `watch` and the browser run.
    /// Once the writers stop and the browser has handled every key, `watch`'s
    /// batches applied to its snapshot equal `list`, and the browser's pages equal those of a
    /// browser started afresh on a copy of the store.
    ///
    ///     swift build && SOAK_MINUTES=20 swift test --filter Soak
    @Suite(.enabled(if: soakMinutes != nil, "SOAK_MINUTES is not set (the soak is a long form, not in CI)"))
    struct Soak {
        let binary = ReliabilitySettings.failedbanks

        /// A conflict question open on the browser (its random deletes open them), answered before
        /// the next key: a person answers it (keys typed meanwhile went to it).
        private func answerQuestion(
            _ tmux: TmuxSession,
            _ random: inout ReliabilityRandom,
            _ answers: inout SoakConflictDialog.Answers
        ) throws {
            guard SoakConflictDialog.isShown(in: tmux.capture()) else { return }
            try SoakConflictDialog.settle(tmux, deletingNow: random.chance(0.5), into: &answers)
        }

        @Test func randomWritersLeaveWatchAndTheBrowserEqualToAFreshFetch() throws {
            let minutes = try #require(soakMinutes)
            let seed = ReliabilitySettings.seed(ci: 9_301)
            let replay = "\(ReliabilitySettings.replay(seed)) SOAK_MINUTES=\(minutes)"
            var random = ReliabilityRandom(seed: seed)
            let scratch = TemporaryDirectory("soak")
            defer { scratch.remove() }
            let fixture = try BrowserFixture()
            defer { fixture.remove() }
            let store = fixture.database
            let firstCount = try StoreFacts(fixture).byDate.count
            let lists = try [300, 1_500, 5_000].enumerated().map { index, rows in
                try ReliabilitySettings.generatedList(rows: rows, seed: seed &+ UInt64(index + 1), in: scratch.url)
            }

            // Readers: watch, then the browser.
            let watch = try SpawnedProcess(binary, ["watch", "--db", store], in: scratch.url, name: "watch")
            defer { watch.signal(SIGKILL) }
            try waitUntil("watch's snapshot line", timeout: 60) {
                watch.standardOutput.contains("\n") || !watch.isRunning
            }
            let tmux = try fixture.launch()
            defer { tmux.close() }
            try tmux.waitFor("1/\(firstCount)", timeout: 60)

            let shell = try SpawnedProcess(
                BrowserFixture.sqlite3!,
                ["-batch", "-bail", store],
                in: scratch.url,
                name: "shell",
                withInput: true
            )
            defer { shell.signal(SIGKILL) }
            shell.write(".timeout 120000\n")

            var counts = (imports: 0, statements: 0, deletes: 0, undos: 0)
            var answers = SoakConflictDialog.Answers()
            var failures: [String] = []
            var importer: SpawnedProcess?
            defer { importer?.signal(SIGKILL) }
            var shellLog = ""
            let deadline = Date().addingTimeInterval(minutes * 60)
            var step = 0
            while Date() < deadline {
                step += 1
                switch random.int(0...19) {
                case 0:
                    // An import of a generated list (one at a time: each waits for the store's writer anyway).
                    if let running = importer {
                        guard !running.isRunning else { break }
                        if running.exitStatus != 0 {
                            failures.append("import \(counts.imports): \(running.standardError)")
                        }
                    }
                    counts.imports += 1
                    importer = try SpawnedProcess(
                        binary,
                        ["import", random.pick(lists), "--db", store, "--quiet"],
                        in: scratch.url,
                        name: "import-\(counts.imports)"
                    )
                case 1...11:
                    let change = ConcurrentWriters.randomChange(
                        &random,
                        maxID: Int64(firstCount + 7_000 + counts.statements),
                        serial: counts.statements
                    )
                    shellLog += change
                    if !shell.write(change) { failures.append("the sqlite3 shell stopped: \(shell.standardError)") }
                    counts.statements += 1
                case 12...16:
                    try answerQuestion(tmux, &random, &answers)
                    // Select another bank and delete it: `d` shows the row's Delete button, a second `d` presses it.
                    for _ in 0..<random.int(0...4) { tmux.send(random.pick(["Down", "Down", "Up", "PageDown", "g"])) }
                    tmux.send("d", "d")
                    counts.deletes += 1
                default:
                    try answerQuestion(tmux, &random, &answers)
                    tmux.send("u")
                    counts.undos += 1
                }
                if step % 16 == 0 {
                    let screen = tmux.capture()
                    if SoakConflictDialog.isShown(in: screen) {
                        try SoakConflictDialog.settle(tmux, deletingNow: random.chance(0.5), into: &answers)
                    }
                    if let word = LockWords.first(in: screen) {
                        failures.append("\"\(word)\" on the browser's screen:\n\(screen)")
                    }
                    if screen.contains("EXITED") {
                        failures.append("the browser ended:\n\(screen)\n\(fixture.standardError())")
                        break
                    }
                    if !watch.isRunning {
                        failures.append("watch ended: \(watch.standardError)")
                        break
                    }
                }
                usleep(useconds_t(random.int(5_000...60_000)))
            }
            shell.closeInput()
            try? shellLog.write(toFile: scratch.path("shell.sql"), atomically: true, encoding: .utf8)
            #expect(shell.finish(timeout: 300), "the shell finishes its statements")
            if let importer {
                #expect(importer.finish(timeout: 300), "the last import finishes")
                if importer.exitStatus != 0 { failures.append("the last import: \(importer.standardError)") }
            }
            #expect(shell.exitStatus == 0, "sqlite3: \(shell.standardError)")
            // The browser, last of the writers: every key it was sent handled and its questions answered
            // (as a person would at the end), before the readers are compared with the store.
            try SoakConflictDialog.settle(tmux, deletingNow: random.chance(0.5), into: &answers)
            let context =
                "seed \(seed), \(counts.imports) imports, \(counts.statements) shell statements, "
                + "\(counts.deletes) browser deletes, \(counts.undos) undos, "
                + "\(answers.deletedNow + answers.kept) conflict questions (\(answers.deletedNow) deleted as they were); \(replay)"
            #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n")); \(context)")
            LockWords.expectNone(in: [("watch", watch.standardError), ("browser", fixture.standardError())], context)

            // Quiet: the readers catch up. watch's state, rebuilt from its lines, equals a fresh `list`.
            let settled = try WatchedState.settled(
                watch: watch,
                binary: binary,
                store: store,
                quiet: 2,
                timeout: 300,
                converging: 120
            )
            let (watched, expected, total) = (settled.watched, settled.expected, settled.total)
            #expect(watched.problems.isEmpty, "watch's batches: \(watched.problems.prefix(10)); \(context)")
            #expect(
                watched.sections == expected,
                "watch (\(watched.snapshots) snapshots, \(watched.batches) batches) differs from list (\(total) banks); \(context)"
            )

            // The browser: its pages from the top equal a browser's started afresh on a copy of the store.
            try tmux.waitFor("/\(total)", timeout: 120)
            let copy = try BrowserFixture(importing: false)
            defer { copy.remove() }
            try TemporaryDirectory.copyStore(store, to: copy.database)
            let freshTmux = try copy.launch()
            defer { freshTmux.close() }
            // The position after a space: "1/7180" is also the end of "6301/7180".
            try freshTmux.waitFor(" 1/\(total)", timeout: 120)
            tmux.send("g")
            try tmux.waitFor(" 1/\(total)", timeout: 60)
            // The last line is the status line (messages such as "Deleted …" differ): compare the rows above it.
            func rows(_ screen: String) -> [Substring] {
                screen.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            }
            // The position, last on the status line ("10/7179").
            func position(_ screen: String) -> Substring? {
                screen.split(separator: "\n").last?.split(separator: " ").last
            }
            for page in 0..<3 {
                if page > 0 {
                    // Each browser has handled its PageDown once its position moved: until then, two
                    // browsers still on the last page agree too.
                    for browser in [tmux, freshTmux] {
                        let before = position(browser.capture())
                        browser.send("PageDown")
                        try browser.waitUntil("page \(page + 1)", timeout: 60) { position($0) != before }
                    }
                }
                _ = try? freshTmux.waitUntil("page \(page + 1) of both browsers to agree", timeout: 60) { screen in
                    screen.contains("/\(total)") && rows(screen) == rows(tmux.capture())
                }
                let soaked = tmux.capture()
                let afresh = freshTmux.capture()
                #expect(
                    rows(soaked) == rows(afresh),
                    "page \(page + 1):\n\(soaked)\n--- afresh:\n\(afresh)\n\(context)"
                )
            }
            watch.signal(SIGINT)
            #expect(watch.finish(timeout: 60), "watch ends on SIGINT")
            #expect(try fixture.sql("PRAGMA integrity_check") == "ok")
            print(
                "soak: \(minutes) min; \(context); watch saw \(watched.snapshots) snapshots and \(watched.batches) batches; "
                    + "\(total) banks at the end"
            )
        }
    }
}
