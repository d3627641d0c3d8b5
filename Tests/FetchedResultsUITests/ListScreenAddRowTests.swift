import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI
import TestSupport
import Testing

@testable import FetchedResultsUI

/// `a` over an existing table (fetchedtable's): ``RecordForm``'s form of the table's columns —
/// DEFAULTs as placeholders, generated columns read-only, NOT NULL marked — converting a text as
/// the cell editor does, saving through the list's context (undone by `u`, redone by Ctrl-R)
/// and selecting the new row; refused, with the reason on the status line, on a read-only store.
@Suite struct ListScreenAddRowTests {
    static let schema = """
        CREATE TABLE items (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          qty INTEGER NOT NULL DEFAULT 1,
          price REAL CHECK (price >= 0),
          added TEXT DEFAULT 'today',
          total INTEGER GENERATED ALWAYS AS (qty * 10) VIRTUAL
        );
        INSERT INTO items(name, qty, price) VALUES ('cup', 2, 1.5), ('pen', 5, 0.5);
        """

    final class Fixture {
        let directory = TemporaryDirectory("add-row")
        let terminal = TestTerminal(width: 64, height: 16, minimumWidth: 24, minimumHeight: 8)
        let path: String
        let store: Store
        let list: ListScreen
        let form: RecordForm

        init(readOnly: Bool = false) throws {
            path = directory.path("items.sqlite")
            do {
                var options = Database.Options()
                options.walMode = false
                let db = try Database(path: path, options: options)
                try db.execute(ListScreenAddRowTests.schema)
            }
            let table = try #require(try DatabaseCatalog(path: path).table(named: "items"))
            store = try Store(
                foreignDatabaseAt: path,
                model: Model(version: 1, applicationID: 0, entities: [table.entity(named: "items")]),
                readOnly: readOnly
            )
            let names = table.columns.map(\.name)
            form = RecordForm(entity: "items", labels: Dictionary(uniqueKeysWithValues: names.map { ($0, $0) }))
            var tab = ListTab(title: "items", entity: "items", sortDescriptors: [FetchSort("name")]) { item in
                TableCell(style: .value1, title: item.string("name") ?? "")
            }
            tab.grid = ListGrid(columns: names.map { ListColumn($0) })
            tab.objectName = { "“\($0.string("name") ?? "")”" }
            var configuration = ListScreenConfiguration(title: "items", tabs: [tab])
            configuration.animated = false
            configuration.allowsCellEdits = true
            configuration.readOnlyReason = readOnly ? "opened read-only for the test" : nil
            configuration.keyBindings = [
                ListKeyBinding(.character("a"), keys: "a", description: "add a row") { [form] screen in
                    screen.beginAddingRow(with: form)
                }
            ]
            list = try ListScreen(
                context: ObjectContext(store: store),
                configuration: configuration,
                loop: terminal.loop
            )
            terminal.press()
        }

        /// Goes to the next field and types `text` there.
        func next(_ text: String = "") {
            terminal.press(.tab)
            if !text.isEmpty { terminal.type(text) }
        }

        /// The rows in the file, read by a plain connection (what `sqlite3` shows).
        func rows(_ sql: String = "SELECT * FROM items ORDER BY id") throws -> [[StoreValue]] {
            var options = Database.Options()
            options.walMode = false
            return try Database(path: path, options: options).query(sql)
        }
    }

    @Test func aOpensTheFormOfTheColumnsWithDefaultsGeneratedAndNotNullShown() throws {
        let f = try Fixture()
        f.terminal.press(.character("a"))
        let (matches, message) = matchesGolden(f.terminal.text, "add-row-form-64x16")
        #expect(matches, "\(message)")
    }

    @Test func aSavedRowEqualsTheOneSqlite3AddsNamingTheColumnsFilledAndIsSelected() throws {
        let f = try Fixture()
        f.terminal.press(.character("a"))
        f.next("lamp")  // id left to SQLite, name typed, the rest left empty
        f.terminal.press(.control("s"))
        #expect(!(f.list.loop.topView is Form))
        #expect(f.list.context.undoActionName == "Added “lamp”")
        #expect(f.list.selectedObject?.string("name") == "lamp")
        #expect(
            try f.rows("SELECT id, name, qty, price, added, total FROM items WHERE name = 'lamp'")
                == [[.integer(3), .text("lamp"), .integer(1), .null, .text("today"), .integer(10)]]
        )
        #expect(f.terminal.press(.character("u")).contains("Undone: Added “lamp”"))
        #expect(try f.rows("SELECT name FROM items WHERE name = 'lamp'") == [])
        #expect(f.terminal.press(.control("r")).contains("Redone: Added “lamp”"))
        #expect(
            try f.rows("SELECT id, qty, added FROM items WHERE name = 'lamp'") == [
                [.integer(3), .integer(1), .text("today")]
            ]
        )
    }

    @Test func aTextOfTheWrongTypeOrAConstraintIsNamedAndTheFormStaysOpen() throws {
        let f = try Fixture()
        f.terminal.press(.character("a"))
        let form = try #require(f.list.loop.topView as? Form)
        f.next()
        f.next("many")  // qty
        f.terminal.press(.control("s"))
        #expect(form.errorMessage == "Not saved: “many” is not a whole number (qty)")
        for _ in "many" { f.terminal.press(.backspace) }
        f.terminal.press(.control("s"))
        #expect(form.errorMessage == "Not saved: name may not be empty (NOT NULL)")
        f.terminal.press(.backTab)
        f.terminal.type("lamp")
        f.next()
        f.next("-1")  // price
        f.terminal.press(.control("s"))
        #expect(form.errorMessage == "Not saved: the table's CHECK (price >= 0) refuses it")
        #expect(f.list.loop.topView is Form)
        #expect(try f.rows("SELECT count(*) FROM items") == [[.integer(2)]])
        #expect(!f.list.context.hasChanges)
    }

    @Test func aSaysWhyWhereARowCannotBeAdded() throws {
        let f = try Fixture(readOnly: true)
        #expect(f.terminal.press(.character("a")).contains("Cannot add a row: opened read-only for the test"))
        #expect(!(f.list.loop.topView is Form))
    }
}
