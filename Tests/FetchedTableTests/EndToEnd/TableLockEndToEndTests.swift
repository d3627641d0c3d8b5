import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Another program holds the file locked (`BEGIN EXCLUSIVE` in a `sqlite3` shell on a
/// rollback-journal file, as a `VACUUM` or a big import does): the browser's thread never
/// waits for it. The status line says so, keys move the selection, a delete waits off the
/// screen's thread and is done once the lock goes, `q` quits while it is held.
@Suite(
    .serialized,
    .enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? ""))
)
struct TableLockEndToEndTests {
    /// A `sqlite3` shell holding `BEGIN EXCLUSIVE` on `path` until ``release()`` (or the end of the test).
    final class LockHolder {
        let process = Process()
        let input = Pipe()

        init(_ fixture: TableFixture, path: String) throws {
            guard let sqlite3 = TableFixture.sqlite3 else { throw EndToEndError("no sqlite3") }
            let flag = fixture.directory.appendingPathComponent("locked.flag").path
            process.executableURL = URL(fileURLWithPath: sqlite3)
            process.arguments = ["-batch", path]
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            write("BEGIN EXCLUSIVE;\nSELECT count(*) FROM person;\n.shell touch '\(flag)'\n")
            try fixture.waitUntil("sqlite3 to hold the lock") { FileManager.default.fileExists(atPath: flag) }
        }

        func write(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

        /// ROLLBACK, and the shell ends.
        func release() {
            write("ROLLBACK;\n")
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }

    static func makeTable(_ fixture: TableFixture) throws -> String {
        let names = (1...30).map { "(\($0), 'Person \(String(format: "%02d", $0))')" }.joined(separator: ", ")
        // The sqlite3 shell's default journal: a rollback journal (DELETE), whose EXCLUSIVE lock keeps readers out.
        return try fixture.database(
            "locked.sqlite",
            "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO person VALUES \(names);"
        )
    }

    /// The browser on ``makeTable(_:)``'s `person` showing its list, then the file locked by a
    /// ``LockHolder`` until the status line says so.
    static func browseLockedTable(
        _ fixture: TableFixture
    ) throws -> (path: String, tmux: TmuxSession, holder: LockHolder) {
        let path = try makeTable(fixture)
        let tmux = try fixture.launch([path, "--table", "person", "--title", "name"])
        try tmux.waitUntil("the list", timeout: 10) { $0.contains("Person 01") && $0.contains("1/30") }
        let holder = try LockHolder(fixture, path: path)
        try tmux.waitUntil("the status line to say the file is locked", timeout: 20) {
            $0.contains("waiting for another program's write lock…")
        }
        return (path, tmux, holder)
    }

    @Test func keysAnswerTheStatusLineSaysWhyAndADeleteIsDoneOnceTheLockGoes() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let (path, tmux, holder) = try Self.browseLockedTable(fixture)
        defer { tmux.close() }
        tmux.send("Down")
        try tmux.waitFor("2/30")
        tmux.send("d")
        try tmux.waitFor("Delete")
        tmux.send("Enter")
        try tmux.waitUntil("the delete waiting for the lock") {
            $0.contains("Deleting Person 02: waiting for another program's write lock…")
        }
        tmux.send("Down")
        try tmux.waitFor("3/30")
        holder.release()
        try tmux.waitUntil("the delete done once the lock went", timeout: 20) {
            $0.contains("u to undo") && $0.contains("/29")
        }
        #expect(try fixture.sql("SELECT count(*) FROM person WHERE name = 'Person 02'", database: path) == "0")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func qQuitsWhileAnotherProgramHoldsTheLock() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let (path, tmux, holder) = try Self.browseLockedTable(fixture)
        defer { tmux.close() }
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
        #expect(holder.process.isRunning, "the lock was still held when the browser quit")
        holder.release()
        #expect(try fixture.sql("SELECT count(*) FROM person", database: path) == "30")
    }
}
