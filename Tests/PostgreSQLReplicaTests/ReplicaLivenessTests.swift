import Foundation
import PostgreSQLChangeFeed
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore
import Testing

/// A replica is current or says it is not: a history interrupted under a follower is
/// caught up by a copy, an untracked one is polled (never installed again), and views
/// and partitioned tables of any size follow their tables.
@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct ReplicaLivenessTests {
    static func replica(_ database: ReplicaTestDatabase, table: String = "events") throws -> PostgresReplica {
        PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: table),
            cacheDirectory: try makeCacheDirectory(),
            applicationName: "liveness-tests",
            timeout: 5,
            timeZone: "UTC"
        )
    }

    static func count(_ database: ReplicaTestDatabase, _ table: String) throws -> Int {
        Int(try database.psql("SELECT count(*) FROM \(table)").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    static func replicaCount(_ table: ReplicaTable) throws -> Int {
        try PostgreSQLReplicaTests.replicaRows(table, orderBy: "1").count
    }

    /// A tracked replica of 50 events, followed; its log.
    static func followedEvents() throws -> (ReplicaTestDatabase, PostgresReplica, ReplicaTable, FollowerLog) {
        let database = try ReplicaTestDatabase()
        try ReplicaFollowTests.makeEvents(database, rows: 50)
        let replica = try replica(database)
        try replica.installTracking()
        let table = try replica.load()
        let log = FollowerLog()
        replica.follow(track: true, status: { log.record($0) }, applied: { log.record($0) })
        #expect(try eventually { log.allStatuses.contains(.live) })
        return (database, replica, table, log)
    }

    @Test func rowsWrittenWhileTheTriggersWereOffAreCaughtUpByACopy() throws {
        let (database, replica, table, _) = try Self.followedEvents()
        defer { replica.stop() }
        try database.psql(
            """
            BEGIN;
            ALTER TABLE events DISABLE TRIGGER USER;
            INSERT INTO events (ts, level, message) VALUES (now(), 'info', 'in no history');
            ALTER TABLE events ENABLE TRIGGER USER;
            COMMIT;
            """
        )
        try database.psql("UPDATE events SET level = 'seen' WHERE id = 1")
        let expected = try ReplicaFollowTests.serverRows(database)
        #expect(try eventually { try ReplicaFollowTests.replicaRows(table) == expected })
    }

    @Test func untrackAndTrackAgainByAnotherSessionIsCaughtUp() throws {
        let (database, replica, table, _) = try Self.followedEvents()
        defer { replica.stop() }
        let other = try database.connect(applicationName: "another session")
        let feed = ChangeFeed(table: TableName(schema: "public", name: "events"), keyColumns: ["id"])
        try feed.uninstall(on: other)
        try other.execute("INSERT INTO events (ts, level, message) VALUES (now(), 'info', 'between untrack and track')")
        try feed.install(on: other)
        try other.execute("UPDATE events SET level = 'after' WHERE id = 2")
        let expected = try ReplicaFollowTests.serverRows(database)
        #expect(expected.count == 51)
        #expect(try eventually { try ReplicaFollowTests.replicaRows(table) == expected })
    }

    @Test func untrackUnderAFollowerIsCaughtUpThenPolledAndNeverInstalledAgain() throws {
        let (database, replica, table, log) = try Self.followedEvents()
        defer { replica.stop() }
        try replica.removeTracking()
        #expect(
            try eventually {
                log.allStatuses.contains { if case .untracked = $0 { true } else { false } }
            }
        )
        try database.psql("INSERT INTO events (ts, level, message) VALUES (now(), 'info', 'after untrack')")
        let expected = try ReplicaFollowTests.serverRows(database)
        #expect(try eventually { try ReplicaFollowTests.replicaRows(table) == expected })
        let feed = ChangeFeed(table: TableName(schema: "public", name: "events"), keyColumns: ["id"])
        let connection = try database.connect()
        #expect(try !feed.isInstalled(on: connection), "the follower did not undo the untrack")
        #expect(try connection.query("SELECT to_regclass('changefeed_history') IS NULL").rows == [[.boolean(true)]])
    }

    @Test func theHistoryDroppedWithItsTriggersUnderAFollowerIsCaughtUpAndPolled() throws {
        let (database, replica, table, log) = try Self.followedEvents()
        defer { replica.stop() }
        try database.psql(
            "DROP TABLE changefeed_history CASCADE; INSERT INTO events (ts, level, message) VALUES (now(), 'x', 'y')"
        )
        #expect(
            try eventually {
                log.allStatuses.contains { if case .untracked = $0 { true } else { false } }
            }
        )
        let expected = try ReplicaFollowTests.serverRows(database)
        #expect(try eventually { try ReplicaFollowTests.replicaRows(table) == expected })
    }

    @Test func aPartitionAttachedUnderATrackingFollowerIsCaughtUpPolledAndNamed() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(
            """
            CREATE TABLE readings (id int, day int, value text, PRIMARY KEY (id, day)) PARTITION BY RANGE (day);
            CREATE TABLE readings_1 PARTITION OF readings FOR VALUES FROM (0) TO (10);
            INSERT INTO readings VALUES (1, 1, 'first');
            """
        )
        let replica = try Self.replica(database, table: "readings")
        try replica.installTracking()
        let table = try replica.load()
        let log = FollowerLog()
        replica.follow(track: true, status: { log.record($0) }, applied: { log.record($0) })
        defer { replica.stop() }
        #expect(try eventually { log.allStatuses.contains(.live) })
        // The new partition has no triggers: its rows are in no history.
        try database.psql(
            """
            CREATE TABLE readings_2 PARTITION OF readings FOR VALUES FROM (10) TO (20);
            INSERT INTO readings_2 VALUES (2, 12, 'in a partition without triggers');
            """
        )
        #expect(try eventually { try Self.replicaCount(table) == 2 })
        let reasons = log.allStatuses.compactMap { status -> String? in
            if case .untracked(let reason) = status { reason } else { nil }
        }
        #expect(
            reasons == [
                "the change history misses a partition or trigger (--track again): polling public.readings from now on"
            ],
            "\(log.allStatuses)"
        )
        try database.psql("INSERT INTO readings_2 VALUES (3, 13, 'polled')")
        #expect(try eventually { try Self.replicaCount(table) == 3 })
    }

    @Test func aViewAboveTwentyThousandRowsFollowsTheCountersOfItsTables() throws {
        let database = try ReplicaTestDatabase()
        try ReplicaFollowTests.makeEvents(database, rows: 20_500)
        try database.psql(
            """
            CREATE TABLE levels (level text PRIMARY KEY, rank int);
            INSERT INTO levels VALUES ('info', 1), ('warn', 2);
            CREATE VIEW ranked AS SELECT e.id, e.message, l.rank FROM events e JOIN levels l USING (level);
            CREATE VIEW important AS SELECT * FROM ranked WHERE rank >= 1;
            """
        )
        let replica = try Self.replica(database, table: "important")
        let table = try replica.load()
        #expect(table.rowCount == 20_500)
        let log = FollowerLog()
        replica.follow(track: false, status: { log.record($0) }, applied: { log.record($0) })
        defer { replica.stop() }
        try database.psql("INSERT INTO events (ts, level, message) VALUES (now(), 'warn', 'through two views')")
        #expect(try eventually { try Self.replicaCount(table) == 20_501 })
        try database.psql("UPDATE levels SET rank = 0 WHERE level = 'warn'")
        #expect(try eventually { try Self.replicaCount(table) == 20_500 })
        #expect(log.allStatuses.allSatisfy { $0 == .live })
    }

    @Test func aPartitionedTableAboveTwentyThousandRowsFollowsItsPartitions() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(
            """
            CREATE TABLE readings (id int, day int, value text, PRIMARY KEY (id, day)) PARTITION BY RANGE (day);
            CREATE TABLE readings_1 PARTITION OF readings FOR VALUES FROM (0) TO (10);
            CREATE TABLE readings_2 PARTITION OF readings FOR VALUES FROM (10) TO (20);
            INSERT INTO readings SELECT n, n % 20, 'v' FROM generate_series(1, 20500) AS n;
            """
        )
        let replica = try Self.replica(database, table: "readings")
        let table = try replica.load()
        let log = FollowerLog()
        replica.follow(track: false, status: { log.record($0) }, applied: { log.record($0) })
        defer { replica.stop() }
        try database.psql("INSERT INTO readings_2 VALUES (99999, 15, 'straight into a partition')")
        #expect(try eventually { try Self.replicaCount(table) == 20_501 })
        try database.psql("TRUNCATE readings_1")
        let expected = try Self.count(database, "readings")
        #expect(try eventually { try Self.replicaCount(table) == expected })
    }

    @Test func aViewOfTheCurrentTimeIsNotLiveAndSaysWhenItWasChecked() throws {
        let database = try ReplicaTestDatabase()
        try ReplicaFollowTests.makeEvents(database, rows: 10)
        try database.psql("CREATE VIEW recent AS SELECT id, message FROM events WHERE ts > now() - interval '1 hour'")
        let replica = try Self.replica(database, table: "recent")
        let table = try replica.load()
        #expect(table.rowCount == 0)
        let log = FollowerLog()
        replica.follow(track: false, status: { log.record($0) }, applied: { log.record($0) })
        defer { replica.stop() }
        let notLive: @Sendable (ReplicaStatus) -> String? = { status in
            if case .notLive(let reason, _) = status { reason } else { nil }
        }
        #expect(try eventually { log.allStatuses.compactMap(notLive).first != nil })
        #expect(log.allStatuses.compactMap(notLive).first == "it reads the function now()")
        #expect(!log.allStatuses.contains(.live), "never said to be live")
        // Rows that come into the window are seen at the next copy.
        try database.psql("UPDATE events SET ts = now() WHERE id <= 2")
        #expect(try eventually { try Self.replicaCount(table) == 2 })
    }

    @Test func whatNoCounterSeesIsNamed() throws {
        let database = try ReplicaTestDatabase()
        try ReplicaFollowTests.makeEvents(database, rows: 1)
        try database.psql(
            """
            CREATE VIEW stamped AS SELECT id, CURRENT_TIMESTAMP AS seen FROM events;
            CREATE FUNCTION open_events() RETURNS SETOF events LANGUAGE sql STABLE AS 'SELECT * FROM events';
            CREATE VIEW opened AS SELECT * FROM open_events();
            CREATE VIEW plain AS SELECT id, upper(level) AS level FROM events WHERE ts > '2000-01-01';
            """
        )
        let connection = try database.connect()
        func unfollowable(_ name: String) throws -> [String] {
            try Catalog.unfollowableSources(of: TableName(schema: "public", name: name), on: connection)
        }
        #expect(try unfollowable("stamped") == ["the current time"])
        #expect(try unfollowable("opened") == ["the function public.open_events()"])
        #expect(try unfollowable("plain") == [])
        #expect(try unfollowable("events") == [])
    }
}
