import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI
import Testing

/// Ctrl-S in a list: the file name asked on the status line, the formats named when the
/// extension is none of them, a file replaced only when the person says so, the rows shown
/// (filter, sort, shown columns, sections) saved by a thread of its own.
@Suite struct ListScreenSaveTests {
    private func expectGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let (ok, message) = matchesGolden(text, name)
        #expect(ok, "\(message)", sourceLocation: sourceLocation)
    }

    /// Runs the loop until the save ends (its message shows), 20 s at most.
    private func waitForTheSave(_ f: ListScreenFixture) {
        let started = Date()
        f.loop.addTicker(every: 0.01) { [list = f.list, loop = f.loop] _ in
            if !list.isSavingView || Date().timeIntervalSince(started) > 20 { loop.quit() }
        }
        _ = f.loop.run()
        f.loop.draw()
    }

    /// A fixture whose loop's clock moves as it is read, so that `run()` fires its tickers.
    private func fixture() throws -> ListScreenFixture {
        try ListScreenFixture(
            loopClock: ListScreenBackgroundFetchTests.SpinningClock(),
            yearGrid: ListScreenGridTests.grid
        )
    }

    @Test func ctrlSAsksForAFileNameOnTheStatusLine() throws {
        let f = try ListScreenFixture(yearGrid: ListScreenGridTests.grid)
        let asked = f.press(.control("s"))
        #expect(asked.contains("Save as:"))
        expectGolden(asked, "save-prompt-48x14")
        let dropped = f.press(.tab)
        #expect(asked.contains("Tab: sections kept"))
        #expect(dropped.contains("Tab: no sections"), "Tab drops the sections")
        f.press(.escape)
        #expect(!f.text.contains("Save as:"))
        #expect(f.loop.topView === f.list)
    }

    @Test func anUnknownExtensionIsRefusedNamingTheFormats() throws {
        let f = try ListScreenFixture(yearGrid: ListScreenGridTests.grid)
        f.press(.control("s"))
        f.type("books.txt")
        let refused = f.press(.enter)
        #expect(refused.contains("Save as: books.txt"), "the name stays to be corrected")
        #expect(refused.contains(".csv, .tsv, .jsonl or .sqlite"))
        expectGolden(refused, "save-unknown-extension-48x14")
        f.type("x")
        #expect(!f.text.contains(".csv, .tsv, .jsonl"), "an edit clears the error")
    }

    @Test func enterSavesTheRowsShownTheirColumnsAndSections() throws {
        let f = try fixture()
        // The rows shown: Lem's books only; the grid without its author column.
        try f.list.applyFilter(try FetchPredicate("author == 'Lem'"), text: "author == 'Lem'")
        var grid = try #require(f.list.grid)
        grid.columns[1].isHidden = true
        f.list.grid = grid
        let path = f.directory.path("lem.csv")
        f.press(.control("s"))
        f.type(path)
        f.press(.enter)
        waitForTheSave(f)
        #expect(f.text.contains("Saved 2 books to"), "\(f.text)")
        #expect(
            try String(contentsOfFile: path, encoding: .utf8)
                == "_year,title,year\r\n1965,The Cyberiad,1965\r\n1961,Solaris,1961\r\n"
        )
        // Tab: the sections dropped; JSON Lines.
        let lines = f.directory.path("lem.jsonl")
        f.press(.control("s"), .tab)
        f.press(.control("u"))
        f.type(lines)
        f.press(.enter)
        waitForTheSave(f)
        #expect(
            try String(contentsOfFile: lines, encoding: .utf8)
                == "{\"title\":\"The Cyberiad\",\"year\":\"1965\"}\n{\"title\":\"Solaris\",\"year\":\"1961\"}\n"
        )
    }

    @Test func anExistingFileIsReplacedOnlyWhenThePersonSaysSo() throws {
        let f = try fixture()
        let path = f.directory.path("books.csv")
        try "mine\r\n".write(toFile: path, atomically: true, encoding: .utf8)
        f.press(.control("s"))
        f.type(path)
        let asked = f.press(.enter)
        #expect(asked.contains("books.csv exists.") && asked.contains("Replace it?"))
        #expect(f.loop.topView is ConfirmDialog)
        let kept = f.press(.enter)  // the highlighted button is Cancel
        #expect(kept.contains("Not saved"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine\r\n")
        f.press(.control("s"))
        f.press(.enter)  // the name typed last is offered again
        f.press(.character("y"))
        waitForTheSave(f)
        #expect(f.text.contains("Saved 8 books"), "\(f.text)")
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.hasPrefix("_year,title,author,year\r\n1986,Count Zero,Gibson,1986\r\n"))
    }

    @Test func theSavesEndComesBackAsAPostToTheLoopNotATicker() throws {
        // A loop whose clock stands still: no ticker ever fires; only what is posted runs.
        let f = try ListScreenFixture(yearGrid: ListScreenGridTests.grid)
        let path = f.directory.path("posted.tsv")
        f.press(.control("s"))
        f.type(path)
        f.press(.enter)
        let deadline = Date().addingTimeInterval(20)
        while f.list.isSavingView, Date() < deadline { f.loop.runPosted(waitingUpTo: 1) }
        // Before: the end was looked for by a ticker every 0.1 s, and this loop never saw it.
        #expect(!f.list.isSavingView)
        f.loop.draw()
        #expect(f.text.contains("Saved 8 books"), "\(f.text)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("_year\ttitle\tauthor\tyear\n"))
    }

    @Test func aTabWithoutColumnsSaysItCannotBeSaved() throws {
        let f = try ListScreenFixture(yearGrid: ListScreenGridTests.grid)
        f.press(.tab)  // Author: no grid
        let refused = f.press(.control("s"))
        #expect(refused.contains("no columns to save"))
        #expect(!refused.contains("Save as:"))
    }
}
