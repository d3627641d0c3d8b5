import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension ReliabilityTests {
    /// SIGKILL at random moments, while the store is being written: SQLite's
    /// journal must leave either the state before the write or the state
    /// after it, never a part, and never a damaged file.
    @Suite struct CrashSafety {
        let binary = ReliabilitySettings.failedbanks

        @Test func importKilledAtAnyMomentLeavesTheOldDataOrTheWholeImportNeverPart() throws {
            let seed = ReliabilitySettings.seed(ci: 9_001)
            let trials = ReliabilitySettings.trials(ci: 12, long: 60)
            let rows = ReliabilitySettings.size(ci: 50_000, long: 200_000)
            let replay = ReliabilitySettings.replay(seed)
            let scratch = TemporaryDirectory("crash-import")
            defer { scratch.remove() }

            // The store that already has data: Data/banklist.csv, imported by the app.
            let old = try scratch.bundledStore(named: "old.sqlite")
            let csv = try ReliabilitySettings.generatedList(rows: rows, seed: seed, in: scratch.url)
            let before = try StoreDigest.check(old)
            try #require(before.integrity == "ok")

            // The whole import once: the other acceptable state, and how long an import takes.
            let full = scratch.path("full.sqlite")
            try TemporaryDirectory.copyStore(old, to: full)
            let started = Date()
            let complete = try ProcessRunner.run(binary, ["import", csv, "--db", full, "--quiet"])
            let duration = Date().timeIntervalSince(started)
            try #require(complete.status == 0, "the uninterrupted import: \(complete.standardError)")
            let after = try StoreDigest.check(full)
            try #require(after.integrity == "ok")
            try #require(after.digest != before.digest, "the import must change the store")

            var random = ReliabilityRandom(seed: seed)
            var killedOld = 0
            var killedNew = 0
            var finished = 0
            let store = scratch.path("trial.sqlite")
            // How long an import takes now: measured once, shortened whenever an import ends before its kill
            // (the machine's load changes between trials; the kills must still land while imports run).
            var estimate = duration
            for trial in 0..<trials {
                try TemporaryDirectory.copyStore(old, to: store)
                // The last part: after the commit, in the checkpoint at close.
                let delay = random.double(0...(estimate * 1.25))
                let child = try SpawnedProcess(
                    binary,
                    ["import", csv, "--db", store, "--quiet"],
                    in: scratch.url,
                    name: "import"
                )
                usleep(useconds_t(delay * 1_000_000))
                let killed = child.signal(SIGKILL)
                #expect(child.wait(timeout: 60), "trial \(trial): the import ends")
                let what =
                    "trial \(trial) of seed \(seed): SIGKILL \(killed ? "" : "(too late) ")after \(String(format: "%.3f", delay)) s of a \(String(format: "%.2f", duration)) s import; \(replay)"
                if !killed {
                    #expect(child.exitStatus == 0, "\(what): \(child.standardError)")
                }
                let check = try StoreDigest.check(store)
                #expect(check.integrity == "ok", "\(what)")
                let isOld = check.digest == before.digest
                let isNew = check.digest == after.digest
                if !isOld && !isNew {
                    let kept = TemporaryDirectory.create("failedbanks-crash-\(seed)-\(trial)").path + "/banks.sqlite"
                    try? TemporaryDirectory.copyStore(store, to: kept)
                    Issue.record(
                        "\(what): the store holds \(check.digest), neither the old data (\(before.digest)) nor the whole import (\(after.digest)); kept at \(kept)"
                    )
                }
                if !killed {
                    finished += 1
                    estimate = min(estimate, delay) * 0.8
                } else if isOld {
                    killedOld += 1
                } else if isNew {
                    killedNew += 1
                }

                // Now and then: the app itself carries on from the recovered store.
                if killed && (trial == 0 || trial % 10 == 9) {
                    let again = try ProcessRunner.run(binary, ["import", csv, "--db", store, "--quiet"])
                    #expect(again.status == 0, "\(what): import after the crash: \(again.standardError)")
                    #expect(try StoreDigest.check(store).digest == after.digest, "\(what): import after the crash")
                }
            }
            print(
                "crash safety (import): \(trials) trials on \(rows) rows (\(String(format: "%.2f", duration)) s each), "
                    + "\(killedOld + killedNew) killed mid-run (\(killedOld) left the old data, \(killedNew) the whole import), "
                    + "\(finished) finished first; seed \(seed)"
            )
            #expect(killedOld + killedNew >= trials / 2, "most kills must land while the import runs; seed \(seed)")
        }

        /// The first import goes through the bulk path (indexes dropped and rebuilt, the rollback
        /// journal instead of WAL): killed anywhere, the store has no banks or all of them.
        @Test func firstImportKilledAtAnyMomentLeavesNoBanksOrTheWholeImport() throws {
            let seed = ReliabilitySettings.seed(ci: 9_005)
            let trials = ReliabilitySettings.trials(ci: 6, long: 50)
            let rows = ReliabilitySettings.size(ci: 50_000, long: 200_000)
            let replay = ReliabilitySettings.replay(seed)
            let scratch = TemporaryDirectory("crash-first-import")
            defer { scratch.remove() }
            let csv = try ReliabilitySettings.generatedList(rows: rows, seed: seed, in: scratch.url)

            let full = scratch.path("full.sqlite")
            let started = Date()
            let complete = try ProcessRunner.run(binary, ["import", csv, "--db", full, "--quiet"])
            let duration = Date().timeIntervalSince(started)
            try #require(complete.status == 0, "the uninterrupted import: \(complete.standardError)")
            let after = try StoreDigest.check(full)
            try #require(after.integrity == "ok")

            var random = ReliabilityRandom(seed: seed)
            var empty = 0
            var whole = 0
            var finished = 0
            let store = scratch.path("trial.sqlite")
            for trial in 0..<trials {
                for suffix in ["", "-wal", "-shm", "-journal"] {
                    try? FileManager.default.removeItem(atPath: store + suffix)
                }
                let delay = random.double(0...(duration * 1.25))
                let child = try SpawnedProcess(
                    binary,
                    ["import", csv, "--db", store, "--quiet"],
                    in: scratch.url,
                    name: "import"
                )
                usleep(useconds_t(delay * 1_000_000))
                let killed = child.signal(SIGKILL)
                #expect(child.wait(timeout: 60), "trial \(trial): the import ends")
                let what =
                    "trial \(trial) of seed \(seed): SIGKILL \(killed ? "" : "(too late) ")after \(String(format: "%.3f", delay)) s of a \(String(format: "%.2f", duration)) s first import; \(replay)"
                if !killed {
                    finished += 1
                    #expect(child.exitStatus == 0, "\(what): \(child.standardError)")
                }
                guard FileManager.default.fileExists(atPath: store) else {
                    empty += 1
                    continue
                }
                // Killed before the schema was committed: a SQLite file without tables is a store with no banks.
                let tables = try ProcessRunner.run(
                    BrowserFixture.sqlite3!,
                    [
                        "-batch", store,
                        "PRAGMA integrity_check; SELECT count(*) FROM sqlite_master WHERE name = 'failed_bank_info';",
                    ]
                )
                if tables.status == 0, tables.standardOutput.split(separator: "\n") == ["ok", "0"] {
                    empty += 1
                    let again = try ProcessRunner.run(binary, ["import", csv, "--db", store, "--quiet"])
                    #expect(
                        again.status == 0,
                        "\(what): import after the crash (no schema yet): \(again.standardError)"
                    )
                    continue
                }
                let check = try StoreDigest.check(store)
                #expect(check.integrity == "ok", "\(what)")
                if check.digest == after.digest {
                    if killed { whole += 1 }
                } else if check.digest.banks == 0 && check.digest.details == 0 {
                    empty += 1
                    // The app carries on from the recovered store: the next import is complete.
                    if trial % 3 == 0 {
                        let again = try ProcessRunner.run(binary, ["import", csv, "--db", store, "--quiet"])
                        #expect(again.status == 0, "\(what): import after the crash: \(again.standardError)")
                        #expect(try StoreDigest.check(store).digest == after.digest, "\(what): import after the crash")
                    }
                } else {
                    let kept =
                        TemporaryDirectory.create("failedbanks-crash-first-\(seed)-\(trial)").path + "/banks.sqlite"
                    try? TemporaryDirectory.copyStore(store, to: kept)
                    Issue.record(
                        "\(what): the store holds \(check.digest), neither no banks nor the whole import (\(after.digest)); kept at \(kept)"
                    )
                }
            }
            print(
                "crash safety (first import, bulk path): \(trials) trials on \(rows) rows (\(String(format: "%.2f", duration)) s each), "
                    + "\(empty) left no banks, \(whole) killed after the commit, \(finished) finished first; seed \(seed)"
            )
        }

        @Test(arguments: [SIGINT, SIGTERM])
        func importInterruptedBySignalStopsPromptlyAndLeavesTheOldData(_ signal: Int32) throws {
            let scratch = TemporaryDirectory("interrupt-import")
            defer { scratch.remove() }
            let store = try scratch.bundledStore(named: "banks.sqlite")
            let before = try StoreDigest.check(store).digest
            let csv = try ReliabilitySettings.generatedList(rows: 50_000, seed: 9_003, in: scratch.url)

            let walBefore = Self.fileSize(store + "-wal")
            let child = try SpawnedProcess(
                binary,
                ["import", csv, "--db", store, "--quiet"],
                in: scratch.url,
                name: "import"
            )
            // Mid-import: its transaction has begun writing (the WAL grows, or a rollback journal appears).
            try waitUntil("the import to begin writing", timeout: generousDeadline) {
                Self.fileSize(store + "-wal") > walBefore || FileManager.default.fileExists(atPath: store + "-journal")
                    || !child.isRunning
            }
            try #require(child.signal(signal), "the import finished before it could be interrupted")
            let sent = Date()
            // Promptly: within a batch when idle; 10 s leaves room for a loaded machine.
            #expect(child.wait(timeout: 10), "the import stops within 10 s of signal \(signal)")
            child.finish(timeout: 1)
            let seconds = Date().timeIntervalSince(sent)
            #expect(child.exitStatus != 0, "an interrupted import is not a success: \(child.standardError)")
            #expect(!child.standardError.contains("Fatal error"), "stderr: \(child.standardError)")
            let check = try StoreDigest.check(store)
            #expect(check.integrity == "ok")
            #expect(
                check.digest == before,
                "signal \(signal) mid-import (stopped in \(String(format: "%.2f", seconds)) s): \(check.digest), expected the old data \(before)"
            )
        }

        /// The disk fills up mid-import (a file-size limit makes writes fail with EFBIG):
        /// the import rolls back, says so naming the store, and the store keeps the old data.
        @Test func importThatRunsOutOfSpaceRollsBackAndSaysSo() throws {
            let scratch = TemporaryDirectory("full-import")
            defer { scratch.remove() }
            let store = try scratch.bundledStore(named: "banks.sqlite")
            let before = try StoreDigest.check(store).digest
            let csv = try ReliabilitySettings.generatedList(rows: 50_000, seed: 9_004, in: scratch.url)

            // 1,000 KB per file: the store has room for the 500 banks, not for 50,000 more.
            let child = try SpawnedProcess(
                "/bin/bash",
                [
                    "-c", "trap '' XFSZ; ulimit -f 1000; exec \"$0\" \"$@\"",
                    binary, "import", csv, "--db", store, "--quiet",
                ],
                in: scratch.url,
                name: "import"
            )
            #expect(child.finish(timeout: 60))
            let status = child.exitStatus ?? -1
            let message = child.standardError
            #expect((64...78).contains(status), "exit status \(status); stderr: \(message)")
            #expect(
                ["full", "space", "disk"].contains { message.localizedCaseInsensitiveContains($0) },
                "stderr: \(message)"
            )
            #expect(message.contains("banks.sqlite"), "the message names the store: \(message)")
            let check = try StoreDigest.check(store)
            #expect(check.integrity == "ok")
            #expect(check.digest == before, "the store holds \(check.digest), expected the old data \(before)")
        }

        @Test func deleteKilledMidSaveLeavesTheBankWhollyThereOrWhollyGone() throws {
            let seed = ReliabilitySettings.seed(ci: 9_002)
            let trials = ReliabilitySettings.trials(ci: 4, long: 50)
            let replay = ReliabilitySettings.replay(seed)
            let fixture = try BrowserFixture()
            defer { fixture.remove() }
            let scratch = TemporaryDirectory("crash-delete")
            defer { scratch.remove() }

            // The bank selected at launch (newest first), and the two acceptable states.
            let facts = try StoreFacts(fixture)
            let bank = try #require(facts.byDate.first)
            let pristine = scratch.path("pristine.sqlite")
            try TemporaryDirectory.copyStore(fixture.database, to: pristine)
            let before = try StoreDigest.check(pristine)
            let deleted = scratch.path("deleted.sqlite")
            try TemporaryDirectory.copyStore(pristine, to: deleted)
            _ = try ProcessRunner.run(
                BrowserFixture.sqlite3!,
                [
                    "-batch", deleted,
                    "DELETE FROM failed_bank_details WHERE info_id = \(bank.id); DELETE FROM failed_bank_info WHERE id = \(bank.id);",
                ]
            )
            let after = try StoreDigest.check(deleted)
            try #require(after.digest.banks == before.digest.banks - 1)

            var random = ReliabilityRandom(seed: seed)
            var there = 0
            var gone = 0
            for trial in 0..<trials {
                try TemporaryDirectory.copyStore(pristine, to: fixture.database)
                let tmux = try fixture.launch()
                defer { tmux.close() }
                try tmux.waitFor("1/\(facts.byDate.count)", timeout: 10)
                let pid = try #require(fixture.appPID())
                tmux.send("d")
                try tmux.waitFor("Delete")
                let delay = random.double(0...0.060)
                tmux.send("Enter")
                usleep(useconds_t(delay * 1_000_000))
                kill(pid, SIGKILL)
                let status = fixture.exitStatus(timeout: 30)
                let what =
                    "trial \(trial) of seed \(seed): SIGKILL \(String(format: "%.1f", delay * 1000)) ms after Enter (exit \(status.map(String.init) ?? "?")); \(replay)"
                tmux.close()

                let check = try StoreDigest.check(fixture.database)
                #expect(check.integrity == "ok", "\(what)")
                if check.digest == before.digest {
                    there += 1
                } else if check.digest == after.digest {
                    gone += 1
                } else {
                    Issue.record(
                        "\(what): the store holds \(check.digest); expected \(before.digest) (bank there) or \(after.digest) (bank gone)"
                    )
                }
            }
            print("crash safety (browser delete): \(trials) trials, \(gone) saved, \(there) not yet; seed \(seed)")
        }
    }
}

extension ReliabilityTests.CrashSafety {
    /// The size of the file at `path` in bytes (0 when there is none).
    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
