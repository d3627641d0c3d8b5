import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FetchedTableKit

/// `QueryWrites`: the writes of `d` and `e` on a query's result go to the table its rows are
/// rows of, found by the key, and only while that row still holds what was shown; a result that
/// is no one table's rows is read-only, saying why.
@Suite struct QueryWritesTests {
    static let shop = """
        CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE orders (id INTEGER PRIMARY KEY, name TEXT NOT NULL, qty INTEGER, customer INTEGER);
        INSERT INTO customers VALUES (1, 'Ito');
        INSERT INTO orders VALUES (1, 'pen', 3, 1), (2, 'ink', 0, 1), (3, 'pad', 5, 1);
        """

    /// `sql`'s result over a new shop file, opened as the browser opens it, with its writer.
    static func result(
        _ sql: String,
        in folder: TemporaryDirectory,
        writeRefusal: String? = nil
    ) throws -> (database: TableDatabase, source: QuerySource, writer: Database) {
        let path = folder.path("shop.db")
        let writer = try Database(path: path)
        try writer.execute(shop)
        let source = try QuerySource.prepare(sql: sql, file: path)
        try source.load(options: TableOptions(file: path))
        let database = try TableDatabase.queryResult(source, path: path, writeRefusal: writeRefusal)
        return (database, source, writer)
    }

    @Test func anEditOrDeleteIsRefusedWhenTheTablesRowNoLongerHoldsWhatWasShown() throws {
        let folder = TemporaryDirectory("query-writes")
        defer { folder.remove() }
        let (database, source, writer) = try Self.result(
            "SELECT id, name, qty, qty * 2 AS double FROM orders WHERE qty > 0",
            in: folder
        )
        #expect(database.readOnlyReason == nil)
        let writes = try #require(source.writes)
        #expect(writes.editRefusal(column: "double") == "double is computed (qty * 2), not a column of orders")
        #expect(writes.editRefusal(column: "id") == "id is orders' key, which finds the row: it is not edited here")
        #expect(writes.editRefusal(column: "qty") == nil)
        let table = try #require(database.tables.first)
        let opened = try database.open(table, options: TableOptions(file: database.path))
        let rows = try ObjectContext(store: opened.store).fetch(table.name, orderBy: "id")
        #expect(rows.map { $0["name"] } == [.text("pen"), .text("pad")])
        let qty = { (id: Int) in try writer.scalar("SELECT qty FROM orders WHERE id = \(id)") }

        // Another program changes pen's qty after it was shown: nothing is written.
        try writer.execute("UPDATE orders SET qty = 9 WHERE id = 1")
        #expect(throws: QueryWriteRefusal.self) {
            try writes.edit(rows[0], column: "qty", value: .integer(4), shown: rows[0]["qty"], actionName: "Edited qty")
        }
        #expect(throws: QueryWriteRefusal.self) { try writes.delete(rows[0], actionName: "Deleted pen") }
        #expect(try qty(1) == .integer(9))

        // Shown as it is now: written, and undone by the context's undo.
        try writes.edit(rows[0], column: "qty", value: .integer(4), shown: .integer(9), actionName: "Edited qty")
        #expect(try qty(1) == .integer(4))
        #expect(try writes.context.undo()?.name == "Edited qty")
        #expect(try qty(1) == .integer(9))

        // Gone from the table since it was shown: said so.
        try writer.execute("DELETE FROM orders WHERE id = 3")
        do {
            try writes.delete(rows[1], actionName: "Deleted pad")
            Issue.record("deleted a row that is gone")
        } catch let conflict as QueryWriteRefusal {
            #expect(conflict.description == "another program deleted it from orders since it was shown")
        }
        // As shown again: deleted.
        try writer.execute("UPDATE orders SET qty = 3 WHERE id = 1")
        try writes.delete(rows[0], actionName: "Deleted pen")
        #expect(try writer.scalar("SELECT count(*) FROM orders") == .integer(1))
    }

    @Test func undoOfARowAddedThroughTheResultKeepsItWhenAnotherProgramChangedIt() throws {
        let folder = TemporaryDirectory("query-writes")
        defer { folder.remove() }
        let (_, source, writer) = try Self.result("SELECT id, name, qty FROM orders WHERE qty > 0", in: folder)
        let writes = try #require(source.writes)
        try writes.insert([("name", .text("cap")), ("qty", .integer(4))], actionName: "Added “cap”")
        #expect(try writer.scalar("SELECT qty FROM orders WHERE id = 4") == .integer(4))
        // The context's undo compares the row with what the save wrote (SQLiteStore's revert).
        try writer.execute("UPDATE orders SET qty = 8 WHERE id = 4")
        #expect {
            try writes.context.undo()
        } throws: { error in
            "\(error)" == "the row 4 of orders was changed by another program since it was added; not undone"
        }
        #expect(try writer.scalar("SELECT qty FROM orders WHERE id = 4") == .integer(8))
        #expect(writes.context.undoActionName == "Added “cap”", "it stays, as an edit's undo does")
        try writer.execute("UPDATE orders SET qty = 4 WHERE id = 4")
        #expect(try writes.context.undo()?.name == "Added “cap”")
        #expect(try writer.scalar("SELECT count(*) FROM orders WHERE id = 4") == .integer(0))
    }

    @Test(arguments: [
        (
            "SELECT o.id, o.qty, c.name FROM orders o JOIN customers c ON c.id = o.customer",
            nil,
            "its rows come from a join of orders and customers"
        ),
        (
            "SELECT name, sum(qty) AS total FROM orders GROUP BY name", nil,
            "it groups rows (GROUP BY)"
        ),
        ("SELECT id, qty FROM orders", "opened with --read-only", "opened with --read-only"),
    ])
    func aResultThatCannotBeWrittenIsReadOnlySayingWhy(_ sql: String, _ refusal: String?, _ reason: String) throws {
        let folder = TemporaryDirectory("query-writes")
        defer { folder.remove() }
        let (database, source, _) = try Self.result(sql, in: folder, writeRefusal: refusal)
        #expect(database.readOnlyReason == reason)
        #expect(source.writes == nil)
    }
}
