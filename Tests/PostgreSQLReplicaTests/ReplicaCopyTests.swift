import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore
import Testing

@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct ReplicaCopyTests {
    static let everyTypeTable = """
        CREATE TABLE kinds (
            id integer PRIMARY KEY, small smallint, big bigint, exact numeric, approx double precision,
            single real, flag boolean, day date, at timestamp, at_zone timestamptz, tag uuid,
            name text, code varchar(8), doc jsonb, plain json, numbers integer[], words text[], raw bytea
        );
        INSERT INTO kinds VALUES
            (1, 7, 9007199254740993, 12345678901234567890.000001, 2.5, 0.25, true, '2024-03-01',
             '2024-03-01 12:30:00.5', '2024-03-01 12:30:00+00', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
             'Zoë', 'ab', '{"b": [1, 2], "a": "x y"}', '{ "k" : 1 }', '{1,2,NULL}', '{"a b",c}', '\\x000102'),
            (2, NULL, NULL, NULL, NULL, NULL, false, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
             '\\x00');
        INSERT INTO kinds (id) VALUES (3);
        """

    @Test func everyTypeIsCopiedAsAPersonReadsItAndNullStaysNull() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(Self.everyTypeTable)
        let replica = PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: "kinds"),
            cacheDirectory: try makeCacheDirectory(),
            timeZone: "Europe/Paris"
        )
        let table = try replica.load()
        #expect(table.rowCount == 3)
        #expect(table.rowIDColumn == "id")
        #expect(table.keyColumns == ["id"])
        #expect(table.readOnlyReason == nil)
        // The columns, then the order column of `exact` (its keys sort as the numbers do, NULL last).
        let stored = try replicaRows(table, orderBy: "id")
        let rows = stored.map { Array($0.prefix(table.columns.count)) }
        #expect(table.columns.compactMap(\.orderColumn) == ["pgreplica_order_exact"])
        #expect(stored.map { $0.count } == [19, 19, 19])
        #expect(stored[1][18] == .blob([0xFF]) && stored[2][18] == .blob([0xFF]), "NULL's key is above every number's")
        #expect(
            rows[0] == [
                .integer(1), .integer(7), .integer(9_007_199_254_740_993), .text("12345678901234567890.000001"),
                .real(2.5), .real(0.25), .integer(1), .text("2024-03-01"), .text("2024-03-01 12:30:00.5"),
                .text("2024-03-01 13:30:00"), .text("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), .text("Zoë"),
                .text("ab"), .text(#"{"a":"x y","b":[1,2]}"#), .text(#"{"k":1}"#), .text("{1,2,NULL}"),
                .text(#"{"a b",c}"#), .text("3 bytes"),
            ]
        )
        #expect(rows[1][6] == .integer(0))
        #expect(rows[1][17] == .text("1 byte"))
        #expect(rows[1].enumerated().allSatisfy { [0, 6, 17].contains($0.offset) || $0.element == .null })
        #expect(rows[2].dropFirst().allSatisfy { $0 == .null })
        // The declared types SQLiteStore's catalog reads a column's kind from.
        let catalog = try DatabaseCatalog(path: table.path)
        let columns = try #require(catalog.table(named: "kinds")).columns
        #expect(columns.map(\.declaredType) == table.columns.map(\.declaredType) + ["BLOB"])
        #expect(columns.first { $0.name == "flag" }?.type == .bool)
        #expect(columns.first { $0.name == "at_zone" }?.type == .dateTime)
        #expect(columns.first { $0.name == "day" }?.type == .date)
        // The file is tracked (SQLiteStore's standard names): a browser reads each applied batch as exact rows.
        #expect(replica.localTracking == .standard)
        #expect(try Self.triggers(of: table.path).allSatisfy { $0.hasPrefix("store_tracking_") })
    }

    @Test func theReplicaFileIsTrackedUnderTheNamesItIsGiven() throws {
        let database = try ReplicaTestDatabase()
        try database.psql("CREATE TABLE notes (id integer PRIMARY KEY, body text); INSERT INTO notes VALUES (1, 'a');")
        let replica = PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: "notes"),
            cacheDirectory: try makeCacheDirectory(),
            localTracking: TrackingNames(historyTable: "app_history")
        )
        let table = try replica.load()
        let triggers = try Self.triggers(of: table.path)
        #expect(triggers.count == 3 && triggers.allSatisfy { $0.hasPrefix("app_history_") })
        let tables = try Database(path: table.path).query("SELECT name FROM sqlite_master WHERE type = 'table'")
        #expect(tables.contains { $0.first?.string == "app_history" })
    }

    /// The names of the triggers in the SQLite file at `path`, sorted.
    static func triggers(of path: String) throws -> [String] {
        try Database(path: path).query("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
            .compactMap { $0.first?.string }
    }

    @Test func aViewIsCopiedAndReadOnly() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(
            """
            CREATE TABLE events (id bigserial PRIMARY KEY, level text);
            INSERT INTO events (level) VALUES ('info'), ('warn'), ('warn');
            CREATE VIEW warnings AS SELECT id, level FROM events WHERE level = 'warn';
            """
        )
        let replica = PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: "warnings"),
            cacheDirectory: try makeCacheDirectory()
        )
        let table = try replica.load()
        #expect(table.kind == .view)
        #expect(table.rowIDColumn == nil)
        #expect(table.readOnlyReason == "public.warnings is a view")
        #expect(
            try replicaRows(table, orderBy: "id") == [[.integer(2), .text("warn")], [.integer(3), .text("warn")]]
        )
        #expect(throws: ReplicaError.self) { try replica.delete(rowIDs: [1]) }
    }

    @Test func aTableWithoutAPrimaryKeyIsBrowsableReadOnlyAndSaysWhy() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(
            "CREATE TABLE log (line text, n int); INSERT INTO log VALUES ('a', 1), ('a', 1), ('b', NULL)"
        )
        let replica = PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: "log"),
            cacheDirectory: try makeCacheDirectory()
        )
        let table = try replica.load()
        #expect(table.readOnlyReason == "public.log has no primary key")
        #expect(try replicaRows(table, orderBy: "rowid").count == 3)
        do {
            _ = try replica.delete(rowIDs: [1])
            Issue.record("a delete went through")
        } catch {
            #expect("\(error)" == "rows cannot be deleted: public.log has no primary key")
        }
        #expect(try database.psql("SELECT count(*) FROM log").trimmingCharacters(in: .whitespacesAndNewlines) == "3")
    }

    @Test func theFirstPageComesInTheBrowsersOrderBeforeTheCopy() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(
            """
            CREATE TABLE events (id bigserial PRIMARY KEY, ts timestamptz, level text);
            INSERT INTO events (ts, level) VALUES ('2024-01-02', 'a'), (NULL, 'b'), ('2024-01-02', 'c'), ('2024-01-01', 'd');
            """
        )
        let replica = PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: "events"),
            cacheDirectory: try makeCacheDirectory()
        )
        // The server's order, which the list's is: NULL first descending, last ascending.
        let descending = try replica.firstPage(orderBy: [OrderTerm("ts", ascending: false)], limit: 3)
        #expect(descending.rows.map { $0[0] } == [.integer(2), .integer(1), .integer(3)])
        let ascending = try replica.firstPage(orderBy: [OrderTerm("ts")], limit: 2)
        #expect(ascending.rows.map { $0[0] } == [.integer(4), .integer(1)])
        let whole = try replica.firstPage(orderBy: [OrderTerm("ts")], limit: 10)
        #expect(whole.rows.map { $0[0] } == [.integer(4), .integer(1), .integer(3), .integer(2)])
    }

    @Test func textThatCopyEscapesArrivesExactlyAndNullIsNotTheTextBackslashN() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(
            #"""
            CREATE TABLE notes (id int PRIMARY KEY, body text, tags text[], doc json);
            INSERT INTO notes VALUES
                (1, E'tab\there\nnew line\r\\ back\\slash', ARRAY[E'a\tb', 'c\d'], '{"a": "x\ty"}'),
                (2, E'\\N', NULL, NULL),
                (3, '', '{}', 'null'),
                (4, NULL, NULL, NULL);
            CREATE TABLE codes (code text PRIMARY KEY, label text);
            INSERT INTO codes VALUES (E'k\t1', E'one\n'), (E'k\\2', NULL);
            """#
        )
        let replica = PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: "notes"),
            cacheDirectory: try makeCacheDirectory()
        )
        let rows = try replicaRows(try replica.load(), orderBy: "id")
        #expect(rows[0][1] == .text("tab\there\nnew line\r\\ back\\slash"))
        #expect(rows[0][2] == .text("{\"a\tb\",\"c\\\\d\"}"))  // {"a<tab>b","c\\d"}
        #expect(rows[0][3] == .text(#"{"a":"x\ty"}"#))
        #expect(rows[1][1] == .text(#"\N"#))
        #expect(rows[2][1] == .text("") && rows[2][2] == .text("{}") && rows[2][3] == .text("null"))
        #expect(rows[3].dropFirst().allSatisfy { $0 == .null })
        // Keys through the key table: decoded the same way, and deletable by them.
        let keyed = PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: "codes"),
            cacheDirectory: try makeCacheDirectory()
        )
        let codes = try keyed.load()
        let held = try replicaRows(codes, orderBy: "rowid")
        #expect(held == [[.text("k\t1"), .text("one\n")], [.text("k\\2"), .null]])
        let deleted = try keyed.delete(rowIDs: [1])
        #expect(deleted.count == 1)
        #expect(try database.psql("SELECT count(*) FROM codes").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }

    @Test func anUnknownTableNamesThoseThatExist() throws {
        let database = try ReplicaTestDatabase()
        try database.psql("CREATE TABLE events (id int PRIMARY KEY); CREATE TABLE tags (name text)")
        let replica = PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: "nope"),
            cacheDirectory: try makeCacheDirectory()
        )
        do {
            _ = try replica.load()
            Issue.record("loaded a table that does not exist")
        } catch {
            #expect("\(error)" == "no table or view \"public.nope\"; there are: events, tags")
        }
    }
}

extension ReplicaCopyTests {
    @Test func theCopyGivesItsRowsInTheBrowsersOrderAsSQLiteSortsTheReplicaWithTheServersNulls() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(
            """
            CREATE TABLE events (id bigserial PRIMARY KEY, ts timestamptz, note text);
            INSERT INTO events (ts, note)
            SELECT CASE WHEN n % 11 = 0 THEN NULL
                        ELSE timestamptz '2024-03-30 12:00:00+00' + ((n * 7919) % 500) * interval '7 minutes' END,
                   CASE WHEN n % 5 = 0 THEN NULL ELSE 'note ' || (n % 37) END
            FROM generate_series(1, 3000) AS n;
            """
        )
        for (column, ascending) in [("ts", false), ("ts", true), ("note", true)] {
            let replica = PostgresReplica(
                connectionString: database.uri,
                table: TableName(schema: "public", name: "events"),
                cacheDirectory: try makeCacheDirectory(),
                timeZone: "Europe/Paris"
            )
            let (table, copied) = try replica.load(sortingBy: OrderTerm(column, ascending: ascending))
            let direction = ascending ? "ASC NULLS LAST" : "DESC NULLS FIRST"
            let sorted = try replicaRows(table, orderBy: "\(column) \(direction), id")
            let order = try #require(copied)
            #expect(order.nullsGreatest)
            #expect(order.ids == sorted.map { $0[0].int64! })
            let index = column == "ts" ? 1 : 2
            for (row, values) in sorted.enumerated() {
                let text = String(
                    decoding: order.text[Int(order.offsets[row])..<Int(order.offsets[row + 1])],
                    as: UTF8.self
                )
                #expect(order.isNull[row] ? values[index] == .null : values[index] == .text(text))
            }
        }
        // A numeric column is sorted by its order column's keys.
        try database.psql("ALTER TABLE events ADD COLUMN amount numeric; UPDATE events SET amount = (id % 13) - 6.5")
        let keyed = PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: "events"),
            cacheDirectory: try makeCacheDirectory()
        )
        let (keyedTable, keyedOrder) = try keyed.load(sortingBy: OrderTerm("amount", ascending: false))
        #expect(keyedOrder?.column == "pgreplica_order_amount")
        let byKey = try replicaRows(keyedTable, orderBy: "pgreplica_order_amount DESC, id")
        #expect(keyedOrder?.ids == byKey.map { $0[0].int64! })
        #expect(
            try database.psql("SELECT id FROM events ORDER BY amount DESC, id").split(separator: "\n").compactMap {
                Int64($0)
            } == keyedOrder?.ids
        )
        // A column not kept as text is not sorted here.
        let replica = PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: "events"),
            cacheDirectory: try makeCacheDirectory()
        )
        #expect(try replica.load(sortingBy: OrderTerm("id")).order == nil)
    }
}
