import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

/// `QueryResultTable.loadInPlace`: a SQLite query's first run written by the result's own
/// connection (`INSERT … SELECT` over the file attached read-only), its rows as the query
/// returns them — values, types, order — and what it cannot run so left to the rows read in Swift.
@Suite struct QueryResultTableInPlaceTests {
    final class Source {
        let folder = TemporaryDirectory("query-in-place")
        var path: String { folder.path("source.sqlite") }
        let writer: Database

        init(_ extra: String = "") throws {
            writer = try Database(path: folder.path("source.sqlite"))
            try writer.execute(
                """
                CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price REAL, data BLOB, code);
                INSERT INTO item (name, price, data, code) VALUES
                  ('pear', 2.5, x'00ff', 'p1'), ('apple', 1, NULL, 7), (NULL, NULL, x'', 1.5),
                  ('fig', 3.25, x'01', NULL), ('apple', 0.5, x'02', 'a2');
                CREATE VIEW cheap AS SELECT name, price FROM item WHERE price < 2;
                \(extra)
                """
            )
        }

        /// The query's rows with each value's type, read on a connection of its own.
        func expected(_ sql: String, _ parameters: [String: StoreValue] = [:]) throws -> [[StoreValue]] {
            let database = try Database.openForQueries(path: path)
            let query = try database.prepareReadOnlyQuery(sql)
            try query.bind(parameters)
            let rows = try query.rows()
            var all: [[StoreValue]] = []
            while try rows.next() { all.append((0..<rows.columnCount).map { rows.field($0).value }) }
            return all
        }
    }

    /// The table's rows in its order column's order (which must be the row ids, 1…).
    func contents(_ table: QueryResultTable) throws -> [[StoreValue]] {
        let names = table.columns.map { SQLIdentifier.alwaysQuoted($0.name) }.joined(separator: ", ")
        let rows = try table.database.query(
            "SELECT \(table.rowIDColumn), \(table.orderColumn), \(names) FROM query_result ORDER BY \(table.orderColumn)"
        )
        for (place, row) in rows.enumerated() {
            #expect(row[0] == .integer(Int64(place + 1)) && row[1] == .real(Double(place + 1)), "\(row)")
        }
        return rows.map { Array($0.dropFirst(2)) }
    }

    func live(
        _ source: Source,
        _ sql: String,
        key: [String]? = nil,
        parameters: [String: StoreValue] = [:]
    ) throws
        -> LiveQuery
    {
        try LiveQuery(
            databasePath: source.path,
            sql: sql,
            parameters: parameters,
            key: key,
            resultPath: source.folder.path("result.sqlite")
        )
    }

    @Test(arguments: [
        "SELECT name, price, data, code, typeof(code) AS kind FROM item ORDER BY price DESC, id",
        "SELECT a.name, b.id FROM item a JOIN item b ON b.id >= a.id ORDER BY b.id DESC, a.id;",
        "SELECT code, count(*) AS n FROM item GROUP BY code ORDER BY n DESC, code -- the last line\n",
        "WITH cheap AS (SELECT * FROM item WHERE price < :most) SELECT name, price FROM cheap ORDER BY name, id",
        "SELECT name, price FROM cheap ORDER BY price",
    ])
    func theFirstRunIsWrittenInPlaceAsTheQueryReturnsIt(sql: String) throws {
        let source = try Source()
        let parameters: [String: StoreValue] = sql.contains(":most") ? ["most": .real(3)] : [:]
        let database = try Database.openForQueries(path: source.path)
        let query = try database.prepareReadOnlyQuery(sql)
        try query.bind(parameters)
        let table = try QueryResultTable(
            path: source.folder.path("result.sqlite"),
            columns: query.columns,
            identity: .content
        )
        var reported: [Int] = []
        #expect(try table.loadInPlace(query, from: source.path, checksKey: false) { reported.append($0) })
        let expected = try source.expected(sql, parameters)
        #expect(try contents(table) == expected)
        #expect(table.count == expected.count && reported.last == expected.count)
        // Its index read back, a later run compares with it: the same rows change nothing.
        try table.buildIndex()
        #expect(try table.update(from: try query.rows()).isEmpty)
        // The queried file is attached no longer.
        #expect(try table.database.query("PRAGMA database_list").count == 1)
    }

    @Test func aLiveQuerysFirstRunIsWrittenInPlaceAndFollowsChanges() throws {
        let source = try Source()
        let live = try live(
            source,
            "SELECT id, name FROM item WHERE price > :least ORDER BY name DESC, id",
            parameters: ["least": .integer(1)]
        )
        try live.load()
        #expect(try contents(live.result) == [[1, "pear"], [4, "fig"]])
        #expect(live.identityDescription == "by id (item's key)")
        try source.writer.run("UPDATE item SET price = 9 WHERE id = 5")
        guard case .refreshed(let refresh) = live.lookNow() else {
            Issue.record("no refresh")
            return
        }
        #expect(refresh.change.inserted == 1 && refresh.change.deleted == 0)
        #expect(try live.result.database.query("SELECT name FROM query_result WHERE id = 5") == [["apple"]])
    }

