import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `--query` of a throwaway PostgreSQL server through the built `fetchedtable`: `list --format json`
/// gives the values `psql` prints for the same queries (a join with an aggregate, NULLs, numerics,
/// `timestamptz`, unicode text, a bound parameter); a write or several statements exit 64 naming
/// why, a server error with its position; and in tmux a sectioned join with an aggregate changes
/// on screen, without a key, when another session inserts into a tracked base table.
@Suite(
    .serialized,
    .enabled(if: PostgresFixture.isAvailable, Comment(rawValue: PostgresFixture.unavailableReason ?? ""))
)
struct PostgresQueryTests {
    static let schema = """
        CREATE TABLE customer (id bigint PRIMARY KEY, name text NOT NULL, city text);
        CREATE TABLE orders (id bigint PRIMARY KEY, customer bigint REFERENCES customer, total numeric(10,2),
                             weight double precision, placed_at timestamptz, note text, paid boolean);
        INSERT INTO customer VALUES (1, 'Ada', 'Zürich'), (2, 'Brook', NULL), (3, 'Çelik 🐢', 'İzmir'), (4, 'Dana', 'Oslo');
        INSERT INTO orders VALUES
            (10, 1, 12.50, 1.5, '2024-03-01 10:00:00+00', 'first', true),
            (11, 1, 7.25, NULL, '2024-03-02 23:30:00.25+00', NULL, false),
            (12, 2, 100.00, 0.1, NULL, 'ünïcode ✓', NULL),
            (13, 3, NULL, 2.0, '2023-12-31 23:59:59+00', '', true);
        """

    /// A query tab of the schema's customers over a table's rows: Dana is the table's row too, so
    /// the tab is told by the absence of Brook.
    static let whoInOslo = QueryTab(
        sql: "SELECT name AS who FROM customer WHERE city = 'Oslo'",
        title: ":1 SELECT name AS who",
        row: "Dana",
        listed: "query · 1 row"
    )

    /// Tracks `orders`: its history triggers installed by a `watch --track`, stopped once it
    /// printed its snapshot.
    static func trackOrders(_ fixture: PostgresFixture) throws {
        let watch = try fixture.startWatch([fixture.uri, "--table", "orders", "--track"])
        try fixture.waitUntil("the snapshot line") { fixture.lines(watch.output).count >= 1 }
        kill(watch.pid, SIGTERM)
    }

