import Foundation
import PostgreSQLClient
import TestSupport
import Testing

struct PageQueryRenderingTests {
    @Test func aKeysetPageBindsItsBoundaryAndQuotesEveryName() {
        let order = [OrderTerm("ts", ascending: false), OrderTerm("order id")]
        let page = PageQuery(
            table: TableName(schema: "public", name: "events"),
            columns: ["order id", "ts"],
            order: order,
            limit: 50
        )
        #expect(
            page.sql
                == "SELECT \"order id\", \"ts\" FROM \"public\".\"events\" ORDER BY \"ts\" DESC, \"order id\" LIMIT 50"
        )
        #expect(page.parameters.isEmpty)
        let next = page.after([.timestampWithTimeZone("2024-01-01 00:00:00+00"), .integer(7)])
        #expect(
            next.sql == """
                SELECT "order id", "ts" FROM "public"."events" WHERE (("ts" < $1) OR ("ts" = $1 AND "order id" > $2)) \
                ORDER BY "ts" DESC, "order id" LIMIT 50
                """
        )
        #expect(next.parameters == ["2024-01-01 00:00:00+00", "7"])
    }
}

@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct PageQueryTests {
    @Test func keysetPagesTogetherAreTheWholeOrderedTable() throws {
        let database = try TestDatabase()
        try database.psql(
            """
            CREATE TABLE events (id bigserial PRIMARY KEY, ts timestamptz NOT NULL, level text);
            INSERT INTO events (ts, level)
            SELECT timestamptz '2024-01-01' + (n % 7) * interval '1 hour', 'l' || (n % 3) FROM generate_series(1, 40) n;
            """
        )
        let connection = try database.connect()
        let order = [OrderTerm("ts", ascending: false), OrderTerm("id")]
        let whole = PageQuery(table: TableName(schema: "public", name: "events"), columns: ["ts", "id"], order: order)
        let expected = try connection.query(whole.sql).rows
        var page = PageQuery(table: whole.table, columns: ["ts", "id"], order: order, limit: 6)
        var paged: [[PostgresValue]] = []
        while true {
            let rows = try connection.query(page.sql, page.parameters).rows
            paged += rows
            guard let last = rows.last, rows.count == 6 else { break }
            page = page.after(last)
        }
        #expect(paged == expected)
        #expect(paged.count == 40)
    }

    /// The numbers of the design notes, on demand: `POSTGRES_MEASURE=1`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["POSTGRES_MEASURE"] != nil))
    func measureAMillionRowTable() throws {
        let database = try TestDatabase()
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
        let table = TableName(schema: "public", name: "events")
        let order = [OrderTerm("ts", ascending: false), OrderTerm("id")]
        func seconds(_ body: () throws -> Void) rethrows -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        var ids: [Int64] = []
        let all = try seconds {
            let result = try connection.query(PageQuery(table: table, columns: ["id"], order: order).sql)
            ids = (0..<result.rowCount).map { result.int64(row: $0, column: 0) ?? 0 }
        }
        let page = PageQuery(table: table, order: order, limit: 50)
        let first = try seconds { _ = try connection.query(page.sql).rows }
        let last = try connection.query(page.sql).rows.last!
        let next = try seconds {
            _ = try connection.query(page.after([last[1], last[0]]).sql, page.after([last[1], last[0]]).parameters).rows
        }
        try connection.execute("CREATE INDEX events_ts_id ON events (ts DESC, id)")
        let allWithIndex = try seconds {
            _ = try connection.query(PageQuery(table: table, columns: ["id"], order: order).sql)
        }
        let firstWithIndex = try seconds { _ = try connection.query(page.sql).rows }
        print(
            String(
                format: "1M rows: all ids in (ts desc, id) %.3f s; first page of 50 %.4f s; next page %.4f s; "
                    + "with an index on (ts desc, id): all ids %.3f s, first page %.4f s",
                all,
                first,
                next,
                allWithIndex,
                firstWithIndex
            )
        )
        #expect(ids.count == 1_000_000)
    }
}
