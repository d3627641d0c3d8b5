import Foundation
import PostgreSQLClient
import TestSupport
import Testing

@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct CatalogTests {
    static func makeSchema(_ database: TestDatabase) throws {
        try database.psql(
            """
            CREATE TABLE bank (id int PRIMARY KEY, name text NOT NULL, closed date);
            INSERT INTO bank SELECT n, 'bank ' || n, DATE '2020-01-01' + n FROM generate_series(1, 25) AS n;
            CREATE TABLE log (line text);
            CREATE TABLE "Mixed Case" (a int, b text, PRIMARY KEY (b, a));
            CREATE VIEW open_bank AS SELECT id, name FROM bank WHERE closed IS NULL;
            CREATE SCHEMA archive;
            CREATE TABLE archive.bank (id int PRIMARY KEY);
            CREATE TABLE archive.only_here (id int);
            CREATE TABLE big (id bigint PRIMARY KEY, payload text);
            INSERT INTO big SELECT n, repeat('x', 40) FROM generate_series(1, 120000) AS n;
            ANALYZE big;
            ALTER DATABASE \(database.name) SET search_path = public, archive;
            """
        )
    }

    @Test func theTablesAndViewsOfTheSearchPathAreListedQualifiedWhereNeeded() throws {
        let database = try TestDatabase()
        try Self.makeSchema(database)
        let connection = try database.connect()
        let tables = try Catalog.tables(on: connection)
        #expect(
            tables.map(\.displayName) == [
                "\"Mixed Case\"", "bank", "big", "log", "open_bank", "archive.bank", "only_here",
            ]
        )
        let bank = try #require(tables.first { $0.displayName == "bank" })
        #expect(bank.kind == .table)
        #expect(bank.primaryKey == ["id"])
        #expect(
            bank.columns.map { "\($0.name) \($0.typeName) \($0.isNullable)" } == [
                "id integer false", "name text false", "closed date true",
            ]
        )
        #expect(bank.rowCount == .exact(25))
        #expect(tables.first { $0.displayName == "\"Mixed Case\"" }?.primaryKey == ["b", "a"])
        let view = try #require(tables.first { $0.displayName == "open_bank" })
        #expect(view.kind == .view)
        #expect(view.primaryKey.isEmpty)
        #expect(tables.first { $0.displayName == "log" }?.primaryKey == [])
    }

    @Test func aLargeTableGetsThePlannersEstimateNotACount() throws {
        let database = try TestDatabase()
        try Self.makeSchema(database)
        let connection = try database.connect()
        let big = try #require(try Catalog.table(named: "big", on: connection))
        guard case .estimated(let estimate) = big.rowCount else {
            Issue.record("expected an estimate, got \(big.rowCount)")
            return
        }
        #expect(abs(estimate - 120_000) < 12_000)
        // Never analyzed, grown since: EXPLAIN's estimate.
        try database.psql(
            "CREATE TABLE fresh AS SELECT n AS id, repeat('y', 60) AS v FROM generate_series(1, 100000) n"
        )
        let fresh = try #require(try Catalog.table(named: "fresh", on: connection))
        #expect(fresh.rowCount != .exact(100_000))
        #expect(fresh.rowCount.value > 10_000)
    }

    /// Another session's `LOCK TABLE … IN ACCESS EXCLUSIVE MODE` in an open transaction: the list
    /// does not wait for it (a count would, as long as the lock is held): the locked table's count
    /// is `.locked`, the view over it estimated; the session's own `lock_timeout` is left as it was.
    /// Before the fix, the list waited for the lock until the statement timeout ended it.
    @Test func aTableAnotherSessionLockedIsEstimatedNotWaitedFor() throws {
        let database = try TestDatabase()
        try Self.makeSchema(database)
        let holder = try database.connect(applicationName: "holder")
        try holder.execute("BEGIN; LOCK TABLE bank IN ACCESS EXCLUSIVE MODE")
        defer { _ = try? holder.execute("ROLLBACK") }
        let connection = try database.connect()
        connection.statementTimeout = 30  // what the list waited before: the test fails, never hangs
        let tables = try Catalog.tables(on: connection)
        #expect(tables.first { $0.displayName == "bank" }?.rowCount == .locked)
        #expect(tables.first { $0.displayName == "log" }?.rowCount == .exact(0))
        // The view over it: EXPLAIN would wait too, and gives up.
        #expect(tables.first { $0.displayName == "open_bank" }?.rowCount == .estimated(0))
        #expect(try connection.query("SHOW lock_timeout").text(row: 0, column: 0) == "0")
        try holder.execute("ROLLBACK")
        #expect(try Catalog.table(named: "bank", on: connection)?.rowCount == .exact(25))
    }

    @Test func tablesAreFoundByDisplayNameQualifiedNameOrSQLSpelling() throws {
        let database = try TestDatabase()
        try Self.makeSchema(database)
        let connection = try database.connect()
        #expect(try Catalog.table(named: "archive.bank", on: connection)?.primaryKey == ["id"])
        #expect(try Catalog.table(named: "\"Mixed Case\"", on: connection)?.name.name == "Mixed Case")
        #expect(try Catalog.table(named: "Mixed Case", on: connection)?.name.name == "Mixed Case")
        #expect(try Catalog.table(named: "BANK", on: connection)?.name == TableName(schema: "public", name: "bank"))
        #expect(try Catalog.table(named: "missing", on: connection) == nil)
    }

    @Test func privilegesAreTheServersAnswer() throws {
        let database = try TestDatabase()
        try Self.makeSchema(database)
        try database.psql(
            "CREATE ROLE reader LOGIN; GRANT SELECT ON bank TO reader; GRANT USAGE ON SCHEMA archive TO reader"
        )
        let owner = try database.connect()
        let reader = try PostgresConnection(database.server.uri(database: database.name, user: "reader"), timeout: 10)
        let bank = TableName(schema: "public", name: "bank")
        #expect(
            try Catalog.privileges(of: bank, on: owner)
                == TablePrivileges(select: true, insert: true, update: true, delete: true)
        )
        #expect(
            try Catalog.privileges(of: bank, on: reader)
                == TablePrivileges(select: true, insert: false, update: false, delete: false)
        )
        // The write position needs no privilege and moves at once on a commit.
        let position = try Catalog.writePosition(on: reader)
        try owner.execute("UPDATE bank SET name = name WHERE id = 1")
        #expect(try Catalog.writePosition(on: reader) != position)
    }

    @Test func changeCountersMoveAfterAnotherClientsCommit() throws {
        let database = try TestDatabase()
        try Self.makeSchema(database)
        let watcher = try database.connect()
        let bank = TableName(schema: "public", name: "bank")
        let before = try Catalog.changeCounters(of: bank, on: watcher)
        // A writer that closes flushes its statistics on the way out; one that stays
        // connected and idle may hold them up to 10 s (see ChangeCounters).
        let writer = try database.connect()
        try writer.query("UPDATE bank SET name = name || '!' WHERE id = $1", ["3"])
        writer.close()
        let committed = DispatchTime.now()
        var after = before
        while after == before {
            Thread.sleep(forTimeInterval: 0.01)
            after = try Catalog.changeCounters(of: bank, on: watcher)
        }
        let latency = Double(DispatchTime.now().uptimeNanoseconds - committed.uptimeNanoseconds) / 1e6
        print("change counters moved \(String(format: "%.1f", latency)) ms after the commit")
        #expect(after.updated == before.updated + 1)
        // TRUNCATE moves no counter; it gives the table a new file at once.
        let log = TableName(schema: "public", name: "log")
        let untruncated = try Catalog.changeCounters(of: log, on: watcher)
        try watcher.execute("TRUNCATE log")
        #expect(try Catalog.changeCounters(of: log, on: watcher).fileNode != untruncated.fileNode)
    }
}