    @Test func aGivenKeyThatRepeatsIsRefusedNamingTheFirstRowThatRepeatsOne() throws {
        let source = try Source()
        // pear, apple, (null), fig, apple: the second apple is the first repeat.
        let live = try live(source, "SELECT name, price FROM item ORDER BY id", key: ["name"])
        #expect(throws: QueryResultError.duplicateKey(columns: ["name"], values: [.text("apple")])) {
            try live.load()
        }
        #expect(live.result.count == 0)
    }

    @Test func theTablesKeyRepeatingInTheRowsTellsThemApartByContentBeforeTheFirstLook() throws {
        let source = try Source()
        let live = try live(
            source,
            "SELECT a.id, a.name FROM item a JOIN item b ON a.id = b.id OR b.id = 1 ORDER BY a.id"
        )
        try live.load()
        #expect(live.result.count == 9)
        let looked = Outcome()
        live.follow { _ in }
        defer { live.stop() }
        // The follower reads the rows back before its first look: the key repeats, rows by content.
        let deadline = Date().addingTimeInterval(30)
        while live.sourceTable != nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        looked.set(live.identityDescription)
        #expect(looked.value == "by their content")
        #expect(live.sourceTableRefusal == "item's key repeats in the result")
    }

    @Test(arguments: [
        ("SELECT name FROM sqlite_master ORDER BY name", ""),
        ("SELECT id, changes() AS n FROM item ORDER BY id", ""),
        (
            "SELECT n FROM query_result ORDER BY n",
            "CREATE TABLE query_result (n INTEGER); INSERT INTO query_result VALUES (2), (1);"
        ),
        ("SELECT id FROM main.item ORDER BY id", ""),
    ])
    func whatCannotRunInPlaceIsReadInSwift(sql: String, extra: String) throws {
        let source = try Source(extra)
        let live = try live(source, sql)
        let query = try Database.openForQueries(path: source.path).prepareReadOnlyQuery(sql)
        #expect(try !live.result.loadInPlace(query, from: source.path, checksKey: false))
        #expect(live.result.count == 0)
        try live.load()
        #expect(try contents(live.result) == (try source.expected(sql)))
    }

    @Test func theFirstRunIsWrittenWithoutTheOrdersIndexWhichIsBuiltBeforeTheFirstLook() throws {
        let source = try Source()
        let live = try live(source, "SELECT name, price FROM item ORDER BY price DESC")
        try live.load()
        // Rows 1…5 in the query's order, each one's place its row id (contents checks it): a list
        // needs no index to fetch them in that order, and the first run writes none.
        #expect(live.firstRunRowCount == 5)
        #expect(try contents(live.result).count == 5)
        let indexes = "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'query_result'"
        #expect(try live.result.database.query(indexes).isEmpty)
        // What the follower does before its first look: then the query's order is read without a sort.
        try live.result.buildIndex()
        #expect(try live.result.database.query(indexes).count == 1)
        let plan = try live.result.database.query(
            """
            EXPLAIN QUERY PLAN SELECT \(live.result.rowIDColumn) FROM query_result \
            ORDER BY \(live.result.orderColumn), \(live.result.rowIDColumn)
            """
        ).map { $0.last?.string ?? "" }
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        // After a look the result may be another run's: no first run to list by row id.
        live.lookNow()
        #expect(live.firstRunRowCount == nil)
    }

    @Test func theFirstRunsInsertHasTheQueryFlattenedIntoItNotRunAsACoRoutine() throws {
        // A join sorted by its first table's key: SQLite reads it in that order, no sort. Anything
        // but constants beside the query's columns in the INSERT (a function numbering the rows)
        // made it a co-routine whose every value was copied once more (0.5 s of a 1M-row join's 1 s).
        let source = try Source()
        let sql = "SELECT a.id, a.name, b.price FROM item a JOIN item b ON b.id = a.id ORDER BY a.id DESC"
        let live = try live(source, sql)
        try live.result.database.execute(
            "ATTACH DATABASE '\(source.path)' AS \(QueryResultTable.sourceSchema)"
        )
        let plan = try live.result.database.query("EXPLAIN QUERY PLAN " + live.result.inPlaceInsertText(sql))
            .map { $0.last?.string ?? "" }
        #expect(!plan.isEmpty && !plan.contains { $0.contains("CO-ROUTINE") }, "\(plan)")
        try live.result.database.execute("DETACH DATABASE \(QueryResultTable.sourceSchema)")
        // Written so, each row's place is its row id, in the query's order (contents checks it).
        try live.load()
        #expect(try contents(live.result) == (try source.expected(sql)))
    }

    @Test func theFirstRunReportsItsRowsAsTheyAreWritten() throws {
        let source = try Source(
            "CREATE TABLE many (n INTEGER PRIMARY KEY); "
                + "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 120000) "
                + "INSERT INTO many SELECT n FROM c;"
        )
        let live = try live(source, "SELECT n FROM many ORDER BY n DESC")
        let query = try Database.openForQueries(path: source.path).prepareReadOnlyQuery(live.sql)
        var reported: [Int] = []
        #expect(try live.result.loadInPlace(query, from: source.path, checksKey: false) { reported.append($0) })
        #expect(reported == [51_200, 102_400, 120_000])
    }

    /// A value set on one thread and read on another.
    final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var text: String?
        var value: String? { lock.withLock { text } }
        func set(_ value: String) { lock.withLock { text = value } }
    }
}
