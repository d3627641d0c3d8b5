import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI
import Testing

/// `e` in a grid (``ListScreenConfiguration/allowsCellEdits``): the line editor over the cell
/// under the column cursor, holding its value; Enter saves through the context (named for
/// undo), `u` undoes, Ctrl-R redoes; a refusal keeps the editor open and says why.
@Suite struct ListScreenCellEditTests {
    private func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The titles in the file, read by a context of their own (what another process sees).
    private func titlesInFile(_ f: ListScreenFixture) throws -> Set<String> {
        let reader = ObjectContext(store: try Store(path: f.store.path, model: ListScreenFixture.model, readOnly: true))
        return Set(try reader.fetch("Book").compactMap { $0.string("title") })
    }

    @Test func eOpensTheEditorOverTheCellHoldingItsValueAndEnterSavesItThroughTheStore() throws {
        let f = try ListScreenFixture(yearGrid: ListScreenGridTests.grid, cellEdits: true)
        let open = f.press(.character("e"))
        #expect(f.list.isEditingCell)
        #expect(lines(open)[4].hasPrefix(" Count Zero    Gibson"))  // the editor over the cell, as wide
        #expect(lines(open)[13].contains("Enter saves · Esc cancels"))
        let (ok, message) = matchesGolden(open, "cell-edit-open-48x14")
        #expect(ok, "\(message)")
        f.press(.control("u"))
        // The editor widens over the author as the text grows.
        #expect(lines(f.type("Mona Lisa Overdrive"))[4].hasPrefix(" Mona Lisa Overdrive    1986"))
        let saved = f.press(.enter)
        #expect(!f.list.isEditingCell)
        #expect(saved.contains("Edited title of “Count Zero” — u to undo"))
        #expect(lines(saved)[4].hasPrefix(" Mona Lisa Overdrive"))
        #expect(try titlesInFile(f).contains("Mona Lisa Overdrive"))
        #expect(f.context.undoActionName == "Edited title of “Count Zero”")
    }

    @Test func uUndoesTheEditAndCtrlRRedoesIt() throws {
        let f = try ListScreenFixture(yearGrid: ListScreenGridTests.grid, cellEdits: true)
        f.press(.right, .character("e"), .control("u"))
        f.type("W. Gibson")
        f.press(.enter)
        #expect(lines(f.text)[4].hasPrefix(" Count Zero    W. Gibson"))
        let undone = f.press(.character("u"))
        #expect(undone.contains("Undone: Edited author of “Count Zero”"))
        #expect(lines(undone)[4].hasPrefix(" Count Zero    Gibson "))
        let redone = f.press(.control("r"))
        #expect(redone.contains("Redone: Edited author of “Count Zero”"))
        #expect(lines(redone)[4].hasPrefix(" Count Zero    W. Gibson"))
        #expect(f.press(.control("r")).contains("Nothing to redo"))
    }

    @Test func escCancelsAndSavesNothing() throws {
        let f = try ListScreenFixture(yearGrid: ListScreenGridTests.grid, cellEdits: true)
        f.press(.character("e"), .control("u"))
        f.type("Nothing")
        let cancelled = f.press(.escape)
        #expect(!f.list.isEditingCell)
        #expect(cancelled.contains("Not changed"))
        #expect(lines(cancelled)[4].hasPrefix(" Count Zero"))
        #expect(!f.context.canUndo)
        #expect(try titlesInFile(f).contains("Count Zero"))
    }

    @Test func aRefusedSaveNamesWhyAndKeepsTheEditorOpenWithTheText() throws {
        let f = try ListScreenFixture(yearGrid: ListScreenGridTests.grid, cellEdits: true)
        f.press(.character("e"))
        let refused = f.press(.control("n"))  // NULL: the fixture's title is required
        #expect(refused.contains("Not saved: title may not be empty (NOT NU"))  // cut at 48 cells
        #expect(f.list.isEditingCell)
        #expect(lines(refused)[4].hasPrefix(" Count Zero"))
        #expect(!f.context.hasChanges)  // rolled back: nothing half-saved waits in the context
        f.type(" II")
        f.press(.enter)
        #expect(try titlesInFile(f).contains("Count Zero II"))
    }

