import Foundation
import PostgreSQLChangeFeed
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore
import TestSupport
import Testing

/// ``PostgresLiveQuery`` on the throwaway server: a slow run is cancelled (`PQcancel`) and leaves
/// the result as it was; a change to a tracked table it reads runs it again on its NOTIFY; the
/// tables it reads come from its plan, views read through.
@Suite(.enabled(if: serverAvailable))
struct PostgresLiveQueryTests {
    static let schema = """
        CREATE TABLE item (id bigint PRIMARY KEY, kind text, price numeric);
        CREATE VIEW cheap AS SELECT * FROM item WHERE price < 10;
        INSERT INTO item VALUES (1, 'a', 5), (2, 'b', 20), (3, 'a', 7);
        """

    @Test func aSlowRunIsCancelledAndTheResultStaysAsItWas() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(PostgresLiveQueryTests.schema)
        let live = try PostgresLiveQuery(
            connection: try database.connect(),
            sql: "SELECT kind, count(*) AS n, max(pg_sleep(:pause)::text) AS slept FROM cheap GROUP BY kind",
            parameters: ["pause": "0"],
            resultPath: try makeCacheDirectory() + "/result.sqlite"
        )
        #expect(live.readTables == ["item"], "the view read through to its table")
        #expect(live.sourceTable == nil, "an aggregate's rows are no table's")
        try live.load()
        #expect(live.result.count == 1)
        // The same query, slow: a run of it is cancelled from another thread.
        let slow = try PostgresLiveQuery(
            connection: try database.connect(),
            sql: "SELECT id, kind, pg_sleep(30)::text AS slept FROM item",
            resultPath: try makeCacheDirectory() + "/result.sqlite"
        )
        #expect(slow.sourceTable?.keyColumns.map(\.result) == ["id"], "\(slow.identityDescription)")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { slow.cancelRun() }
        let started = Date()
        #expect(throws: PostgresLiveQuery.RunCancelled.self) { try slow.load() }
        #expect(Date().timeIntervalSince(started) < 20, "cancelled, not run for 30 s")
        #expect(slow.result.count == 0)
    }

    @Test func aCancelBeforeTheLoadEndsTheLoadAsCancelledAtOnce() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(PostgresLiveQueryTests.schema)
        let live = try PostgresLiveQuery(
            connection: try database.connect(),
            sql: "SELECT id, kind, pg_sleep(30)::text AS slept FROM item",
            resultPath: try makeCacheDirectory() + "/result.sqlite"
        )
        // Before the fix the load cleared the request and ran the 90 s query (PQcancel had no statement to stop).
        live.cancelRun()
        let started = Date()
        #expect(throws: PostgresLiveQuery.RunCancelled.self) { try live.load() }
        #expect(Date().timeIntervalSince(started) < 20, "cancelled at once, not run for 90 s")
        #expect(live.result.count == 0)
    }

    @Test func aTrackedTablesNotificationRunsItAgain() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(PostgresLiveQueryTests.schema)
        let setup = try database.connect()
        try ChangeFeed(table: TableName(schema: "public", name: "item"), keyColumns: ["id"]).install(on: setup)
        let live = try PostgresLiveQuery(
            connection: try database.connect(),
            sql: "SELECT kind, count(*) AS n FROM item GROUP BY kind ORDER BY kind",
            resultPath: try makeCacheDirectory() + "/result.sqlite"
        )
        #expect(live.isNotified)
        try live.load()
        let events = Events()
        live.follow { events.append($0) }
        defer { live.stop() }
        try database.psql("INSERT INTO item VALUES (4, 'c', 1)")
        let deadline = Date().addingTimeInterval(30)
        while events.refreshes.isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let refresh = try #require(events.refreshes.first)
        #expect(refresh.tables == ["item"])
        #expect(refresh.change.inserted == 1 && refresh.change.count == 3, "\(refresh.change)")
    }

    /// What a follower reported.
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [LiveQuery.Event] = []
        func append(_ event: LiveQuery.Event) { lock.withLock { list.append(event) } }
        var refreshes: [QueryRefresh] {
            lock.withLock { list.compactMap { if case .refreshed(let refresh) = $0 { refresh } else { nil } } }
        }
    }
}
