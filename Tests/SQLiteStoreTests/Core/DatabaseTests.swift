import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

private struct Boom: Error {}

@Suite("Database")
struct DatabaseTests {
    let dir = TemporaryDirectory()

    func openDatabase() throws -> Database {
        let db = try Database(path: dir.path("test.sqlite"))
        try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v)")
        return db
    }

    @Test func everyStorageClassRoundTripsThroughBindAndRead() throws {
        let db = try openDatabase()
        let values: [StoreValue] = [
            .null, .integer(0), .integer(Int64.max), .integer(Int64.min), .real(3.25), .real(-0.5),
            .text(""), .text("plain"), .text("First–Citizens"), .text("銀行 🏦 Ünïcødé"), .text("it's \"quoted\""),
            .blob([]), .blob([0, 1, 2, 255]),
        ]
        for v in values { try db.run("INSERT INTO t(v) VALUES (?)", [v]) }
        let read = try db.query("SELECT v FROM t ORDER BY id").map { $0[0] }
        #expect(read == values)
    }

    @Test func typedBindersAndReadersAgree() throws {
        let db = try openDatabase()
        let insert = try db.statement("INSERT INTO t(v) VALUES (?)")
        try insert.bind(Int64(42), at: 1)
        _ = try insert.step()
        insert.reset()
        try insert.bind(2.5, at: 1)
        _ = try insert.step()
        insert.reset()
        try insert.bind("日本語 — emoji 😀", at: 1)
        _ = try insert.step()
        insert.reset()
        try "First–Citizens".utf8CString.withUnsafeBytes { raw in
            try insert.bind(utf8: UnsafeRawBufferPointer(rebasing: raw.dropLast()), at: 1)
        }
        _ = try insert.step()
        insert.reset()
        try insert.bindNull(at: 1)
        _ = try insert.step()
        insert.reset()
        try insert.bind(.text(StoreDate.text(from: Date(timeIntervalSince1970: 1_311_897_600))), at: 1)
        _ = try insert.step()
        insert.reset()

        let s = try db.statement("SELECT v FROM t ORDER BY id")
        #expect(try s.step())
        #expect(s.int64(at: 0) == 42)
        #expect(try s.step())
        #expect(s.double(at: 0) == 2.5)
        #expect(try s.step())
        #expect(s.text(at: 0) == "日本語 — emoji 😀")
        #expect(try s.step())
        #expect(s.text(at: 0) == "First–Citizens")
        #expect(try s.step())
        #expect(s.isNull(at: 0))
        #expect(s.value(at: 0) == .null)
        #expect(try s.step())
        #expect(s.text(at: 0) == "2011-07-29")
        #expect(try !s.step())
        s.reset()
    }

    @Test func errorsCarryExtendedCodeMessageAndSQL() throws {
        let db = try openDatabase()
        try db.execute("CREATE UNIQUE INDEX t_v ON t(v)")
        try db.run("INSERT INTO t(v) VALUES (1)")
        let error = #expect(throws: SQLiteError.self) { try db.run("INSERT INTO t(v) VALUES (1)") }
        #expect(error?.code == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        #expect(error?.message.contains("UNIQUE") == true)
        #expect(error?.sql == "INSERT INTO t(v) VALUES (1)")
        let syntax = #expect(throws: SQLiteError.self) { try db.run("SELEKT 1") }
        #expect(syntax?.sql == "SELEKT 1")
    }

    @Test func nestedSavepointRollsBackOnlyItsOwnWork() throws {
        let db = try openDatabase()
        try db.transaction {
            try db.run("INSERT INTO t(v) VALUES ('outer')")
            #expect(throws: Boom.self) {
                try db.transaction {
                    try db.run("INSERT INTO t(v) VALUES ('inner')")
                    try db.transaction { try db.run("INSERT INTO t(v) VALUES ('innermost')") }
                    throw Boom()
                }
            }
            try db.transaction { try db.run("INSERT INTO t(v) VALUES ('second inner')") }
        }
        let rows = try db.query("SELECT v FROM t ORDER BY id").map { $0[0] }
        #expect(rows == [.text("outer"), .text("second inner")])
    }

    @Test func failedOuterTransactionLeavesNothing() throws {
        let db = try openDatabase()
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO t(v) VALUES (1)")
                throw Boom()
            }
        }
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(0))
        #expect(!db.isInTransaction)
    }

    @Test func writableConnectionUsesWALForeignKeysAndBusyTimeout() throws {
        let db = try openDatabase()
        #expect(try db.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
        #expect(try db.scalar("PRAGMA busy_timeout") == .integer(5000))
    }

    @Test func dataVersionChangesOnlyForOtherConnectionsCommits() throws {
        let db = try openDatabase()
        let other = try Database(path: db.path)
        let v0 = try db.dataVersion()
        try db.run("INSERT INTO t(v) VALUES (1)")
        #expect(try db.dataVersion() == v0)
        try other.run("INSERT INTO t(v) VALUES (2)")
        #expect(try db.dataVersion() != v0)
    }

    @Test func nestedQueriesWithTheSameSQLDoNotDisturbEachOther() throws {
        let db = try openDatabase()
        for i in 1...3 { try db.run("INSERT INTO t(v) VALUES (?)", [.integer(Int64(i))]) }
        var pairs = 0
        try db.forEachRow("SELECT v FROM t") { _ in
            try db.forEachRow("SELECT v FROM t") { _ in pairs += 1 }
        }
        #expect(pairs == 9)
    }

    @Test func userVersionReadsAndWrites() throws {
        let db = try openDatabase()
        #expect(try db.userVersion() == 0)
        try db.setUserVersion(7)
        #expect(try db.userVersion() == 7)
    }

    @Test func readOnlyConnectionRefusesWrites() throws {
        _ = try openDatabase()
        var options = Database.Options()
        options.readOnly = true
        let ro = try Database(path: dir.path("test.sqlite"), options: options)
        #expect(ro.isReadOnly)
        #expect(throws: SQLiteError.self) { try ro.run("INSERT INTO t(v) VALUES (1)") }
    }
}

@Suite("Database across processes")
struct DatabaseProcessTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "needs /usr/bin/sqlite3"))
    func aWriterWaitsForAnotherProcesssTransactionInsteadOfFailing() throws {
        let dir = TemporaryDirectory()
        let db = try Database(path: dir.path("busy.sqlite"))
        try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v)")
        // The child takes the write lock, says so (a file), and holds it for about half a second.
        let locked = dir.path("child-holds-the-lock")
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        child.arguments = [
            db.path, "BEGIN IMMEDIATE; INSERT INTO t(v) VALUES ('child');",
            ".shell touch '\(locked)'", ".shell sleep 0.5", "COMMIT;",
        ]
        try child.run()
        // Wait for the lock to be taken (not for a fixed time: a loaded machine may start the child late).
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: locked) && child.isRunning && Date() < deadline { usleep(5_000) }
        try #require(FileManager.default.fileExists(atPath: locked), "the sqlite3 shell never took the lock")
        // Within the busy timeout (5 s), the transaction waits for the child's commit instead of failing.
        try db.transaction { try db.run("INSERT INTO t(v) VALUES ('parent')") }
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
        #expect(try db.query("SELECT v FROM t ORDER BY id") == [["child"], ["parent"]])
    }

    @Test func blobsRoundTripAsData() throws {
        let db = try Database(path: ":memory:")
        let data = Data([0, 0xFF, 0x10])
        #expect(try db.scalar("SELECT ?", [.data(data)]).data == data)
    }
}
