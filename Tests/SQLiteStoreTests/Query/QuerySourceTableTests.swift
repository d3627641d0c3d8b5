import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

/// `QuerySourceTable.of`: whether a query's rows are one table's rows by its key — what lets
/// `d`, `e` and `a` act on that table — and otherwise why not, in the words the browser says.
@Suite struct QuerySourceTableTests {
    final class Shop {
        let folder = TemporaryDirectory("query-source-table")
        var path: String { folder.path("shop.sqlite") }

        init() throws {
            let writer = try Database(path: path)
            try writer.execute(
                """
                CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE orders (id INTEGER PRIMARY KEY, name TEXT, qty INTEGER, customer INTEGER);
                CREATE TABLE codes (code TEXT PRIMARY KEY, label TEXT);
                CREATE VIEW positive AS SELECT id, name, qty FROM orders WHERE qty > 0;
                CREATE VIEW totals AS SELECT customer, sum(qty) AS total FROM orders GROUP BY customer;
                INSERT INTO customers VALUES (1, 'Ito'), (2, 'Berg');
                INSERT INTO orders VALUES (1, 'pen', 3, 1), (2, 'ink', 0, 2), (3, 'pad', 5, 1);
                INSERT INTO codes VALUES ('a', 'A');
                """
            )
        }

        func mapping(_ sql: String) throws -> Result<QuerySourceTable, QuerySourceTable.Refusal> {
            try QuerySourceTable.of(Database.openForQueries(path: path).prepareReadOnlyQuery(sql))
        }
    }

    /// What the browser says of `sql`'s rows: nil when they are `orders`' rows to change.
    static func why(_ sql: String, in shop: Shop) throws -> String? {
        switch try shop.mapping(sql) {
        case .success(let mapping): mapping.changeRefusal
        case .failure(let refusal): refusal.reason
        }
    }

    @Test func aOneTableSelectWithItsKeyMapsToThatTablesRows() throws {
        let shop = try Shop()
        let mapping = try shop.mapping("SELECT id, name, qty FROM orders WHERE qty > 0").get()
        #expect(mapping.table == "orders")
        #expect(mapping.keyColumns == [.init(result: "id", table: "id")])
        #expect(mapping.changeRefusal == nil)
        // An alias of the key, an ORDER BY, a subquery in FROM of the same table: still its rows.
        let renamed = try shop.mapping("SELECT qty, id AS number FROM orders ORDER BY qty DESC").get()
        #expect(renamed.keyColumns == [.init(result: "number", table: "id")] && renamed.changeRefusal == nil)
        // A rowid table whose key is not an INTEGER PRIMARY KEY is found by its primary key too.
        let byCode = try shop.mapping("SELECT code, label FROM codes").get()
        #expect(byCode.keyColumns.map(\.table) == ["code"] && byCode.changeRefusal == nil)
    }

    @Test(arguments: [
        (
            "SELECT o.id, o.qty, c.name FROM orders o JOIN customers c ON c.id = o.customer",
            "its rows come from a join of orders and customers"
        ),
        ("SELECT id, count(*) AS n FROM orders GROUP BY id", "it groups rows (GROUP BY)"),
        ("SELECT name, qty FROM orders", "it does not return orders' key (id): add it to the SELECT"),
        ("SELECT DISTINCT id, name FROM orders", "it makes its rows distinct (DISTINCT)"),
        (
            "SELECT id, name FROM orders WHERE qty > 2 UNION SELECT id, name FROM orders WHERE qty = 0",
            "it combines several queries' rows (UNION)"
        ),
        ("SELECT id, sum(qty) AS total FROM orders", "it makes one row of many (sum(…))"),
        (
            "SELECT id, row_number() OVER (ORDER BY qty) AS place FROM orders",
            "it computes over a window of rows (OVER)"
        ),
        ("SELECT customer, sum(qty) AS total FROM orders GROUP BY customer", "it groups rows (GROUP BY)"),
        ("SELECT customer, total FROM totals", "it groups rows (GROUP BY) in the view totals"),
        ("SELECT id, qty FROM orders WHERE id IN (SELECT id FROM orders GROUP BY name)", "it groups rows (GROUP BY)"),
    ])
    func queriesWhoseRowsAreNotOneTablesRowsSayWhy(_ sql: String, _ reason: String) throws {
        let shop = try Shop()
        #expect(try Self.why(sql, in: shop) == reason)
    }

    @Test func aViewOverOneTableMapsToItsRowsUnlessItGroupsThem() throws {
        let shop = try Shop()
        let mapping = try shop.mapping("SELECT id, name FROM positive").get()
        #expect(mapping.table == "orders" && mapping.keyColumns.map(\.result) == ["id"])
        #expect(mapping.changeRefusal == nil)
        // A view that groups, read with a key column of its table: its rows are groups.
        let grouped = try shop.mapping("SELECT t.customer, o.id FROM orders o JOIN totals t ON t.customer = o.customer")
        #expect(try grouped.get().changeRefusal == "it groups rows (GROUP BY) in the view totals")
    }

    @Test func wordsInStringsQuotedNamesAndCommentsAreNotTheQuerysShape() throws {
        #expect(
            QueryShape(sql: "SELECT id, 'GROUP BY' AS \"distinct\" FROM orders -- UNION\n /* OVER */").refusal == nil
        )
        #expect(QueryShape(sql: "SELECT id, max(qty, 2) AS top, total FROM orders").refusal == nil)
        #expect(QueryShape(sql: "SELECT id, max(qty) FROM orders").refusal == "it makes one row of many (max(…))")
        #expect(QueryShape(sql: "SELECT id, count (*) FROM orders").refusal == "it makes one row of many (count(…))")
    }
    @Test func theExpressionsOfTheSelectListAreFoundByTheirNames() {
        #expect(
            QueryColumn.expressions(in: "SELECT id, sum(qty) AS total FROM orders GROUP BY id") == ["total": "sum(qty)"]
        )
        let sql = """
            WITH big AS (SELECT id AS n FROM orders) SELECT DISTINCT qty * 2 AS "double", 'a, b' || name as label,
              (SELECT max(x) FROM (SELECT 1 AS x)) AS top FROM orders
            """
        #expect(
            QueryColumn.expressions(in: sql)
                == ["double": "qty * 2", "label": "'a, b' || name", "top": "(SELECT max(x) FROM (SELECT 1 AS x))"]
        )
        #expect(QueryColumn.expressions(in: "SELECT 1 AS one") == ["one": "1"])
    }
}
