import Foundation
import Glibc
import TestSupport
import Testing

@testable import SQLiteStore

@Suite struct FileWritebackTests {
    let dir = TemporaryDirectory()

    func openDatabase(_ name: String = "w.sqlite") throws -> Database {
        var options = Database.Options()
        options.walMode = false
        let db = try Database(path: dir.path(name), options: options)
        try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)")
        return db
    }

    @Test func findsTheDescriptorSQLiteOpenedTheFileWith() throws {
        let db = try openDatabase()
        let descriptor = try #require(FileWriteback.fileDescriptor(of: db))
        var open = stat()
        var file = stat()
        #expect(fstat(descriptor, &open) == 0 && stat(dir.path("w.sqlite"), &file) == 0)
        #expect(open.st_dev == file.st_dev && open.st_ino == file.st_ino)
    }

    @Test func aConnectionWithoutAFileRunsTheBodyAlone() throws {
        let db = try Database(path: ":memory:")
        #expect(FileWriteback.fileDescriptor(of: db) == nil)
        #expect(FileWriteback.during(db) { 42 } == 42)
    }

    /// True while some connection holds SQLite's RESERVED lock on the file (a POSIX lock on the byte after
    /// the pending byte), seen through an open file description lock, which conflicts with POSIX locks
    /// even within this process. `probe` stays open until the test ends: closing it would drop them.
    func reservedLockIsHeld(_ probe: Int32) -> Bool {
        var query = flock()
        query.l_type = Int16(F_WRLCK)
        query.l_whence = Int16(SEEK_SET)
        query.l_start = 0x4000_0001
        query.l_len = 1
        let openFileDescriptionGetLock: Int32 = 36  // F_OFD_GETLK, declared by glibc only with _GNU_SOURCE
        guard fcntl(probe, openFileDescriptionGetLock, &query) == 0 else { return false }
        return query.l_type != Int16(F_UNLCK)
    }

    /// A descriptor of the file opened and closed beside SQLite's would drop the POSIX locks SQLite holds.
    @Test func theWritingConnectionKeepsItsLockAndItsRows() throws {
        let db = try openDatabase()
        let probe = open(dir.path("w.sqlite"), O_RDONLY)
        defer { close(probe) }
        try db.execute("BEGIN IMMEDIATE")
        #expect(reservedLockIsHeld(probe))
        try FileWriteback.during(db, every: 0.005) {
            for i in 0..<2000 {
                try db.run("INSERT INTO t(v) VALUES (?)", [.text(String(repeating: "x", count: i % 300))])
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(reservedLockIsHeld(probe))
        try db.execute("COMMIT")
        #expect(!reservedLockIsHeld(probe))
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(2000))
    }

    @Test func theBodysErrorIsRethrown() throws {
        struct Failure: Error {}
        let db = try openDatabase()
        #expect(throws: Failure.self) { try FileWriteback.during(db) { throw Failure() } }
    }
}
