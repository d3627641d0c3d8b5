import FetchedResults
import FetchedResultsUI
import SQLiteStore
import TerminalUI
import Testing

@Suite("What an app reads of a list screen: its selection, its tabs' row heights")
struct ListScreenSelectionTests {
    @Test("selectedObject is the selected book, through the screen itself, and follows the selection")
    func selectedObjectFollowsTheSelection() throws {
        let f = try ListScreenFixture()
        #expect(f.list.selectedObject?.string("title") == "Count Zero")
        f.press(.down)
        #expect(f.list.selectedObject?.string("title") == "Neuromancer")
        #expect(f.list.selectedObjectID == f.list.selectedObject?.objectID)
    }

    @Test("selectedObject is nil while the first fetch runs, not a crash through a missing adapter")
    func selectedObjectIsNilWhileLoading() throws {
        let f = try ListScreenFixture(cache: false, fetchesInBackground: true)
        #expect(f.list.isLoading)
        #expect(f.list.selectedObject == nil)
        #expect(f.list.selectedObjectID == nil)
    }

    @Test("a tab's row height is the table's while the tab shows: one-line cells need no setting after init")
    func tabRowHeightFollowsTheTab() throws {
        let f = try ListScreenFixture(authorRowHeight: TableCell.Style.value1.lineCount)
        #expect(f.list.table.rowHeight == 2)
        f.list.switchTab(to: 1)
        #expect(f.list.table.rowHeight == 1)
        f.list.switchTab(to: 0)
        #expect(f.list.table.rowHeight == 2)
    }
}
