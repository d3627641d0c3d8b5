import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension ReliabilityTests {
    /// Files the app must not trust: each is refused with a clear message
    /// naming it, a `sysexits.h` status (64–78), no hang, and not a byte
    /// changed — no `-wal`, `-shm` or `-journal` left beside it either.
    @Suite struct BadStores {
        let binary = ReliabilitySettings.failedbanks

        /// A store made from Data/banklist.csv, to derive the bad files from (made once per test).
        private func goodStore(in scratch: TemporaryDirectory) throws -> String {
            try scratch.bundledStore(named: "good.sqlite")
        }

        /// Runs `failedbanks arguments` (killed after `timeout`: a hang is a failure too).
        private func run(
            _ arguments: [String],
            in scratch: TemporaryDirectory,
            name: String,
            timeout: Double = 60,
            unprivileged: Bool = false
        ) throws -> (status: Int32?, output: String, error: String, seconds: Double) {
            let started = Date()
            let child: SpawnedProcess
            if unprivileged && getuid() == 0 {
                child = try SpawnedProcess(
                    "/usr/bin/setpriv",
                    ["--reuid=65534", "--regid=65534", "--clear-groups", "--", binary] + arguments,
                    in: scratch.url,
                    name: name
                )
            } else {
                child = try SpawnedProcess(binary, arguments, in: scratch.url, name: name)
            }
            let exited = child.finish(timeout: timeout)
            return (
                exited ? child.exitStatus : nil, child.standardOutput, child.standardError,
                Date().timeIntervalSince(started)
            )
        }

        private func expectRefusal(
            _ result: (status: Int32?, output: String, error: String, seconds: Double),
            keyWords: [String],
            naming file: String,
            stdoutEmpty: Bool,
            _ what: String
        ) {
            guard let status = result.status else {
                Issue.record(
                    "\(what): no answer within \(String(format: "%.0f", result.seconds)) s (killed); stderr: \(result.error)"
                )
                return
            }
            #expect(
                (64...78).contains(status),
                "\(what): exit status \(status) is not a sysexits.h status; stderr: \(result.error)"
            )
            #expect(
                keyWords.contains { result.error.localizedCaseInsensitiveContains($0) },
                "\(what): the message should say \(keyWords.map { "\"\($0)\"" }.joined(separator: " or ")); stderr: \(result.error)"
            )
            #expect(result.error.contains(file), "\(what): the message should name \(file); stderr: \(result.error)")
            #expect(
                !result.error.contains("Fatal error") && !result.error.contains("Stack dump"),
                "\(what): crashed: \(result.error)"
            )
            if stdoutEmpty {
                #expect(result.output.isEmpty, "\(what): nothing on stdout, got: \(result.output.prefix(300))")
            }
        }

        @Test(arguments: BadStore.allCases)
        func listAndImportRefuseTheFileWithAClearMessageAndLeaveItUnchanged(_ kind: BadStore) throws {
            let scratch = TemporaryDirectory("bad-\(kind)")
            defer { scratch.remove() }
            let good = try goodStore(in: scratch)
            let store = scratch.path("store-\(kind).sqlite")
            try kind.make(at: store, from: good, seed: 9_201)
            let name = (store as NSString).lastPathComponent
            let csv = try #require(BrowserFixture.sourceCSV)
            let before = try FileSnapshot(store)

            let list = try run(["list", "--db", store], in: scratch, name: "list")
            expectRefusal(
                list,
                keyWords: kind.keyWords,
                naming: name,
                stdoutEmpty: kind.isRefusedAtOpen,
                "list on \(kind)"
            )
            let afterList = try FileSnapshot(store)
            #expect(afterList == before, "list on \(kind): \(afterList.differences(from: before))")

            let importing = try run(["import", csv, "--db", store, "--quiet"], in: scratch, name: "import")
            expectRefusal(importing, keyWords: kind.keyWords, naming: name, stdoutEmpty: true, "import into \(kind)")
            let afterImport = try FileSnapshot(store)
            #expect(afterImport == before, "import into \(kind): \(afterImport.differences(from: before))")
        }

        @Test(arguments: [BadStore.notSQLite, .corruptedTableRoot, .newerSchemaVersion, .coreDataStore, .directory])
        func browserRefusesTheFileBeforeTakingTheTerminalAndLeavesItUnchanged(_ kind: BadStore) throws {
            let fixture = try BrowserFixture()
            defer { fixture.remove() }
            let scratch = TemporaryDirectory("bad-browser-\(kind)")
            defer { scratch.remove() }
            let good = scratch.path("good.sqlite")
            try TemporaryDirectory.copyStore(fixture.database, to: good)
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: fixture.database + suffix)
            }
            try kind.make(at: fixture.database, from: good, seed: 9_202)
            let before = try FileSnapshot(fixture.database)

            let tmux = try fixture.launch()
            defer { tmux.close() }
            let status = fixture.exitStatus(timeout: 60)
            let stderr = fixture.standardError()
            let screen = tmux.capture()
            let what = "browser on \(kind)"
            if let status {
                #expect((64...78).contains(status), "\(what): exit status \(status); stderr: \(stderr)\n\(screen)")
            } else {
                Issue.record("\(what): still running after 60 s; stderr: \(stderr)\n\(screen)")
            }
            #expect(
                kind.keyWords.contains { stderr.localizedCaseInsensitiveContains($0) },
                "\(what): stderr: \(stderr)"
            )
            let stty = fixture.sttyAfterExit() ?? ""
            let flags = stty.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init)
            #expect(flags.contains("icanon") && flags.contains("echo"), "\(what): terminal left: \(stty)")
            let after = try FileSnapshot(fixture.database)
            #expect(after == before, "\(what): \(after.differences(from: before))")
        }

        /// A good store in its own folder, both owned by the unprivileged user (whom permissions bind).
        func storeOwnedByTheUnprivilegedUser(in scratch: TemporaryDirectory) throws -> (folder: String, store: String) {
            let good = try goodStore(in: scratch)
            let folder = scratch.path("folder")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let store = folder + "/banks.sqlite"
            try TemporaryDirectory.copyStore(good, to: store)
            try makeOwnedByTheUnprivilegedUser([folder, store])
            return (folder, store)
        }

        @Test func readOnlyStoreFileListsButImportIsRefusedAndNothingChanges() throws {
            let scratch = TemporaryDirectory("readonly-file")
            defer { scratch.remove() }
            let (_, store) = try storeOwnedByTheUnprivilegedUser(in: scratch)
            chmod(store, 0o444)
            let before = try FileSnapshot(store)
            // Banks the store does not have yet, so that the import must write.
            let csv = try ReliabilitySettings.generatedList(rows: 20, seed: 9_203, in: scratch.url)

            let importing = try run(
                ["import", csv, "--db", store, "--quiet"],
                in: scratch,
                name: "import",
                unprivileged: true
            )
            expectRefusal(
                importing,
                keyWords: ["read-only", "readonly", "permission", "not writable", "cannot write"],
                naming: "banks.sqlite",
                stdoutEmpty: true,
                "import into a read-only file"
            )
            try expectUnchanged(store, before, "import")

            // Reading needs no write access. (SQLite itself leaves empty -wal/-shm files beside a
            // read-only WAL store it has read, as the sqlite3 shell does: only the file is compared.)
            let list = try run(["list", "--db", store], in: scratch, name: "list", unprivileged: true)
            #expect(list.status == 0, "list of a read-only store works: \(list.error)")
            #expect(list.output.split(separator: "\n").count > 100, "list prints the banks: \(list.output.prefix(300))")
            let afterList = try FileSnapshot(store)
            #expect(
                afterList.bytes == before.bytes && afterList.mode == before.mode,
                "list: \(afterList.differences(from: before))"
            )
        }

        @Test func storeInAReadOnlyFolderIsReadOrRefusedClearlyButNeverChanged() throws {
            let scratch = TemporaryDirectory("readonly-folder")
            defer { scratch.remove() }
            let (folder, store) = try storeOwnedByTheUnprivilegedUser(in: scratch)
            chmod(folder, 0o555)
            defer { chmod(folder, 0o755) }
            let before = try FileSnapshot(store)
            let csv = try ReliabilitySettings.generatedList(rows: 20, seed: 9_204, in: scratch.url)
            let words = ["read-only", "readonly", "permission", "not writable", "cannot write", "folder", "directory"]

            let list = try run(["list", "--db", store], in: scratch, name: "list", unprivileged: true)
            if list.status != 0 {
                expectRefusal(
                    list,
                    keyWords: words,
                    naming: "banks.sqlite",
                    stdoutEmpty: true,
                    "list in a read-only folder"
                )
            } else {
                #expect(
                    list.output.split(separator: "\n").count > 100,
                    "list prints the banks: \(list.output.prefix(300))"
                )
            }
            try expectUnchanged(store, before, "list")

            let importing = try run(
                ["import", csv, "--db", store, "--quiet"],
                in: scratch,
                name: "import",
                unprivileged: true
            )
            expectRefusal(
                importing,
                keyWords: words,
                naming: "banks.sqlite",
                stdoutEmpty: true,
                "import in a read-only folder"
            )
            try expectUnchanged(store, before, "import")
        }

        @Test func storeLockedPastTheBusyTimeoutIsReadButImportGivesUpWithAClearMessage() throws {
            let scratch = TemporaryDirectory("locked")
            defer { scratch.remove() }
            let good = try goodStore(in: scratch)
            let store = scratch.path("banks.sqlite")
            try TemporaryDirectory.copyStore(good, to: store)
            let csv = try #require(BrowserFixture.sourceCSV)
            let flag = scratch.path("locked.flag")

            // A sqlite3 shell holds the write lock until told otherwise.
            let holder = try SpawnedProcess(
                BrowserFixture.sqlite3!,
                ["-batch", store],
                in: scratch.url,
                name: "holder",
                withInput: true
            )
            defer { holder.signal(SIGKILL) }
            holder.write(
                "BEGIN EXCLUSIVE;\nINSERT INTO failed_bank_info(name, city, state) VALUES ('Lock Holder Bank', 'X', 'KS');\n.shell touch \(ProcessRunner.shellQuoted(flag))\n"
            )
            try waitUntil("the sqlite3 shell to hold the lock", timeout: 10) {
                FileManager.default.fileExists(atPath: flag) || !holder.isRunning
            }
            try #require(holder.isRunning, "sqlite3 holds the lock: \(holder.standardError)")
            let before = try FileSnapshot(store)

            // Readers are not blocked by a writer (WAL): list answers at once, without the uncommitted bank.
            let list = try run(["list", "--db", store], in: scratch, name: "list")
            #expect(list.status == 0, "list: \(list.error)")
            #expect(holder.isRunning, "list answered while the writer still holds its lock")
            #expect(!list.output.contains("Lock Holder Bank"))

            // The import waits for the busy timeout (5 s), then says what is wrong.
            let importing = try run(
                ["import", csv, "--db", store, "--quiet"],
                in: scratch,
                name: "import",
                timeout: 30
            )
            expectRefusal(
                importing,
                keyWords: ["locked", "busy", "in use"],
                naming: "banks.sqlite",
                stdoutEmpty: true,
                "import into a locked store"
            )
            // Refused while the lock is still held: the import gave up by itself (its busy timeout).
            #expect(holder.isRunning, "the lock was held for the whole import")
            if let status = importing.status {
                #expect(status == 75, "a lock is a temporary failure (EX_TEMPFAIL); got \(status)")
            }
            let after = try FileSnapshot(store)
            #expect(after.bytes == before.bytes, "import: \(after.differences(from: before))")

            holder.write("ROLLBACK;\n")
            holder.closeInput()
            #expect(holder.finish(timeout: 10))
        }

        private func expectUnchanged(_ store: String, _ before: FileSnapshot, _ what: String) throws {
            let after = try FileSnapshot(store)
            #expect(after == before, "\(what): \(after.differences(from: before))")
        }

        /// Hands `paths` to the user the unprivileged runs use (root ignores file modes).
        private func makeOwnedByTheUnprivilegedUser(_ paths: [String]) throws {
            guard getuid() == 0 else { return }
            for path in paths where chown(path, 65534, 65534) != 0 {
                throw EndToEndError("chown \(path): \(errno)")
            }
        }
    }
}
