import Foundation
import TestSupport
import Testing

/// `e` in the browser's grid: the cell's value edited in place and saved into the SQLite file
/// (read back with the `sqlite3` shell, and seen by another browser on the same file), a text
/// of the wrong type and the table's constraints refused by name with the editor kept open,
/// `u` and Ctrl-R; and where a cell cannot be edited, the status line says why.
/// Serialized: the machine's two cores are shared.
@Suite(
    .serialized,
    .enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? ""))
)
struct TableEditEndToEndTests {
    static let shop = """
        CREATE TABLE item (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            price REAL CHECK (price >= 0),
            qty INTEGER,
            total REAL GENERATED ALWAYS AS (price * qty) VIRTUAL,
            note TEXT DEFAULT 'none'
        );
        INSERT INTO item(id, name, price, qty) VALUES (1, 'apple', 1.5, 4), (2, 'pear', 2, 3);
        CREATE VIEW cheap AS SELECT name, price FROM item WHERE price < 2;
        """

    @Test func aCellEditedInTheGridIsSavedRefusedByNameUndoneAndRedone() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let database = try fixture.database("shop.db", Self.shop)
        let arguments = [database, "--table", "item", "--columns", "name, price, qty, total", "--sort", "id"]
        let other = try fixture.launch(arguments, width: 100, height: 10)
        defer { other.close() }
        let tmux = try fixture.launch(arguments, width: 100, height: 10)
        defer { tmux.close() }
        try tmux.waitFor("apple", timeout: 10)
        try other.waitFor("apple", timeout: 10)

        // price: a text that is not a number, then one the CHECK refuses: named, the editor stays.
        try tmux.openEditor("l")
        tmux.send("C-u")
        tmux.type("cheap")
        try tmux.waitFor("cheap")
        tmux.send("Enter")
        try tmux.waitFor("is not a number (price)")
        // A leading space: tmux would read "-1" as an option.
        try tmux.enter(" -1", shows: "the table's CHECK (price >= 0) refuses it")
        #expect(try fixture.sql("SELECT price FROM item WHERE id = 1", database: database) == "1.5")
        try tmux.enter("2.25", shows: "Edited price of")
        #expect(try fixture.sql("SELECT price, total FROM item WHERE id = 1", database: database) == "2.25|9.0")
        // The other browser on the file shows the new value (and the generated column's).
        try other.waitUntil("the other browser updated") { $0.contains("2.25") && $0.contains("9.0") }

        try tmux.undo("Edited price of")
        #expect(try fixture.sql("SELECT price FROM item WHERE id = 1", database: database) == "1.5")
        try tmux.redo("Edited price of")
        #expect(try fixture.sql("SELECT price FROM item WHERE id = 1", database: database) == "2.25")

        // name: UNIQUE and NOT NULL named; Esc cancels.
        try tmux.openEditor("h")
        try tmux.enter("pear", shows: "another row already has this name (UNIQUE)")
        tmux.send("C-n")
        try tmux.waitFor("name may not be empty (NOT NULL)")
        tmux.press("Escape")
        try tmux.waitFor("Not changed")
        #expect(try fixture.sql("SELECT name FROM item WHERE id = 1", database: database) == "apple")

        // total: generated, computed by SQLite.
        tmux.send("l", "l", "l", "e")
        try tmux.waitFor("Cannot edit: total is a generated column")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func aRowAddedInTheFormIsTheRowSqlite3AddsUndoneAndRedone() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let database = try fixture.database("shop.db", Self.shop)
        let tmux = try fixture.launch(
            [database, "--table", "item", "--columns", "name, price, qty, total", "--sort", "id"],
            width: 100,
            height: 16
        )
        defer { tmux.close() }
        try tmux.waitFor("apple", timeout: 10)

        // The form: every column, the DEFAULT shown, the generated column not editable, NOT NULL marked.
        tmux.send("a")
        // The whole form, not its title alone: the screen may be captured while curses draws it.
        _ = try tmux.waitUntil("the form with its DEFAULT, NOT NULL mark and generated column", timeout: 10) {
            $0.contains("New row in item") && $0.contains("default: 'none'") && $0.contains("name *")
                && $0.contains("generated")
        }
        tmux.fillAndSave("plum", "cheap")
        try tmux.waitFor("is not a number (price)")
        tmux.send("C-u")
        tmux.type("3")
        tmux.fillAndSave("2")
        try tmux.waitUntil("the new row in the grid") { $0.contains("plum") && !$0.contains("New row in item") }
        #expect(
            try fixture.sql(
                "SELECT id, name, price, qty, total, note FROM item WHERE name = 'plum'",
                database: database
            )
                == "3|plum|3.0|2|6.0|none"
        )

        try tmux.undo("Added “plum”")
        #expect(try fixture.sql("SELECT count(*) FROM item WHERE name = 'plum'", database: database) == "0")
        try tmux.redo("Added “plum”")
        #expect(try fixture.sql("SELECT id, note FROM item WHERE name = 'plum'", database: database) == "3|none")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func eOnAViewOrACSVFileSaysWhyItCannotEdit() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let database = try fixture.database("shop.db", Self.shop)
        let view = try fixture.launch([database, "--table", "cheap"], width: 100, height: 10)
        try view.waitFor("apple", timeout: 10)
        view.send("e")
        try view.waitFor("Cannot edit: a view has no row id")
        view.send("a")
        try view.waitFor("Cannot add a row: a view has no row id")
        view.send("q")
        #expect(fixture.exitStatus() == 0)
        view.close()

        let csv = try fixture.write("fruit.csv", "name,price\napple,1.5\npear,2\n")
        let tmux = try fixture.launch([csv], width: 100, height: 40)
        defer { tmux.close() }
        try tmux.waitFor("read-only · 2 rows", timeout: 10)  // the browser, not the loading preview
        tmux.send("e")
        try tmux.waitFor("Cannot edit: the rows come from a CSV file's cache")
        tmux.send("a")
        try tmux.waitFor("Cannot add a row: the rows come from a CSV file's cache")
        tmux.send("?")
        let help = try tmux.waitFor("edit the cell")
        #expect(help.contains("Ctrl-R") && help.contains("add a row"), "\(help)")
        tmux.send("q")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }
}
