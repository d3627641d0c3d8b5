import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI
import Testing

/// Work on a grid's column: hide, show, move, resize and sort by it; search every column
/// shown with the match highlighted; the sheets of the columns (`C`), of a column's values
/// (`F`, live) and of a summary (`I`).
@Suite struct ListScreenColumnsTests {
    static var grid: ListGrid {
        ListGrid(columns: [
            ListColumn("title"), ListColumn("author"), ListColumn("year", type: .integer),
        ])
    }

    /// A clock that moves on a millisecond each time it is read: `run()` over a `MemoryBackend`
    /// then fires its tickers as it spins (the sheets' background work comes back through them).
    final class SpinningClock: TerminalUI.TimeSource {
        private var time = 100.0
        var now: Double {
            time += 0.001
            return time
        }
    }

    private func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    private func expectGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let (ok, message) = matchesGolden(text, name)
        #expect(ok, "\(message)", sourceLocation: sourceLocation)
    }

    /// Runs the loop (its tickers firing) until `done` holds, at most 20 s; then draws a frame.
    private func run(_ f: ListScreenFixture, until done: @escaping () -> Bool) {
        let started = Date()
        let id = f.loop.addTicker(every: 0.005) { [loop = f.loop] _ in
            if done() || Date().timeIntervalSince(started) > 20 { loop.quit() }
        }
        _ = f.loop.run()
        f.loop.removeTicker(id)
        f.loop.draw()
    }

    @Test func minusHidesTheColumnPlusShowsThemAllAndHLMoveIt() throws {
        let f = try ListScreenFixture(yearGrid: Self.grid)
        f.press(.right)
        let hidden = f.press(.character("-"))
        #expect(!lines(hidden)[2].contains("author"))
        #expect(hidden.contains("author hidden"))
        #expect(f.list.cursorColumn?.name == "year", "the cursor goes to the next column")
        #expect(lines(f.press(.character("+")))[2].contains("author"))
        f.press(.home)
        f.press(.left, .left, .character("L"))
        #expect(f.list.grid?.columns.map(\.name) == ["author", "title", "year"])
        #expect(f.list.cursorColumn?.name == "title", "the cursor stays on the column moved")
        #expect(lines(f.text)[2].hasPrefix(" author"))
        f.press(.character("H"))
        #expect(f.list.grid?.columns.map(\.name) == ["title", "author", "year"])
        f.press(.character("H"))
        #expect(f.list.grid?.columns.map(\.name) == ["title", "author", "year"], "the first stays first")
    }

    @Test func angleBracketsNarrowAndWidenTheColumn() throws {
        let f = try ListScreenFixture(yearGrid: Self.grid)
        let before = f.list.table.gridColumnWidths[0]
        f.press(.character(">"), .character(">"))
        #expect(f.list.table.gridColumnWidths[0] == before + 4)
        f.press(.character("<"))
        #expect(f.list.table.gridColumnWidths[0] == before + 2)
        #expect(f.list.grid?.columns[0].width == before + 2)
    }

    @Test func bracketsSortByTheColumnKeepingTheSections() throws {
        let f = try ListScreenFixture(yearGrid: Self.grid)
        f.press(.character("]"))
        #expect(
            f.list.tab.sortDescriptors == [FetchSort("year", ascending: false), FetchSort("title", ascending: false)]
        )
        #expect(f.text.contains("Sorted by title, descending"))
        // 1965: The Cyberiad before Dune now.
        let shown = lines(f.press(.character("G")))
        let cyberiad = try #require(shown.firstIndex { $0.contains("The Cyberiad") })
        let dune = try #require(shown.firstIndex { $0.contains("Dune") })
        #expect(cyberiad < dune)
        f.press(.character("["))
        #expect(f.list.tab.sortDescriptors.last == FetchSort("title", ascending: true))
    }

    @Test func slashSearchesEveryColumnShownAndHighlightsTheMatch() throws {
        let f = try ListScreenFixture(width: 48, height: 14, yearGrid: Self.grid)
        f.press(.character("/"))
        f.type("gib")
        f.press(.enter)
        // Gibson is an author, not a title: the grid's search found him.
        #expect(f.selectedTitle == "Count Zero")
        let canvas = try #require(f.screen.lastFrame)
        let row = try #require(lines(f.text).firstIndex { $0.contains("Neuromancer") })
        let x = try #require(lines(f.text)[row].range(of: "Gibson")).lowerBound.utf16Offset(in: lines(f.text)[row])
        // In a row not selected: "Gib" reversed, "son" not; in the selected row, bold and underlined.
        #expect(canvas[x, row].attributes.contains(.reverse))
        #expect(canvas[x + 2, row].attributes.contains(.reverse))
        #expect(!canvas[x + 3, row].attributes.contains(.reverse))
        let selected = try #require(lines(f.text).firstIndex { $0.contains("Count Zero") })
        #expect(canvas[x, selected].attributes.contains(.underline))
        #expect(!canvas[x, selected].attributes.contains(.reverse))
        #expect(canvas[x + 3, selected].attributes.contains(.reverse))
        // A number column matches the number whole.
        f.press(.character("/"))
        f.type("1817")
        f.press(.enter)
        #expect(f.selectedTitle == "Persuasion")
    }

    @Test func theFrequencySheetCountsTheColumnLiveAndEnterFiltersTheList() throws {
        let f = try ListScreenFixture(width: 48, height: 14, loopClock: SpinningClock(), yearGrid: Self.grid)
        f.press(.right, .character("F"))
        run(f) { !f.text.contains("counting…") }
        #expect(lines(f.text)[0].contains("author · frequency"))
        expectGolden(f.text, "frequency-author-48x14")

        // Another process adds a book by Lem: Lem's count goes up without a key.
        let other = try Database(path: f.store.path)
        try other.execute("INSERT INTO book(title, author, year) VALUES ('Fiasco', 'Lem', '1986')")
        run(f) { f.text.contains("Lem") && self.lines(f.text).contains { $0.contains("Lem") && $0.contains(" 3 ") } }
        let lem = try #require(lines(f.text).first { $0.contains("Lem") })
        #expect(lem.contains("3") && lem.contains("33.3 %"), "\(f.text)")
        #expect(lines(f.text)[2].contains("Lem"), "most frequent first")
        #expect(
            lines(f.text)[0].contains("9 rows") && lines(f.text)[13].hasSuffix("2/5 values"),
            "the selection stays on Austen"
        )

        // Enter on Lem: the list shows Lem's books only, the sheet gone.
        f.press(.home, .enter)
        #expect(f.loop.topView === f.list)
        #expect(f.list.filterText == "author == 'Lem'")
        #expect(f.list.adapter.controller.numberOfObjects == 3)
        #expect(f.text.contains("3 books where author == 'Lem'"))
    }

    @Test func theColumnsSheetListsEveryColumnAndEditsThemThere() throws {
        var grid = Self.grid
        grid.columns[1].isHidden = true
        let f = try ListScreenFixture(width: 48, height: 14, yearGrid: grid)
        let sheet = f.press(.character("C"))
        expectGolden(sheet, "columns-sheet-48x14")
        // The hidden author: shown again from the sheet, and frozen.
        f.press(.down, .character("-"), .character("!"))
        #expect(f.list.grid?.columns[1].isHidden == false && f.list.grid?.columns[1].isFrozen == true)
        f.press(.character("J"))
        #expect(f.list.grid?.columns.map(\.name) == ["title", "year", "author"])
        f.press(.character("t"), .down, .down, .enter)  // integer → real → text
        #expect(f.list.grid?.columns[2].type == .text)
        f.press(.enter)  // go to author in the grid
        #expect(f.loop.topView === f.list)
        #expect(f.list.cursorColumn?.name == "author")
        #expect(lines(f.text)[2].hasPrefix(" author  │"))
    }

    @Test func theSummarySheetShowsEveryColumnsFiguresOnceRead() throws {
        let f = try ListScreenFixture(width: 100, height: 12, loopClock: SpinningClock(), yearGrid: Self.grid)
        f.press(.character("I"))
        run(f) { !f.text.contains("summarizing") && !f.text.contains("waiting") }
        expectGolden(f.text, "summary-100x12")
        let year = try #require(lines(f.text).first { $0.hasPrefix(" year") })
        // 1815 1817 1961 1965 1965 1979 1984 1986, stored as text: 7 distinct, no mean of numbers.
        #expect(year.contains("1815") && year.contains("1986") && year.contains(" 7 "))
    }
}