    @Test func aCellSentToAServerIsMarkedUntilItAnswersAndARefusalReopensTheEditorWithTheText() throws {
        let f = try ListScreenFixture(yearGrid: ListScreenGridTests.grid, cellEdits: true, savesCellsLater: true)
        let id = try #require(f.list.selectedObject).objectID
        f.press(.character("e"), .control("u"))
        f.type("Zero History")
        let sent = f.press(.enter)
        #expect(f.extraKeyTitles == ["title='Zero History'"])
        #expect(!f.list.isEditingCell)
        // The text typed, dim, marked ↻ before it, until the app says the server answered.
        #expect(lines(sent)[4].hasPrefix("↻Zero History  Gibson"), "\(sent)")
        #expect(try #require(f.screen.lastFrame)[1, 4].attributes.contains(.dim))
        #expect(!(try #require(f.screen.lastFrame)[15, 4].attributes.contains(.dim)), "the author is not sent")
        let (ok, message) = matchesGolden(sent, "cell-edit-pending-48x14")
        #expect(ok, "\(message)")
        // Refused: the mark goes, the cell shows what the store holds, the editor is back with the text.
        f.list.cellSaveAnswered(row: id, key: "title", refusal: "CHECK — title_short")
        let refused = f.press(.character("X"))
        #expect(f.list.isEditingCell)
        #expect(lines(refused)[4].hasPrefix(" Zero HistoryX"), "\(refused)")
        #expect(refused.contains("Not saved: CHECK — title_short"))
        // Sent again and saved: the mark goes, the cell shows the store's value (this app saved nothing).
        f.press(.enter)
        #expect(lines(f.text)[4].hasPrefix("↻Zero HistoryX"))
        f.list.cellSaveAnswered(row: id, key: "title")
        let answered = f.press(.character("x"))
        #expect(lines(answered)[4].hasPrefix(" Count Zero "), "\(answered)")
        #expect(!answered.contains("↻"))
        f.list.cellSaveAnswered(row: id, key: "title", refusal: "NOT NULL")
        #expect(!f.list.isEditingCell, "answered already: nothing to reopen")
    }

    @Test func escDiscardsTheTextOfAnEditorReopenedAfterARefusal() throws {
        let f = try ListScreenFixture(yearGrid: ListScreenGridTests.grid, cellEdits: true, savesCellsLater: true)
        let id = try #require(f.list.selectedObject).objectID
        f.press(.character("e"), .control("u"))
        f.type("Zero History")
        f.press(.enter, .down)  // moved on meanwhile: the editor opens on the refused cell all the same
        #expect(f.selectedTitle != "Count Zero")
        f.list.cellSaveAnswered(row: id, key: "title", refusal: "NOT NULL")
        #expect(lines(f.press(.end))[4].hasPrefix(" Zero History"))
        #expect(f.selectedTitle == "Count Zero")
        #expect(f.list.isEditingCell)
        let discarded = f.press(.escape)
        #expect(!f.list.isEditingCell)
        #expect(discarded.contains("Not changed"))
        #expect(lines(discarded)[4].hasPrefix(" Count Zero"))
    }

    @Test func enterWithTheValueUnchangedSavesNothing() throws {
        let f = try ListScreenFixture(yearGrid: ListScreenGridTests.grid, cellEdits: true)
        f.press(.character("e"))
        #expect(f.press(.enter).contains("Not changed"))
        #expect(!f.context.canUndo)
    }

    @Test func eSaysWhyWhereACellCannotBeEdited() throws {
        let readOnly = try ListScreenFixture(readOnly: true, yearGrid: ListScreenGridTests.grid, cellEdits: true)
        #expect(readOnly.press(.character("e")).contains("Cannot edit: opened read-only for the test"))
        #expect(!readOnly.list.isEditingCell)

        let list = try ListScreenFixture(yearGrid: ListScreenGridTests.grid, cellEdits: true)
        list.press(.tab)  // Author: a list, not a grid
        #expect(list.press(.character("e")).contains("Cannot edit: cells are edited in a grid"))

        var grid = ListScreenGridTests.grid
        grid.columns[1] = ListColumn("author", keyPath: "shouted")
        grid.columns[1].text = { book in book.string("author")?.uppercased() }
        let computed = try ListScreenFixture(yearGrid: grid, cellEdits: true)
        computed.press(.right)
        #expect(computed.press(.character("e")).contains("Cannot edit: author is computed"))
    }

