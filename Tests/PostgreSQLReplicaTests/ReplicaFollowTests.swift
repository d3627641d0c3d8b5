import Foundation
import PostgreSQLChangeFeed
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore
import Testing

@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct ReplicaFollowTests {
    static let events = TableName(schema: "public", name: "events")

    static func makeEvents(_ database: ReplicaTestDatabase, rows: Int) throws {
        try database.psql(
            """
            CREATE TABLE events (id bigserial PRIMARY KEY, ts timestamptz NOT NULL, level text, message text);
            INSERT INTO events (ts, level, message)
            SELECT timestamptz '2024-01-01' + n * interval '1 minute', 'info', 'event ' || n
            FROM generate_series(1, \(rows)) AS n;
            """
        )
    }

    static func replica(
        _ database: ReplicaTestDatabase,
        applicationName: String = "replica-tests"
    ) throws
        -> PostgresReplica
    {
        PostgresReplica(
            connectionString: database.uri,
            table: events,
            cacheDirectory: try makeCacheDirectory(),
            applicationName: applicationName,
            timeout: 5,
            timeZone: "UTC"
        )
    }

    /// The server's rows, as the replica holds them: id, level, message.
    static func serverRows(_ database: ReplicaTestDatabase) throws -> [[StoreValue]] {
        try database.psql("SELECT id, level, message FROM events ORDER BY id")
            .split(separator: "\n").map { line in
                let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                return [.integer(Int64(fields[0])!), .text(fields[1]), .text(fields[2])]
            }
    }

    static func replicaRows(_ table: ReplicaTable) throws -> [[StoreValue]] {
        try PostgreSQLReplicaTests.replicaRows(table, orderBy: "id").map { [$0[0], $0[2], $0[3]] }
    }

    func insertUpdateDeleteArrive(track: Bool) throws {
        let database = try ReplicaTestDatabase()
        try Self.makeEvents(database, rows: 50)
        let replica = try Self.replica(database)
        if track { try replica.installTracking() }
        let table = try replica.load()
        let log = FollowerLog()
        replica.follow(track: track, status: { log.record($0) }, applied: { log.record($0) })
        defer { replica.stop() }
        try database.psql(
            """
            BEGIN;
            INSERT INTO events (ts, level, message) VALUES ('2024-02-01', 'error', 'new');
            UPDATE events SET level = 'warn' WHERE id <= 3;
            DELETE FROM events WHERE id = 10;
            COMMIT;
            """
        )
        let expected = try Self.serverRows(database)
        #expect(try eventually { try Self.replicaRows(table) == expected })
        #expect(log.allStatuses.first == .live)
        // One server transaction, one batch.
        #expect(try eventually { log.allBatches.count == 1 })
        #expect(log.allBatches.first.map { ($0.inserted, $0.updated, $0.deleted) } ?? (0, 0, 0) == (1, 3, 1))
    }

    @Test func insertUpdateAndDeleteArriveFromTheHistory() throws {
        try insertUpdateDeleteArrive(track: true)
    }

    @Test func insertUpdateAndDeleteArriveByPolling() throws {
        try insertUpdateDeleteArrive(track: false)
    }

    @Test func aThousandRowUpdateIsOneBatchReadByABrowserAsExactRows() throws {
        let database = try ReplicaTestDatabase()
        try Self.makeEvents(database, rows: 1_500)
        let replica = try Self.replica(database)
        try replica.installTracking()
        let table = try replica.load()
        // A browser of the replica file, as the face opens it.
        let catalog = try DatabaseCatalog(path: table.path, tracking: replica.localTracking)
        let entity = try #require(catalog.table(named: table.tableName)).entity(named: table.tableName)
        let store = try Store(
            foreignDatabaseAt: table.path,
            model: Model(version: 1, applicationID: 0, entities: [entity]),
            readOnly: true,
            tracking: replica.localTracking
        )
        let context = ObjectContext(store: store)
        _ = try context.processExternalChanges()
        let log = FollowerLog()
        replica.follow(track: true, status: { log.record($0) }, applied: { log.record($0) })
        defer { replica.stop() }
        try database.psql("UPDATE events SET level = 'warn' WHERE id <= 1000")
        #expect(try eventually { log.allBatches.count == 1 })
        let changes = try #require(try context.processExternalChanges())
        #expect(!changes.isReset)
        #expect(Set(changes.updated.keys.map(\.rowID)) == Set(1...1000))
        #expect(changes.inserted.isEmpty && changes.deleted.isEmpty)
    }

    @Test func rowsCommittedWhileTheFollowerIsCutOffAllArriveAfterTheReconnect() throws {
        let database = try ReplicaTestDatabase()
        try Self.makeEvents(database, rows: 10)
        let replica = try Self.replica(database, applicationName: "replica-follower")
        try replica.installTracking()
        let table = try replica.load()
        let log = FollowerLog()
        replica.follow(track: true, status: { log.record($0) }, applied: { log.record($0) })
        defer { replica.stop() }
        #expect(try eventually { log.allStatuses.contains(.live) })
        let writer = try database.connect(applicationName: "writer")
        for n in 1...100 {
            if n == 30 { #expect(try database.server.terminateBackends(applicationName: "replica-follower") >= 1) }
            try writer.query("INSERT INTO events (ts, level, message) VALUES (now(), 'info', $1)", ["late \(n)"])
        }
        let expected = try Self.serverRows(database)
        #expect(expected.count == 110)
        #expect(try eventually { try Self.replicaRows(table) == expected })
        #expect(log.reconnected)
        #expect(try eventually { log.allStatuses.last == .live })
    }

    @Test func rowsCommittedWhileAPollingFollowerIsCutOffArriveByARefetch() throws {
        let database = try ReplicaTestDatabase()
        try Self.makeEvents(database, rows: 10)
        let replica = try Self.replica(database, applicationName: "replica-poller")
        let table = try replica.load()
        let log = FollowerLog()
        replica.follow(track: false, status: { log.record($0) }, applied: { log.record($0) })
        defer { replica.stop() }
        #expect(try eventually { log.allStatuses.contains(.live) })
        #expect(try database.server.terminateBackends(applicationName: "replica-poller") >= 1)
        try database.psql(
            "INSERT INTO events (ts, level, message) SELECT now(), 'info', 'x' FROM generate_series(1, 100)"
        )
        let expected = try Self.serverRows(database)
        #expect(try eventually { try Self.replicaRows(table) == expected })
    }

    @Test func deleteAndRestoreAreCheckedOnTheServer() throws {
        let database = try ReplicaTestDatabase()
        try Self.makeEvents(database, rows: 5)
        let replica = try Self.replica(database)
        let table = try replica.load()
        let before = try database.psql("SELECT * FROM events ORDER BY id")
        let deleted = try replica.delete(rowIDs: [2, 4, 99])
        #expect(deleted.map(\.rowID).sorted() == [2, 4])
        #expect(try database.psql("SELECT id FROM events ORDER BY id") == "1\n3\n5\n")
        #expect(try Self.replicaRows(table).map { $0[0] } == [.integer(1), .integer(3), .integer(5)])
        try replica.restore(deleted)
        #expect(try database.psql("SELECT * FROM events ORDER BY id") == before)
        #expect(try Self.replicaRows(table) == (try Self.serverRows(database)))
    }

    @Test func deleteAndRestoreOfACompositeKeyKeepTheRowIDs() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(
            """
            CREATE TABLE tags (name text, kind int, note text, PRIMARY KEY (name, kind));
            INSERT INTO tags VALUES ('a b', 1, 'x'), ('a b', 2, 'y'), ('c', 1, NULL);
            """
        )
        let replica = PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: "tags"),
            cacheDirectory: try makeCacheDirectory()
        )
        let table = try replica.load()
        #expect(table.rowIDColumn == nil)
        let rowid = { () throws -> [[StoreValue]] in
            var options = Database.Options()
            options.readOnly = true
            return try Database(path: table.path, options: options).query(
                "SELECT rowid, name, kind FROM tags ORDER BY rowid"
            )
        }
        let original = try rowid()
        #expect(original.map { $0[0] } == [.integer(1), .integer(2), .integer(3)])
        let deleted = try replica.delete(rowIDs: [2])
        #expect(deleted.first?.values == [.text("a b"), .integer(2), .text("y")])
        #expect(try database.psql("SELECT count(*) FROM tags WHERE kind = 2") == "0\n")
        try replica.restore(deleted)
        #expect(try database.psql("SELECT note FROM tags WHERE name = 'a b' AND kind = 2") == "y\n")
        #expect(try rowid() == original)
    }

    @Test func aDeleteTheServerRefusesChangesNothingAndSaysWhy() throws {
        let database = try ReplicaTestDatabase()
        try Self.makeEvents(database, rows: 3)
        try database.psql(
            "CREATE TABLE notes (event bigint REFERENCES events (id), body text); INSERT INTO notes VALUES (2, 'x')"
        )
        let replica = try Self.replica(database)
        let table = try replica.load()
        do {
            _ = try replica.delete(rowIDs: [1, 2])
            Issue.record("the delete went through")
        } catch {
            #expect("\(error)".contains("violates foreign key constraint"))
        }
        #expect(try database.psql("SELECT id FROM events ORDER BY id") == "1\n2\n3\n")
        #expect(try Self.replicaRows(table).map { $0[0] } == [.integer(1), .integer(2), .integer(3)])
    }
}
