import Foundation
import TestSupport
import Testing

/// `d`, `e` and `a` on a query's result whose rows are one table's rows by its key: they change
/// that table (read back with the `sqlite3` shell), the result shows it once the query ran again,
/// `u` and Ctrl-R undo and redo; a result that is not one table's rows says why.
/// Serialized: the machine's two cores are shared.
@Suite(
    .serialized,
    .enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? ""))
)
struct TableQueryWriteEndToEndTests {
    static let shop = """
        CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE orders (
            id INTEGER PRIMARY KEY, name TEXT NOT NULL, qty INTEGER CHECK (qty >= 0), customer INTEGER
        );
        INSERT INTO customers VALUES (1, 'Ito');
        INSERT INTO orders VALUES (1, 'pen', 3, 1), (2, 'ink', 0, 1), (3, 'pad', 5, 1);
        """

    @Test func editDeleteAndAddOnAOneTableQueryChangeTheTableAndUndo() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let database = try fixture.database("shop.db", Self.shop)
        let tmux = try fixture.launch(
            [database, "--query", "SELECT id, name, qty FROM orders WHERE qty > 0"],
            width: 100,
            height: 14
        )
        defer { tmux.close() }
        try tmux.waitUntil("the query's rows", timeout: 10) { $0.contains("pen") && $0.contains("pad") }

        // e on qty: a refusal of the table's CHECK named, then a value saved in orders and shown.
        try tmux.openEditor("l", "l")
        // A leading space: tmux would read "-1" as an option.
        try tmux.enter(" -1", shows: "the table's CHECK (qty >= 0) refuses it")
        try tmux.enter("7", shows: "Edited qty of")
        #expect(try fixture.sql("SELECT qty FROM orders WHERE id = 1", database: database) == "7")
        let edited = try tmux.waitUntil("the re-run's qty", timeout: 20) { screen in
            screen.screenLines.contains { $0.contains("pen") && $0.contains(" 7") }
        }
        #expect(!edited.screenLines.contains { $0.contains("pen") && $0.contains(" 3") }, "\(edited)")
        // The key column and a computed one are not edited.
        tmux.send("h", "h", "e")
        try tmux.waitFor("id is orders' key")

        // d deletes pad from orders; u puts it back.
        try tmux.deleteRow("j")
        #expect(try fixture.sql("SELECT count(*) FROM orders WHERE id = 3", database: database) == "0")
        try tmux.waitUntil("pad gone from the result", timeout: 20) { !$0.contains("pad") }
        try tmux.undo("Deleted")
        #expect(try fixture.sql("SELECT name, qty FROM orders WHERE id = 3", database: database) == "pad|5")
        try tmux.waitUntil("pad back in the result", timeout: 20) { $0.contains("pad") }

        // a: the form of orders' columns; the new row is in the table and, once re-run, in the result.
        tmux.send("a")
        let form = try tmux.waitFor("New row in orders")
        #expect(form.contains("name *") && form.contains("customer"), "\(form)")
        tmux.fillAndSave("cap", "4")
        try tmux.waitFor("to orders — u to undo")
        #expect(try fixture.sql("SELECT id, qty FROM orders WHERE name = 'cap'", database: database) == "4|4")
        try tmux.waitUntil("cap in the result", timeout: 20) { $0.contains("cap") && !$0.contains("New row in") }
        try tmux.undo("Added")
        #expect(try fixture.sql("SELECT count(*) FROM orders WHERE name = 'cap'", database: database) == "0")
        try tmux.redo("Added")
        #expect(try fixture.sql("SELECT count(*) FROM orders WHERE name = 'cap'", database: database) == "1")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    /// Ctrl-R pressed while the query still runs after `u` (a slow one: a second or so): "Redone: …"
    /// stays until it expires, never replaced by the "refreshed …" message of a run that followed
    /// the browser's own writes (before the fix the undo's run took the flag that was to keep the
    /// redo's message, and the redo's run said "refreshed" over it).
    @Test func aRedoWhileTheUndosRunIsOnKeepsItsMessage() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let database = try fixture.database("shop.db", Self.shop)
        let slow = "SELECT id, name, qty FROM orders WHERE qty > 0 AND length(hex(randomblob(20000000))) > 0"
        let tmux = try fixture.launch([database, "--query", slow], width: 100, height: 14)
        defer { tmux.close() }
        try tmux.waitUntil("the query's rows", timeout: 20) { $0.contains("pen") && $0.contains("pad") }
        try tmux.deleteRow()
        try tmux.waitUntil("pen gone from the result", timeout: 20) { !$0.contains("pen") }
        try tmux.undo("Deleted")
        try tmux.redo("Deleted")
        #expect(try fixture.sql("SELECT count(*) FROM orders WHERE name = 'pen'", database: database) == "0")
        // Both runs done: nothing drawn for 4 s (a run's "refreshed" message would stay 8).
        let settled = try tmux.waitUntilSettled(quiet: 4)
        let status = settled.screenLines.last ?? ""
        #expect(!status.hasPrefix("refreshed"), "\(settled)")
        #expect(!settled.contains("pen"), "\(settled)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func aJoinsResultSaysWhyItsRowsCannotBeChanged() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let database = try fixture.database("shop.db", Self.shop)
        let tmux = try fixture.launch(
            [
                database, "--query",
                "SELECT o.id, o.qty, c.name AS customer FROM orders o JOIN customers c ON c.id = o.customer",
            ],
            width: 80,
            height: 12
        )
        defer { tmux.close() }
        try tmux.waitFor("Ito", timeout: 10)
        // The whole reason on an 80-column status line, after what the key cannot do.
        tmux.send("d")
        try tmux.waitFor("Delete is disabled: its rows come from a join of orders and customers")
        tmux.send("a")
        try tmux.waitFor("Cannot add a row: its rows come from a join of orders and customers")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
        #expect(try fixture.sql("SELECT count(*) FROM orders", database: database) == "3")
    }
}
