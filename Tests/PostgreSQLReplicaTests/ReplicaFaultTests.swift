import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore
import TestSupport
import Testing

@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct ReplicaFaultTests {
    @Test func aFrozenServerShowsReconnectingAndWhatCommitsAfterwardArrives() throws {
        let server = try PostgresTestServer()
        defer { server.close() }
        let name = try server.makeDatabase()
        try server.psql(
            "CREATE TABLE events (id bigserial PRIMARY KEY, level text); INSERT INTO events (level) VALUES ('a')",
            database: name
        )
        let replica = PostgresReplica(
            connectionString: server.uri(database: name),
            table: TableName(schema: "public", name: "events"),
            cacheDirectory: try makeCacheDirectory(),
            timeout: 1,
            timeZone: "UTC"
        )
        try replica.installTracking()
        let table = try replica.load()
        let log = FollowerLog()
        replica.follow(track: true, status: { log.record($0) }, applied: { log.record($0) })
        defer { replica.stop() }
        #expect(eventually { log.allStatuses.contains(.live) })
        try server.suspend()
        let reported = eventually(seconds: 20) { log.reconnected }
        try server.resume()
        #expect(reported)
        // What the replica held stayed readable all along.
        #expect(try replicaRows(table, orderBy: "id") == [[.integer(1), .text("a")]])
        try server.psql("INSERT INTO events (level) VALUES ('b')", database: name)
        #expect(try eventually { try replicaRows(table, orderBy: "id").count == 2 })
        #expect(try eventually { log.allStatuses.last == .live })
    }

    /// The replica's timeout (here 60 s) bounds its long statements; a frozen server is found by
    /// the heartbeat, whose limit is two seconds, for tracking and polling followers alike.
    @Test(arguments: [true, false])
    func aFrozenServerIsFoundByTheHeartbeatLongBeforeTheStatementTimeout(track: Bool) throws {
        let server = try PostgresTestServer()
        defer { server.close() }
        let name = try server.makeDatabase()
        try server.psql(
            "CREATE TABLE events (id bigserial PRIMARY KEY, level text); INSERT INTO events (level) VALUES ('a')",
            database: name
        )
        let replica = PostgresReplica(
            connectionString: server.uri(database: name),
            table: TableName(schema: "public", name: "events"),
            cacheDirectory: try makeCacheDirectory(),
            timeout: 60,
            timeZone: "UTC"
        )
        if track { try replica.installTracking() }
        let table = try replica.load()
        let log = FollowerLog()
        replica.follow(track: track, status: { log.record($0) }, applied: { log.record($0) })
        defer { replica.stop() }
        #expect(eventually { log.allStatuses.contains(.live) })
        // A first change applied: the follower is past its first read (which has the long timeout).
        try server.psql("INSERT INTO events (level) VALUES ('first')", database: name)
        #expect(eventually { !log.allBatches.isEmpty })
        try server.suspend()
        // Far below the 60 s statement timeout: only the heartbeat's limit can explain it.
        let reported = eventually(seconds: 15) { log.reconnected }
        try server.resume()
        #expect(reported, "no reconnecting status while the server was frozen")
        try server.psql("INSERT INTO events (level) VALUES ('b')", database: name)
        #expect(try eventually { try replicaRows(table, orderBy: "id").count == 3 })
        #expect(try eventually { log.allStatuses.last == .live })
    }

    @Test func trackingThenRemovingItLeavesTheServerSchemaAsBefore() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(
            "CREATE TABLE events (id bigserial PRIMARY KEY, level text); INSERT INTO events (level) VALUES ('a')"
        )
        let before = try database.server.schemaDump(database: database.name)
        let replica = PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: "events"),
            cacheDirectory: try makeCacheDirectory()
        )
        _ = try replica.load()
        let log = FollowerLog()
        // Following with the history installs it (it was not there at the copy) and refetches once.
        replica.follow(track: true, status: { log.record($0) }, applied: { log.record($0) })
        #expect(eventually { log.allStatuses.contains(.live) })
        try database.psql("INSERT INTO events (level) VALUES ('b')")
        #expect(eventually { log.allBatches.contains { $0.inserted == 1 } })
        replica.stop()
        #expect(try database.server.schemaDump(database: database.name) != before)
        try replica.removeTracking()
        #expect(try database.server.schemaDump(database: database.name) == before)
    }
}
