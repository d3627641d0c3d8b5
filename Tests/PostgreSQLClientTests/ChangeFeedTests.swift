import Foundation
import PostgreSQLChangeFeed
import PostgreSQLClient
import TestSupport
import Testing

@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct ChangeFeedTests {
    static let events = TableName(schema: "public", name: "events")

    static func makeEvents(_ database: TestDatabase, rows: Int) throws {
        try database.psql(
            """
            CREATE TABLE events (id bigserial PRIMARY KEY, ts timestamptz NOT NULL, level text, message text);
            INSERT INTO events (ts, level, message)
            SELECT timestamptz '2024-01-01' + n * interval '1 minute', 'info', 'event ' || n
            FROM generate_series(1, \(rows)) AS n;
            """
        )
    }

    @Test func installThenUninstallLeavesTheSchemaExactlyAsBefore() throws {
        let database = try TestDatabase()
        try Self.makeEvents(database, rows: 10)
        try database.psql("CREATE TABLE tags (name text, kind int, PRIMARY KEY (name, kind))")
        let before = try database.server.schemaDump(database: database.name)
        let connection = try database.connect()
        let events = ChangeFeed(table: Self.events, keyColumns: ["id"])
        let tags = ChangeFeed(table: TableName(schema: "public", name: "tags"), keyColumns: ["name", "kind"])
        try events.install(on: connection)
        try tags.install(on: connection)
        #expect(try events.isInstalled(on: connection))
        let installed = try database.server.schemaDump(database: database.name)
        #expect(installed.contains("CREATE TABLE public.changefeed_history"))
        #expect(installed.contains("CREATE TRIGGER changefeed_history_update AFTER UPDATE ON public.events"))
        try connection.execute("UPDATE events SET level = 'warn' WHERE id < 3; INSERT INTO tags VALUES ('a', 1)")
        try events.uninstall(on: connection)
        #expect(try !events.isInstalled(on: connection))
        #expect(try tags.isInstalled(on: connection))
        try tags.uninstall(on: connection)
        let after = try database.server.schemaDump(database: database.name)
        let added = after.split(separator: "\n").filter { !before.contains($0) }
        let removed = before.split(separator: "\n").filter { !after.contains($0) }
        #expect(after == before, "added: \(added), removed: \(removed)")
    }

    @Test func aThousandRowUpdateIsOneReadOfAThousandKeys() throws {
        let database = try TestDatabase()
        try Self.makeEvents(database, rows: 1_500)
        let connection = try database.connect()
        let feed = ChangeFeed(table: Self.events, keyColumns: ["id"])
        try feed.install(on: connection)
        let start = try feed.currentPosition(on: connection)
        try database.psql("UPDATE events SET level = 'warn' WHERE id <= 1000")
        let batch = try feed.read(after: start, on: connection)
        #expect(batch.changes.count == 1_000)
        #expect(Set(batch.changes.map(\.key)) == Set((1...1000).map { ["\($0)"] }))
        #expect(batch.changes.allSatisfy { $0.operation == .update })
        #expect(!batch.needsRefetch)
        // Read again from the new position: nothing more.
        #expect(try feed.read(after: batch.position, on: connection).changes.isEmpty)
        // One statement's worth: the history holds 1,000 rows of one transaction.
        let transactions = try connection.query("SELECT count(DISTINCT transaction_id) FROM changefeed_history")
        #expect(transactions.int64(row: 0, column: 0) == 1)
    }

    @Test func insertsDeletesKeyChangesAndCompositeKeysAreRecorded() throws {
        let database = try TestDatabase()
        try database.psql("CREATE TABLE tags (name text, kind int, note text, PRIMARY KEY (name, kind))")
        let connection = try database.connect()
        let feed = ChangeFeed(table: TableName(schema: "public", name: "tags"), keyColumns: ["name", "kind"])
        try feed.install(on: connection)
        let start = try feed.currentPosition(on: connection)
        try database.psql(
            """
            INSERT INTO tags VALUES ('a b', 1, 'x'), ('c', 2, 'y');
            UPDATE tags SET kind = 3 WHERE name = 'c';
            DELETE FROM tags WHERE name = 'a b';
            UPDATE tags SET note = 'z' WHERE false;
            """
        )
        let batch = try feed.read(after: start, on: connection)
        let seen = batch.changes.map { "\($0.operation.rawValue) \($0.key)" }
        #expect(
            seen == [
                "INSERT [\"a b\", \"1\"]", "INSERT [\"c\", \"2\"]", "UPDATE [\"c\", \"3\"]", "DELETE [\"c\", \"2\"]",
                "DELETE [\"a b\", \"1\"]",
            ]
        )
        try database.psql("TRUNCATE tags")
        #expect(try feed.read(after: batch.position, on: connection).needsRefetch)
    }

    @Test func aNotifyWakesAListeningConnectionOncePerStatement() throws {
        let database = try TestDatabase()
        try Self.makeEvents(database, rows: 5)
        let listener = try database.connect()
        let feed = ChangeFeed(table: Self.events, keyColumns: ["id"])
        try feed.install(on: listener)
        try listener.listen(feed.configuration.channel)
        try database.psql("UPDATE events SET level = 'debug'")
        var arrived: [PostgresNotification] = []
        while arrived.isEmpty { arrived = try listener.waitForNotifications(timeout: 10) }
        #expect(arrived.map(\.payload) == ["\"public\".\"events\""])
    }

    @Test func aTransactionThatCommitsAfterALaterOneIsNotMissed() throws {
        let database = try TestDatabase()
        try Self.makeEvents(database, rows: 5)
        let reader = try database.connect()
        let feed = ChangeFeed(table: Self.events, keyColumns: ["id"])
        try feed.install(on: reader)
        var position = try feed.currentPosition(on: reader)
        let slow = try database.connect()
        try slow.execute("BEGIN; UPDATE events SET level = 'slow' WHERE id = 1")  // takes the lower sequence
        try database.psql("UPDATE events SET level = 'fast' WHERE id = 2")  // takes a higher one, commits first
        var batch = try feed.read(after: position, on: reader)
        #expect(batch.changes.map(\.key) == [["2"]])
        position = batch.position
        try slow.execute("COMMIT")
        batch = try feed.read(after: position, on: reader)
        #expect(batch.changes.map(\.key) == [["1"]])
    }

    @Test func changesWhileTheReaderWasTerminatedAreAllReadAfterReconnecting() throws {
        let database = try TestDatabase()
        try Self.makeEvents(database, rows: 5)
        let applicationName = "reader-\(UUID().uuidString.prefix(8))"
        let reader = try database.connect(applicationName: applicationName)
        let feed = ChangeFeed(table: Self.events, keyColumns: ["id"])
        try feed.install(on: reader)
        try reader.listen(feed.configuration.channel)
        let position = try feed.currentPosition(on: reader)
        #expect(try database.server.terminateBackends(applicationName: applicationName) == 1)
        try database.psql(
            """
            INSERT INTO events (ts, level, message)
            SELECT now(), 'info', 'while away ' || n FROM generate_series(1, 100) AS n
            """
        )
        #expect(throws: PostgresError.self) { try feed.read(after: position, on: reader) }
        try reader.reset(timeout: 10)
        let batch = try feed.read(after: position, on: reader)
        #expect(batch.changes.count == 100)
        #expect(Set(batch.changes.map(\.key)) == Set((6...105).map { ["\($0)"] }))
    }

    @Test func historyOlderThanTheRetentionIsPrunedAndAReaderThatOldMustRefetch() throws {
        let database = try TestDatabase()
        try Self.makeEvents(database, rows: 3)
        let connection = try database.connect()
        let feed = ChangeFeed(table: Self.events, keyColumns: ["id"])
        try feed.install(on: connection)
        try connection.execute("UPDATE events SET level = 'old'")
        try connection.execute("UPDATE changefeed_history SET changed_at = now() - interval '8 days'")
        let old = ChangeFeedPosition(
            snapshot: try feed.currentPosition(on: connection).snapshot,
            readAt: "2000-01-01 00:00:00+00"
        )
        try connection.execute("UPDATE events SET level = 'new' WHERE id = 1")
        #expect(try feed.prune(on: connection) == 3)
        let remaining = try connection.query("SELECT key FROM changefeed_history").rows
        #expect(remaining == [[.array([.text("1")])]])
        #expect(try feed.read(after: old, on: connection).needsRefetch)
    }

    @Test func writersNeedNoRightOnTheHistoryTable() throws {
        let database = try TestDatabase()
        try Self.makeEvents(database, rows: 3)
        try database.psql("CREATE ROLE writer LOGIN; GRANT SELECT, UPDATE ON events TO writer")
        let owner = try database.connect()
        let feed = ChangeFeed(table: Self.events, keyColumns: ["id"])
        try feed.install(on: owner)
        let start = try feed.currentPosition(on: owner)
        let writer = try PostgresConnection(database.server.uri(database: database.name, user: "writer"), timeout: 10)
        try writer.query("UPDATE events SET level = $1 WHERE id = $2", ["by writer", "2"])
        #expect(try feed.read(after: start, on: owner).changes.map(\.key) == [["2"]])
    }
}
