import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import Testing

/// The numbers of the design notes, on demand: `POSTGRES_MEASURE=1`.
@Suite(.enabled(if: serverAvailable && ProcessInfo.processInfo.environment["POSTGRES_MEASURE"] != nil))
struct ReplicaMeasurementTests {
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    @Test func measureTheCopyAndTheChangeDelaysOfAMillionRows() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(
            """
            CREATE TABLE events (id bigserial PRIMARY KEY, ts timestamptz NOT NULL, level text, service text, message text);
            INSERT INTO events (ts, level, service, message)
            SELECT timestamptz '2020-01-01' + (hashint4(n)::bigint % 157680000) * interval '1 second',
                   (ARRAY['debug','info','warn','error'])[1 + n % 4], 'service-' || (n % 20), 'message number ' || n
            FROM generate_series(1, 1000000) n;
            CREATE INDEX events_ts ON events (ts);
            VACUUM ANALYZE events;
            """
        )
        let connection = try database.connect()
        let baseline = try Self.seconds {
            let result = try connection.query("SELECT id FROM events ORDER BY ts DESC, id")
            _ = (0..<result.rowCount).map { result.int64(row: $0, column: 0) ?? 0 }
        }
        let replica = PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: "events"),
            cacheDirectory: try makeCacheDirectory(),
            timeZone: "UTC"
        )
        try replica.installTracking()
        var preview = 0.0
        preview = try Self.seconds {
            _ = try replica.firstPage(orderBy: [OrderTerm("ts", ascending: false)], limit: 50)
        }
        var table: ReplicaTable?
        let copy = try Self.seconds { table = try replica.load() }
        let size = (try FileManager.default.attributesOfItem(atPath: table!.path)[.size] as? Int) ?? 0
        let log = FollowerLog()
        replica.follow(track: true, status: { log.record($0) }, applied: { log.record($0) })
        defer { replica.stop() }
        #expect(try eventually { log.allStatuses.contains(.live) })
        Thread.sleep(forTimeInterval: 1)
        let writer = try database.connect(applicationName: "writer")
        func delay(_ sql: String) throws -> Double {
            let before = log.allBatches.count
            try writer.execute(sql)
            let committed = DispatchTime.now().uptimeNanoseconds
            #expect(eventually(seconds: 60) { log.allBatches.count > before })
            return Double(Int64(log.batchTimes[before]) - Int64(committed)) / 1e6
        }
        var one: [Double] = []
        var thousand: [Double] = []
        for n in 0..<5 {
            one.append(
                try delay("INSERT INTO events (ts, level, service, message) VALUES (now(), 'info', 's', 'one \(n)')")
            )
            thousand.append(try delay("UPDATE events SET level = 'warn\(n)' WHERE id BETWEEN 1 AND 1000"))
        }
        let median = { (values: [Double]) in values.sorted()[values.count / 2] }
        print(
            String(
                format: "replica of 1M rows: ids in (ts desc, id) over libpq %.2f s; first page %.3f s; copy %.2f s "
                    + "(ratio %.1f, %d MB); commit to replica commit: one row %.0f ms, 1,000-row update %.0f ms (medians of 5)",
                baseline,
                preview,
                copy,
                copy / baseline,
                size / 1_000_000,
                median(one),
                median(thousand)
            )
        )
    }
}
