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

    @Test func aFirstRunStreamedByCopyHoldsWhatTheQueryReturns() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(
            """
            CREATE TABLE sample (id bigint PRIMARY KEY, label text, amount numeric, ratio double precision,
              done boolean, at timestamptz, small int);
            INSERT INTO sample VALUES
              (1, E'tab\\there, new\\nline, back\\\\slash', 1.50, 0.25, true, '2026-01-02 03:04:05+00', 7),
              (2, NULL, NULL, 'NaN', false, NULL, NULL), (3, '', -2, -1e300, NULL, '2020-02-29 23:59:59.5+00', -3),
              (4, '\\N', 12345678901234567890, 1.5, true, '1999-12-31 00:00:00+00', 0);
            """
        )
        let select = "SELECT id, label, amount, ratio, done, at, small, id * 2 AS twice FROM sample"
        // Without parameters the rows are copied (COPY … TO STDOUT); with one, fetched as a query's.
        let copied = try PostgresLiveQuery(
            connection: try database.connect(),
            sql: select + " ORDER BY id DESC",
            resultPath: try makeCacheDirectory() + "/result.sqlite"
        )
        let fetched = try PostgresLiveQuery(
            connection: try database.connect(),
            sql: select + " WHERE id > :least ORDER BY id DESC",
            parameters: ["least": "-1"],
            resultPath: try makeCacheDirectory() + "/result.sqlite"
        )
        var reported: [Int] = []
        try copied.load { reported.append($0) }
        try fetched.load(progress: nil)
        func contents(_ live: PostgresLiveQuery) throws -> [[StoreValue]] {
            let names = live.columns.map { "\"\($0.name)\"" } + ["typeof(label)", "typeof(ratio)", "typeof(done)"]
            return try Database.openForQueries(path: live.result.path).query(
                "SELECT \(names.joined(separator: ", ")) FROM query_result ORDER BY \(live.result.orderColumn)"
            )
        }
        let rows = try contents(copied)
        #expect(rows == (try contents(fetched)))
        #expect(rows.count == 4 && reported.last == 4)
        #expect(rows.first?[1] == .text("\\N"), "a text that reads as COPY's NULL marker is text")
        #expect(rows.last?[1] == .text("tab\there, new\nline, back\\slash"))
        #expect(rows[2][3] == .text("NaN") && rows[2][1] == .null)
    }

    @Test(arguments: [false, true])
    func aRerunAfterTheFirstRunFindsEveryUnchangedRowUnchanged(byKey: Bool) throws {
        let database = try ReplicaTestDatabase()
        try database.psql(
            """
            CREATE TABLE sample (id bigint PRIMARY KEY, label text, amount numeric, ratio double precision,
              done boolean, at timestamptz, day date, local timestamp, small int, blob bytea);
            INSERT INTO sample VALUES
              (1, E'tab\\there, new\\nline', 1.50, 0.25, true, '2026-01-02 03:04:05+00', '2026-01-02',
               '2026-01-02 03:04:05', 7, '\\x00ff'),
              (2, NULL, 'NaN', 'NaN', false, NULL, 'infinity', '-infinity', NULL, NULL),
              (3, '', -2, '-Infinity', NULL, 'infinity', '0044-03-15 BC', '2020-02-29 23:59:59.5', -3, ''),
              (4, '12', 12345678901234567890, 'Infinity', true, '1999-12-31 00:00:00+00', NULL, NULL, 0, '\\x31');
            """
        )
        // The rows read back from the result's table (the follower's index) are the server's rows:
        // a re-run of the same rows changes nothing; one changed row is one update.
        let live = try PostgresLiveQuery(
            connection: try database.connect(),
            sql: (byKey ? "SELECT *" : "SELECT label, amount, ratio, done, at, day, local, small, blob")
                + " FROM sample ORDER BY id",
            resultPath: try makeCacheDirectory() + "/result.sqlite"
        )
        #expect(live.sourceTable != nil || !byKey)
        try live.load(progress: nil)
        let unchanged = live.runAgain(tables: [])
        guard case .refreshed(let refresh) = unchanged else {
            Issue.record("the re-run did not refresh: \(String(describing: unchanged))")
            return
        }
        #expect(refresh.change.isEmpty, "\(refresh.change)")
        try database.psql("UPDATE sample SET small = 8 WHERE id = 1")
        guard case .refreshed(let changed) = live.runAgain(tables: []) else {
            Issue.record("the second re-run did not refresh")
            return
        }
        let change = changed.change
        let expected = byKey ? change.updated == 1 : change.inserted == 1 && change.deleted == 1
        #expect(expected && change.count == 4 && change.moved == 0, "\(change)")
    }

    @Test func aFirstRunCopiedInManyBatchesHoldsEveryValue() throws {
        // 21 columns: 43 rows an INSERT, so that statements straddle the copy's batches of 2,048 rows.
        let database = try ReplicaTestDatabase()
        let texts = (1...20).map { "'v' || n || '-\($0)' AS c\($0)" }.joined(separator: ", ")
        let live = try PostgresLiveQuery(
            connection: try database.connect(),
            sql: "SELECT n, \(texts) FROM generate_series(1, 9000) AS n ORDER BY n",
            resultPath: try makeCacheDirectory() + "/result.sqlite"
        )
        try live.load(progress: nil)
        let names = live.columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
        let rows = try Database.openForQueries(path: live.result.path).query(
            "SELECT \(names) FROM query_result ORDER BY \(live.result.orderColumn)"
        )
        #expect(rows.count == 9000)
        let wrong = rows.enumerated().filter { index, row in
            let n = index + 1
            return row != [.integer(Int64(n))] + (1...20).map { .text("v\(n)-\($0)") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) rows differ, the first: \(String(describing: wrong.first))")
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