    @Test func theAppsRefusalIsShownAndEIsNoKeyWithoutCellEdits() throws {
        let f = try ListScreenFixture(yearGrid: ListScreenGridTests.grid, cellEdits: true) { column in
            column.name == "year" ? "year is a generated column" : nil
        }
        f.press(.right, .right)
        #expect(f.press(.character("e")).contains("Cannot edit: year is a generated column"))
        #expect(!f.list.isEditingCell)

        let without = try ListScreenFixture(yearGrid: ListScreenGridTests.grid)
        without.press(.character("e"))
        #expect(!without.list.isEditingCell)
        #expect(!ListScreenKeys.bindings(for: without.list.configuration).contains { $0.keys == "e" })
    }

    @Test func theHelpListsTheEditKeys() throws {
        let f = try ListScreenFixture(yearGrid: ListScreenGridTests.grid, cellEdits: true)
        let help = ListScreenKeys.bindings(for: f.list.configuration)
        #expect(help.contains { $0.keys == "e" && $0.description.contains("edit the cell") })
        #expect(help.contains { $0.keys == "Ctrl-R" && $0.description.contains("redo") })
    }
}

/// The text a cell editor saves: converted by the column's affinity, refusals named.
@Suite struct CellTextTests {
    static func attribute(_ declared: String) -> Attribute {
        Attribute("c", CatalogColumn.guessType(declared), column: "c", declaredType: declared)
    }

    @Test func aTextIsConvertedToTheColumnsType() throws {
        #expect(try CellText.value(of: "42", for: Self.attribute("INTEGER")) == .integer(42))
        #expect(try CellText.value(of: "1e3", for: Self.attribute("INTEGER")) == .integer(1000))
        #expect(try CellText.value(of: "42", for: Self.attribute("REAL")) == .real(42))
        #expect(try CellText.value(of: "4.5", for: Self.attribute("NUMERIC")) == .real(4.5))
        #expect(try CellText.value(of: "007", for: Self.attribute("TEXT")) == .text("007"))
        #expect(try CellText.value(of: "7", for: Self.attribute("")) == .integer(7))
        #expect(try CellText.value(of: "seven", for: Self.attribute("")) == .text("seven"))
        #expect(try CellText.value(of: "yes", for: Self.attribute("BOOLEAN")) == .integer(1))
        #expect(try CellText.value(of: "2026-12-06", for: Self.attribute("DATE")) == .text("2026-12-06"))
    }

    @Test func anEmptyTextIsNullButInATextColumn() throws {
        #expect(try CellText.value(of: "", for: Self.attribute("INTEGER")) == .null)
        #expect(try CellText.value(of: "", for: Self.attribute("DATE")) == .null)
        #expect(try CellText.value(of: "", for: Self.attribute("TEXT")) == .text(""))
    }

    @Test func aTextOfAnotherTypeIsRefusedNamingWhy() {
        #expect(throws: CellText.Refusal.notAWholeNumber) { try CellText.value(of: "4.5", for: Self.attribute("INT")) }
        #expect(throws: CellText.Refusal.notANumber) { try CellText.value(of: "ten", for: Self.attribute("REAL")) }
        #expect(throws: CellText.Refusal.notYesOrNo) { try CellText.value(of: "maybe", for: Self.attribute("BOOL")) }
        #expect(throws: CellText.Refusal.notADate) { try CellText.value(of: "tomorrow", for: Self.attribute("DATE")) }
    }

    @Test func theStoresRefusalsAreNamedByTheirConstraint() {
        func reason(_ message: String) -> String {
            CellText.reason(for: SQLiteError(code: 19, message: message), column: "code")
        }
        #expect(reason("NOT NULL constraint failed: t.code") == "code may not be empty (NOT NULL)")
        #expect(reason("UNIQUE constraint failed: t.code") == "another row already has this code (UNIQUE)")
        #expect(reason("CHECK constraint failed: price > 0") == "the table's CHECK (price > 0) refuses it")
        #expect(reason("FOREIGN KEY constraint failed").hasSuffix("(FOREIGN KEY)"))
        let required = StoreError.validation(entity: "t", key: "code", reason: "is required")
        #expect(CellText.reason(for: required, column: "code") == "code may not be empty (NOT NULL)")
    }
}