    /// `fetchedtable list URL --query SQL --format json`'s rows, each a dictionary of its columns.
    static func listedRows(_ fixture: PostgresFixture, _ arguments: [String]) throws -> [[String: Any]] {
        let result = try fixture.run(["list", fixture.uri, "--format", "json"] + arguments)
        guard result.status == 0 else { throw EndToEndError("list failed (\(result.status)): \(result.standardError)") }
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        )
        let sections = try #require(json["sections"] as? [[String: Any]])
        return sections.flatMap { ($0["objects"] as? [[String: Any]]) ?? [] }
    }

    /// What `psql` prints for `sql`: a row a line, its fields split, NULL as nil.
    static func psqlRows(_ fixture: PostgresFixture, _ sql: String) throws -> [[String?]] {
        let output = try fixture.psql("\\pset null '<NULL>'\n\\pset fieldsep_zero on\n" + sql + ";")
        return output.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }.map { line in
            line.split(separator: "\0", omittingEmptySubsequences: false).map { $0 == "<NULL>" ? nil : String($0) }
        }
    }

    /// Whether the listed `value` is psql's `text`: the same text, the same number, or the same boolean.
    static func same(_ value: Any?, _ text: String?) -> Bool {
        guard let text else { return value == nil || value is NSNull }
        switch value {
        case let string as String: return string == text
        case let flag as Bool where text == "t" || text == "f":
            return (flag ? "t" : "f") == text
        case let number as NSNumber:
            guard let expected = Double(text) else { return false }
            return abs(number.doubleValue - expected) <= abs(expected) * 1e-15
        default: return false
        }
    }

    @Test func listJSONHasPsqlsValuesForTheSameQueries() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresQueryTests.schema)
        let queries: [(sql: String, columns: [String], parameters: [String], psql: String?)] = [
            (
                """
                SELECT c.name, c.city, count(o.id) AS orders, sum(o.total) AS spent, avg(o.weight) AS weight
                FROM customer c LEFT JOIN orders o ON o.customer = c.id GROUP BY c.name, c.city ORDER BY c.name
                """,
                ["name", "city", "orders", "spent", "weight"], [], nil
            ),
            (
                "SELECT id, total, total * 3 AS triple, weight, weight / 3 AS third, note FROM orders ORDER BY id",
                ["id", "total", "triple", "weight", "third", "note"], [], nil
            ),
            ("SELECT id, placed_at, paid FROM orders ORDER BY id", ["id", "placed_at", "paid"], [], nil),
            (
                "SELECT id, note FROM orders WHERE customer = :who OR note = :note ORDER BY id",
                ["id", "note"], ["--param", "who=1", "--param", "note=ünïcode ✓"],
                "SELECT id, note FROM orders WHERE customer = 1 OR note = 'ünïcode ✓' ORDER BY id"
            ),
        ]
        for query in queries {
            let listed = try PostgresQueryTests.listedRows(fixture, ["--query", query.sql] + query.parameters)
            let expected = try PostgresQueryTests.psqlRows(fixture, query.psql ?? query.sql)
            #expect(listed.count == expected.count, "\(query.sql): \(listed.count) rows, psql \(expected.count)")
            for (row, fields) in zip(listed, expected) {
                #expect(fields.count == query.columns.count, "\(fields)")
                for (column, text) in zip(query.columns, fields) {
                    #expect(
                        PostgresQueryTests.same(row[column], text),
                        "\(query.sql): \(column) is \(String(describing: row[column])), psql says \(text ?? "NULL")"
                    )
                }
            }
        }
    }

    @Test func writesSeveralStatementsAndServerErrorsExit64NamingWhy() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresQueryTests.schema)
        let cases: [(sql: String, says: String)] = [
            ("DELETE FROM orders", "it writes (DELETE)"),
            ("SELECT 1; DELETE FROM orders", "more than one statement"),
            ("WITH gone AS (DELETE FROM orders RETURNING id) SELECT * FROM gone", "it writes: cannot execute"),
            ("SELECT nextval('orders_seq')", "orders_seq"),
            ("SELECT nmae FROM customer", "column \"nmae\" does not exist (at character 8 of the query)"),
            ("SELECT id FROM orders WHERE customer = :who", "the parameter :who has no value"),
            (
                "SELECT $1 AS b, :who AS a",
                "the parameter $1 has no name: name it (:name) and give its value by that name "
                    + "(at character 8 of the query)"
            ),
        ]
        for (sql, says) in cases {
            let result = try fixture.run(["list", fixture.uri, "--query", sql])
            #expect(result.status == 64, "\(sql): \(result.status) \(result.standardError)")
            #expect(result.standardError.contains(says), "\(sql): \(result.standardError)")
        }
        // Nothing was deleted.
        #expect(try fixture.psql("SELECT count(*) FROM orders") == "4")
        let timeout = try fixture.run([
            "list", fixture.uri, "--query", "SELECT pg_sleep(5)", "--statement-timeout", "0.2",
        ])
        #expect(timeout.status == 64 && timeout.standardError.contains("statement timeout"), "\(timeout.standardError)")
    }

    @Test func keyIsCheckedUniqueAndTheTablesKeyIsFoundWithoutOne() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresQueryTests.schema)
        let duplicate = try fixture.run([
            "list", fixture.uri, "--query", "SELECT customer, id FROM orders", "--key", "customer",
        ])
        #expect(duplicate.status == 65, "\(duplicate.standardError)")
        #expect(duplicate.standardError.contains("two rows have customer = 1"), "\(duplicate.standardError)")
    }

    @Test func watchOfAnUntrackedTablePollsAndTellsRowsApartByItsPrimaryKey() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresQueryTests.schema)
        // One table, its key in the result: a changed row is updated in place (no --key given).
        let watch = try fixture.startWatch([
            fixture.uri, "--query", "SELECT id, name FROM customer WHERE id < :upto ORDER BY id", "--param", "upto=10",
        ])
        defer { kill(watch.pid, SIGTERM) }
        try fixture.waitUntil("the snapshot line") { fixture.lines(watch.output).count >= 1 }
        #expect(fixture.lines(watch.output)[0] == #"{"type":"snapshot","sections":[{"name":"","ids":[1,2,3,4]}]}"#)
        try fixture.psql("UPDATE customer SET name = 'Brooke' WHERE id = 2")
        // customer is not tracked: the poll (every 2 s at first) runs it again.
        try fixture.waitUntil("the update's batch") { fixture.lines(watch.output).count >= 2 }
        #expect(
            fixture.lines(watch.output)[1]
                == #"{"type":"batch","sections":[],"objects":[{"change":"update","id":2,"from":[0,1],"to":[0,1]}],"counts":[4]}"#
        )
        let stderrPath = watch.output.path + ".stderr"
        try fixture.waitUntil("the refresh's line on stderr") {
            ((try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "").contains(": 1 updated")
        }
        let stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        #expect(stderr.hasPrefix("fetchedtable watch: refreshed "), "\(stderr)")
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func aSectionedJoinWithAnAggregateChangesOnScreenWhenATrackedTableIsWritten() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresQueryTests.schema)
        try PostgresQueryTests.trackOrders(fixture)
        let query = """
            SELECT coalesce(c.city, 'nowhere') AS city, c.name, count(o.id) AS orders
            FROM customer c LEFT JOIN orders o ON o.customer = c.id GROUP BY c.city, c.name
            """
        let tmux = try fixture.launch([fixture.uri, "--query", query, "--section", "city"], width: 90, height: 16)
        defer { tmux.close() }
        let first = try tmux.waitUntil("the query's rows", timeout: 15) {
            $0.contains("Ada") && $0.contains("Oslo (1)")
        }
        let ada = try #require(first.screenLines.first { $0.contains("Ada") })
        #expect(ada.hasSuffix(" 2") || ada.contains(" 2 "), "Ada: 2 orders:\n\(first)")
        let dana = try #require(first.screenLines.first { $0.contains("Dana") })
        #expect(dana.contains(" 0"), "Dana: no orders:\n\(first)")
        // Another session inserts into orders (tracked): Dana's row changes, without a --key.
        try fixture.psql("INSERT INTO orders (id, customer, total) VALUES (20, 4, 1), (21, 4, 2), (22, 4, 3)")
        let after = try tmux.waitUntil("the re-run's rows", timeout: 20) { screen in
            screen.screenLines.contains { $0.contains("Dana") && $0.contains(" 3") }
                && screen.contains("after a change to orders")
        }
        #expect(after.contains("refreshed "), "the status says when and from which change:\n\(after)")
        #expect(!after.contains("query_result"), "the query's words, not its result table's name:\n\(after)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }
    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func eDAAndUOnAOneTableQueryChangeTheServersTableAndAJoinSaysWhyNot() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(
            """
            CREATE TABLE orders (id bigint PRIMARY KEY, name text NOT NULL, qty int CHECK (qty >= 0), customer bigint);
            INSERT INTO orders VALUES (1, 'pen', 3, 1), (2, 'ink', 0, 1), (3, 'pad', 5, 1);
            """
        )
        let tmux = try fixture.launch(
            // Sorted by id: an UPDATE moves pen's row to the end of the heap, and so of the query's order.
            [fixture.uri, "--query", "SELECT id, name, qty FROM orders WHERE qty > 0", "--sort", "id"],
            width: 120,
            height: 14
        )
        defer { tmux.close() }
        _ = try tmux.waitUntil("the query's rows", timeout: 15) { $0.contains("pen") && $0.contains("pad") }

        // e on qty: the server's CHECK named by its SQLSTATE's kind, then a value saved there and shown.
        tmux.send("l", "l", "e")
        try tmux.waitFor("Enter saves")
        tmux.send("C-u")
        tmux.type(" -1")  // a leading space: tmux would read "-1" as an option
        tmux.send("Enter")
        try tmux.waitFor("Not saved: CHECK", timeout: 15)
        try tmux.waitFor("Enter saves")  // the editor reopened over the cell with the text typed
        tmux.send("C-u")
        tmux.type("7")
        tmux.send("Enter")
        try tmux.waitFor("— u to undo", timeout: 15)  // the server's answer, not the list's "Saving …"
        #expect(try fixture.psql("SELECT qty FROM orders WHERE id = 1") == "7")
        _ = try tmux.waitUntil("the re-run's qty", timeout: 20) { screen in
            screen.screenLines.contains { $0.contains("pen") && $0.contains(" 7") }
        }
        // The key column is not edited.
        tmux.send("h", "h", "e")
        try tmux.waitFor("id is orders' key")

        // d deletes pad on the server; u puts it back.
        tmux.send("j", "d")
        try tmux.waitFor("Delete")
        tmux.send("Enter")
        try tmux.waitFor("u to undo", timeout: 15)
        #expect(try fixture.psql("SELECT count(*) FROM orders WHERE id = 3") == "0")
        _ = try tmux.waitUntil("pad gone from the result", timeout: 20) { !$0.contains("pad") }
        tmux.send("u")
        try tmux.waitFor("Undone: Deleted", timeout: 15)
        #expect(try fixture.psql("SELECT name, qty FROM orders WHERE id = 3") == "pad|5")
        _ = try tmux.waitUntil("pad back in the result", timeout: 20) { $0.contains("pad") }

        // a: the form of orders' columns; the row inserted on the server, then in the result; u deletes it.
        tmux.send("a")
        // The whole form: its title can be drawn before its fields (a capture between them failed once).
        _ = try tmux.waitUntil("the form of orders' columns", timeout: 15) { screen in
            screen.contains("New row in orders") && screen.contains("name *") && screen.contains("customer")
        }
        tmux.type("4")
        tmux.send("Tab")
        tmux.type("cap")
        tmux.send("Tab")
        tmux.type("4")
        tmux.send("C-s")
        try tmux.waitFor("to orders — u to undo", timeout: 15)
        #expect(try fixture.psql("SELECT name, qty FROM orders WHERE id = 4") == "cap|4")
        _ = try tmux.waitUntil("cap in the result", timeout: 20) { $0.contains("cap") && !$0.contains("New row in") }
        tmux.send("u")
        try tmux.waitFor("Undone: Added", timeout: 15)
        #expect(try fixture.psql("SELECT count(*) FROM orders WHERE id = 4") == "0")
        // Ctrl-R writes it back; another session changes it, and u is a conflict that keeps their row.
        tmux.send("C-r")
        try tmux.waitFor("Redone: Added", timeout: 15)
        #expect(try fixture.psql("SELECT count(*) FROM orders WHERE id = 4") == "1")
        try fixture.psql("UPDATE orders SET qty = 8 WHERE id = 4")
        tmux.send("u")
        try tmux.waitFor("Could not undo: qty was changed by another session since it was added again", timeout: 15)
        #expect(try fixture.psql("SELECT qty FROM orders WHERE id = 4") == "8")
        // The change is dropped, not put on the redo stack: there is nothing to redo.
        tmux.send("C-r")
        try tmux.waitFor("Nothing to redo")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)

        // A join's rows are no one table's: d, e and a say why.
        try fixture.psql(
            "CREATE TABLE customers (id bigint PRIMARY KEY, name text); INSERT INTO customers VALUES (1, 'Ito')"
        )
        let join = try fixture.launch(
            [
                fixture.uri, "--query",
                "SELECT o.id, o.qty, c.name AS customer FROM orders o JOIN customers c ON c.id = o.customer",
            ],
            width: 80,
            height: 12
        )
        defer { join.close() }
        _ = try join.waitUntil("the join's rows", timeout: 15) { $0.contains("Ito") }
        // The whole reason on an 80-column status line, after what the key cannot do.
        let why = "its rows come from a join of orders and customers"
        join.send("d")
        try join.waitFor("Delete is disabled: \(why)")
        join.send("a")
        try join.waitFor("Cannot add a row: \(why)")
        join.send("q")
        #expect(fixture.exitStatus() == 0)
        #expect(try fixture.psql("SELECT count(*) FROM orders") == "4", "cap kept, as the other session left it")
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func eOnNumericTimestamptzAndBooleanCellsOfAQuerySavesRefusesByTypeAndUUndoesExactly() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(
            """
            CREATE TABLE items (id bigint PRIMARY KEY, price numeric(10,2), placed timestamptz, paid boolean);
            INSERT INTO items VALUES (1, 12.50, '2024-03-01 10:00:00+00', true);
            """
        )
        let tmux = try fixture.launch(
            [fixture.uri, "--query", "SELECT id, price, placed, paid FROM items"],
            width: 140,
            height: 12
        )
        defer { tmux.close() }
        _ = try tmux.waitUntil("the query's row", timeout: 15) { $0.contains("12.50") }
        let before = try fixture.psql("SELECT price, placed, paid FROM items")
        /// `e` on the cursor's cell, `text` typed over its value, Enter.
        func edit(_ text: String) throws {
            tmux.send("e")
            try tmux.waitFor("Enter saves")
            tmux.send("C-u")
            tmux.type(text)
            tmux.send("Enter")
        }
        /// Waits until psql reads `expected` for `sql`, and the screen says the server's answer
        /// (the messages alternate: an edit's "— u to undo", then u's "Undone:").
        func answered(_ message: String, _ sql: String, _ expected: String) throws {
            try tmux.waitFor(message, timeout: 15)
            try fixture.waitUntil("psql reads \(expected) for \(sql)") { (try? fixture.psql(sql)) == expected }
        }
        // numeric: abc refused by the server naming the type, the editor back; 7.5 saved; u.
        tmux.send("l")
        try edit("abc")
        try tmux.waitFor("invalid input syntax for type numeric", timeout: 15)
        try tmux.waitFor("Enter saves")  // the editor reopened with the text typed
        tmux.send("C-u")
        tmux.type("7.5")
        tmux.send("Enter")
        try answered("— u to undo", "SELECT price FROM items", "7.50")
        tmux.send("u")
        try answered("Undone:", "SELECT price FROM items", "12.50")
        // timestamptz: another instant saved; u.
        tmux.send("l")
        try edit("2024-05-01 12:00:00+02")
        try answered("— u to undo", "SELECT placed = '2024-05-01 10:00:00+00' FROM items", "t")
        tmux.send("u")
        try answered("Undone:", "SELECT placed = '2024-03-01 10:00:00+00' FROM items", "t")
        // boolean: maybe refused naming the type, the editor back; no saved; u.
        tmux.send("l")
        try edit("maybe")
        // Said where the editor's keys were; the editor stays open over the cell with the text typed.
        _ = try tmux.waitUntil("maybe refused", timeout: 15) { screen in
            screen.contains("Not saved: “maybe” is not a boolean")
                && screen.screenLines.contains { $0.contains("12.50") && $0.hasSuffix(" maybe") }
        }
        tmux.send("C-u")
        tmux.type("no")
        tmux.send("Enter")
        try answered("— u to undo", "SELECT paid FROM items", "f")
        tmux.send("u")
        try answered("Undone:", "SELECT paid FROM items", "t")
        #expect(try fixture.psql("SELECT price, placed, paid FROM items") == before, "u gave back psql's exact text")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func aQueryTabOverAServerTableIsListedAfterTheServersTablesAndEnterThereShowsItAgain() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresQueryTests.schema)
        let tmux = try fixture.launch([fixture.uri], width: 110, height: 16)
        defer { tmux.close() }
        _ = try tmux.waitUntil("the server's tables", timeout: 15) { $0.contains("customer") && $0.contains("orders") }
        tmux.press("Enter")
        _ = try tmux.waitUntil("the first table's rows", timeout: 15) { $0.contains("Brook") && $0.contains("Zürich") }
        try expectAQueryTabFromATableIsListedAfterTheTables(
            tmux,
            tab: PostgresQueryTests.whoInOslo,
            table: ["Brook", "Zürich"],
            tableRow: "Brook",
            tables: ["orders"]
        )
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func aServersQueryListsItsTablesAndEveryQueryTabTheLaunchQueryFirstEscFromItShows() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresQueryTests.schema)
        let launch = QueryTab(
            sql: "SELECT name AS who FROM customer WHERE city = 'Oslo'",
            title: "SELECT name AS who",
            row: "Dana",
            listed: "query · 1 row"
        )
        let tmux = try fixture.launch([fixture.uri, "--query", launch.sql], width: 110, height: 16)
        defer { tmux.close() }
        _ = try tmux.waitUntil("the query's rows", timeout: 15) { $0.contains("Dana") && !$0.contains("Brook") }
        // The server's table opened from the list: its rows once copied (1/4: the list's, not the
        // copy's preview, where Esc would stop the copy).
        try expectTheLaunchQueryAndTheLinesTabAreListedAfterTheTables(
            tmux,
            launch: launch,
            line: QueryTab(
                sql: "SELECT note AS remark FROM orders WHERE paid",
                title: ":1 SELECT note AS remark",
                row: "first",
                listed: "query · 2 rows"
            ),
            tables: ["orders"],
            firstTable: ["Brook", "Zürich", "1/4"]
        )
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func aQueryTabOverATableOpenedWithTableIsReachedAgainFromTheServersTableListEscFromTheTableShows() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresQueryTests.schema)
        let tmux = try fixture.launch([fixture.uri, "--table", "customer"], width: 110, height: 16)
        defer { tmux.close() }
        _ = try tmux.waitUntil("the table's rows", timeout: 15) { $0.contains("Brook") && $0.contains("Zürich") }
        // Back from the table: the server's table list, as without --table.
        try expectAQueryTabFromATableIsListedAfterTheTables(
            tmux,
            tab: PostgresQueryTests.whoInOslo,
            table: ["Brook", "Zürich"],
            tableRow: "Brook",
            tables: ["orders"]
        )
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func theQueryLineOverAServerTableBindsTheLaunchsParamValueOfANameItNamesOnTheServer() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresQueryTests.schema)
        let tmux = try fixture.launch(
            [fixture.uri, "--table", "customer", "--param", "upto=2", "--param", "unused=x"],
            width: 110,
            height: 16
        )
        defer { tmux.close() }
        _ = try tmux.waitUntil("the table's rows", timeout: 15) { $0.contains("Brook") && $0.contains("Zürich") }
        tmux.type(":")
        tmux.type("SELECT name AS who FROM customer WHERE id <= :upto ORDER BY id")
        tmux.press("Enter")
        let tab = try tmux.waitUntil("the query's tab", timeout: 20) {
            $0.contains(":1 SELECT name AS who") && $0.contains("Brook")
        }
        #expect(tab.contains("Ada") && !tab.contains("Dana") && !tab.contains("Çelik"), "id <= 2:\n\(tab)")
        tmux.press("Escape")
        _ = try tmux.waitUntil("the server's table again", timeout: 10) { $0.contains("Zürich") && !$0.contains(":1 ") }
        tmux.type(":")
        tmux.type("SELECT name FROM customer WHERE city = :town")
        tmux.press("Enter")
        _ = try tmux.waitUntil("the line, naming the option that gives the value", timeout: 15) {
            $0.contains("no value for the parameter :town (launch with --param town=VALUE)")
        }
        tmux.press("Escape")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func theQueryLineOverAServerTableRunsAJoinWithAnAggregateOnTheServerAsATabThatChangesWhenPsqlInserts() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresQueryTests.schema)
        try PostgresQueryTests.trackOrders(fixture)  // its NOTIFY runs the tab's query again
        let tmux = try fixture.launch([fixture.uri, "--table", "customer"], width: 110, height: 16)
        defer { tmux.close() }
        _ = try tmux.waitUntil("the table's rows", timeout: 15) { $0.contains("Brook") && $0.contains("Zürich") }
        // The server's error, its position, the cursor there; the line stays.
        tmux.type(":")
        tmux.type("SELECT nmae FROM customer")
        tmux.press("Enter")
        _ = try tmux.waitUntil("the server's refusal", timeout: 15) {
            $0.contains("column \"nmae\" does not exist (at character 8)")
        }
        tmux.press("Escape")
        // Tab completes a column from the server's catalog (read in the background: asked again until it is).
        tmux.type(":")
        tmux.type("SELECT c.nam")
        _ = try tmux.waitUntil("the column completed", timeout: 15) { screen in
            if screen.contains("SELECT c.name") { return true }
            tmux.press("Tab")
            usleep(200_000)
            return false
        }
        tmux.type(
            ", coalesce(c.city, 'nowhere') AS city, count(o.id) AS orders, sum(o.total) AS spent "
                + "FROM customer c LEFT JOIN orders o ON o.customer = c.id GROUP BY c.name, c.city"
        )
        tmux.press("Enter")
        let first = try tmux.waitUntil("the query's tab", timeout: 20) {
            $0.contains(":1 SELECT c.name") && $0.contains("Dana") && $0.contains("nowhere")
        }
        let dana = try #require(first.screenLines.first { $0.contains("Dana") })
        #expect(dana.contains(" 0"), "Dana: no orders:\n\(first)")
        // The status line names the tab as the user knows it, not the result's table.
        let status = try tmux.waitUntil("the tab's status line", timeout: 20) {
            $0.screenLines.last?.contains(":1 SELECT c.name") == true
        }
        #expect(!status.contains("query_result"), "\(status)")
        // psql inserts into orders: the tab's row changes, and the status says why.
        try fixture.psql("INSERT INTO orders (id, customer, total) VALUES (20, 4, 1), (21, 4, 2), (22, 4, 3)")
        let after = try tmux.waitUntil("the re-run's rows", timeout: 20) { screen in
            screen.screenLines.contains { $0.contains("Dana") && $0.contains(" 3 ") && $0.contains(" 6") }
        }
        #expect(!after.contains("query_result"), "\(after)")
        tmux.press("Enter")
        let detail = try tmux.waitUntil("the row's detail", timeout: 10) { $0.contains("‹ :1 SELECT c.name") }
        #expect(!detail.contains("query_result"), "\(detail)")
        tmux.press("Escape")
        tmux.press("Escape")
        _ = try tmux.waitUntil("the server's table again", timeout: 10) { $0.contains("Zürich") && !$0.contains(":1 ") }
        // A slow query from the line: Esc cancels it on the server and the line comes back, saying so.
        tmux.type(":")
        tmux.type("SELECT pg_sleep(120) AS slept")
        tmux.press("Enter")
        _ = try tmux.waitUntil("the query's progress", timeout: 20) { $0.contains("Running…") }
        tmux.press("Escape")
        _ = try tmux.waitUntil("the line, cancelled", timeout: 20) {
            $0.contains("cancelled") && $0.contains("SELECT pg_sleep(120)")
        }
        try fixture.waitUntil("the server's statement cancelled") {
            try fixture.psql(
                "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(120)%' AND state = 'active'"
            ) == "0"
        }
        tmux.press("Escape")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
        let history = try String(
            contentsOfFile: fixture.directory.appendingPathComponent(".local/state/fetchedtable/query-history").path,
            encoding: .utf8
        )
        #expect(history.contains("\"SELECT c.name, coalesce(c.city"), "the history shared with SQLite's: \(history)")
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func aSlowServerQueryAtLaunchShowsItsProgressAndEscCancelsItWithStatus130() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        // Far longer than the wait for the exit: only the cancel can end it in time.
        let tmux = try fixture.launch(
            [fixture.uri, "--query", "SELECT pg_sleep(300) AS slept", "--statement-timeout", "600"],
            width: 90,
            height: 16
        )
        defer { tmux.close() }
        try expectEscCancelsTheQueryAtLaunch(tmux, exitStatus: { fixture.exitStatus() }, directory: fixture.directory)
        #expect(
            try fixture.psql(
                "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(300)%' AND state = 'active'"
            ) == "0",
            "the statement was cancelled on the server"
        )
    }
}
