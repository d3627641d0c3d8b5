import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI
import Testing

/// A ``ListTab`` shown as a grid (``ListTab/grid``): its columns under a header row,
/// the column cursor on ←/→ `h`/`l`, `!` freezing, Enter and Esc as in a list, the
/// sections, the index and live changes unchanged.
@Suite struct ListScreenGridTests {
    static var grid: ListGrid {
        ListGrid(columns: [
            ListColumn("title"), ListColumn("author"), ListColumn("year", type: .integer),
        ])
    }

    private func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    private func expectGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let (ok, message) = matchesGolden(text, name)
        #expect(ok, "\(message)", sourceLocation: sourceLocation)
    }

    @Test func aGridTabShowsItsColumnsUnderAHeaderRowWithSectionsAndTheIndex() throws {
        let f = try ListScreenFixture(yearGrid: Self.grid)
        let shown = lines(f.text)
        #expect(shown[2].hasPrefix(" title"))
        #expect(shown[2].contains("author"))
        #expect(shown[3].hasPrefix(" 1986 (1) ─"))
        #expect(shown[4].hasPrefix(" Count Zero    Gibson"))
        expectGolden(f.text, "grid-year-48x14")
    }

    @Test func wideCharactersLineUpInANarrowGrid() throws {
        let f = try ListScreenFixture(
            width: 34,
            height: 10,
            yearGrid: Self.grid,
            extraBooks: [("三体", "劉慈欣", "2008"), ("🦀 Crab Cookbook", "Ferris", "2015")]
        )
        let shown = lines(f.text)
        #expect(shown[4].hasPrefix(" 🦀 Crab Cookbook  Ferris"))
        #expect(shown[6].hasPrefix(" 三体" + String(repeating: " ", count: 14) + "劉慈欣"))  // 三体 is 4 cells
        expectGolden(f.text, "grid-wide-34x10")
    }

    @Test func arrowsAndHLMoveTheColumnCursorWhileEnterOpensAndEscReturns() throws {
        let f = try ListScreenFixture(width: 30, height: 12, yearGrid: Self.grid)
        #expect(f.list.cursorColumn?.name == "title")
        f.press(.right)
        #expect(f.list.cursorColumn?.name == "author")
        f.press(.character("l"))
        #expect(f.list.cursorColumn?.name == "year")
        #expect(f.loop.topView === f.list)  // → moved the cursor; it opened nothing
        #expect(lines(f.text)[2].hasSuffix("year"))
        f.press(.character("h"), .left)
        #expect(f.list.cursorColumn?.name == "title")
        #expect(f.loop.topView === f.list)  // ← did not go back either
        let detail = f.press(.enter)
        #expect(detail.contains("Book: Count Zero"))
        f.press(.escape)
        #expect(f.loop.topView === f.list)
    }

    @Test func aListTabKeepsArrowRightForTheDetailAndTheGridTabKeepsItsCursor() throws {
        let f = try ListScreenFixture(yearGrid: Self.grid)
        f.press(.right)
        f.press(.tab)  // Author: a list
        #expect(f.list.cursorColumn == nil)
        #expect(f.press(.right).contains("Book: Count Zero"))  // → opens the selected book
        f.press(.left)
        f.press(.backTab)
        #expect(f.list.cursorColumn?.name == "author")
        #expect(f.list.table.rowHeight == 1)
    }

    @Test func bangFreezesTheCursorsColumnOnTheLeftAndSaysSo() throws {
        let f = try ListScreenFixture(yearGrid: Self.grid)
        f.press(.right)
        let frame = f.press(.character("!"))
        #expect(frame.contains("author stays on the left"))
        #expect(lines(frame)[2].hasPrefix(" author  │ title"))
        #expect(f.list.grid?.columns[1].isFrozen == true)
        #expect(f.list.cursorColumn?.name == "author")
        f.press(.character("!"))
        #expect(f.list.grid?.columns[1].isFrozen == false)
        #expect(lines(f.text)[2].hasPrefix(" title"))
    }

    @Test func showsGridSwitchesBetweenTheGridAndTheTabsCells() throws {
        let f = try ListScreenFixture(yearGrid: Self.grid)
        f.press(.right)
        f.list.showsGrid = false
        let list = f.press()
        #expect(!lines(list)[2].contains("author"))
        #expect(list.contains("Gibson · 1986"))  // the tab's two-line cell
        #expect(f.list.table.rowHeight == 2)
        f.list.showsGrid = true
        #expect(lines(f.press())[2].hasPrefix(" title"))
        #expect(f.list.cursorColumn?.name == "author")  // the cursor where it was
    }

    @Test func hiddenColumnsAreLeftOutOfTheGrid() throws {
        var grid = Self.grid
        grid.columns[1].isHidden = true
        let f = try ListScreenFixture(yearGrid: grid)
        #expect(!lines(f.text)[2].contains("author"))
        #expect(lines(f.text)[4].hasPrefix(" Count Zero    1986"))
        f.list.grid?.columns[1].isHidden = false
        #expect(lines(f.press())[2].contains("author"))
    }

    @Test func theHelpListsTheGridsKeys() throws {
        let f = try ListScreenFixture(yearGrid: Self.grid)
        let help = ListScreenKeys.bindings(for: f.list.configuration)
        #expect(help.contains { $0.keys == "←/→ h/l  ! - +" && $0.description.contains("column cursor") })
        #expect(help.contains { $0.keys.contains("!") && $0.description.contains("freeze") })
        #expect(help.contains { $0.keys == "[ ] H L < > C F I t" && $0.description.contains("frequency") })
        #expect(help.contains { $0.keys == "Enter  Esc" })
        #expect(!help.contains { $0.keys == "Enter/→" })
        let plain = try ListScreenFixture()
        #expect(ListScreenKeys.bindings(for: plain.list.configuration).contains { $0.keys == "Enter/→" })
    }

    @Test func anotherProcessesInsertAnimatesIntoTheGrid() throws {
        let f = try ListScreenFixture(width: 40, height: 12, yearGrid: Self.grid)
        f.list.adapter.animatesChanges = true
        f.list.table.animatesUpdates = true
        f.list.table.animationDuration = 0.25
        let other = try Database(path: f.store.path)
        try other.execute("INSERT INTO book(title, author, year) VALUES ('Binti', 'Okorafor', '1985')")
        f.list.pollExternalChanges()
        var frames: [String] = []
        for step in 0...2 {
            f.loop.draw()
            frames.append("── t+\(Double(step) * 0.125) ──\n" + f.text)
            f.clock.advance(by: 0.125)
        }
        #expect(frames[2].contains(" 1985 (1) ─"))
        #expect(frames[2].contains(" Binti        Okorafor  1985"))
        expectGolden(frames.joined(separator: "\n") + "\n", "grid-insert-40x12")
    }
}
