import Foundation
import Testing

@testable import TerminalUI

/// Keys and mouse: the key map of `TableView.handle(_:)`, as the table view implements it.
@Suite struct TableViewInputTests {
    /// 10 sections (2015…2006) of 6 two-line rows, drawn once at 80×24.
    private func makeTable() -> (TableView, ModelDataSource, RecordingDelegate) {
        let banks = Fixtures.banks()
        let delegate = RecordingDelegate()
        let table = TableView(rowHeight: 2)
        table.dataSource = banks
        table.delegate = delegate
        _ = draw(table, width: 80, height: 24)
        return (table, banks, delegate)
    }

    @Test func theFirstRowIsSelectedWhenTheTableLoads() {
        let (table, _, _) = makeTable()
        #expect(table.selection == IndexPath(row: 0, section: 0))
    }

    @Test func downAndUpMoveTheSelectionAcrossSections() {
        let (table, _, delegate) = makeTable()
        for _ in 0..<6 { table.handle(.character("j")) }
        #expect(table.selection == IndexPath(row: 0, section: 1))
        table.handle(.up)
        #expect(table.selection == IndexPath(row: 5, section: 0))
        table.handle(.character("k"))
        #expect(table.selection == IndexPath(row: 4, section: 0))
        #expect(delegate.selectionChanges.count == 8)
        for _ in 0..<10 { table.handle(.up) }
        #expect(table.selection == IndexPath(row: 0, section: 0))
    }

    @Test func scrollingKeepsTwoRowsOfMarginBelowTheSelection() {
        let (table, _, _) = makeTable()
        for step in 0..<30 {
            table.handle(.down)
            let canvas = draw(table, width: 80, height: 24)
            let selected = (0..<24).filter { canvas[0, $0].attributes.contains(.reverse) }
            #expect(selected.count == 2, "step \(step)")
            // Two rows (4 lines) stay visible below the selection.
            #expect((selected.last ?? 99) <= 23 - 4, "step \(step): selection at \(selected)")
        }
    }

    @Test func scrollingKeepsTwoRowsOfMarginAboveTheSelectionBelowTheStickyHeader() {
        let (table, _, _) = makeTable()
        table.handle(.end)
        for step in 0..<30 {
            table.handle(.up)
            let canvas = draw(table, width: 80, height: 24)
            let selected = (0..<24).filter { canvas[0, $0].attributes.contains(.reverse) }
            #expect((selected.first ?? -1) >= 1 + 4, "step \(step): selection at \(selected)")
        }
    }

    @Test func homeAndEndGoToTheFirstAndLastRows() {
        let (table, _, _) = makeTable()
        table.handle(.end)
        #expect(table.selection == IndexPath(row: 5, section: 9))
        #expect(table.scrollOffset == table.layout.contentHeight - 24)
        table.handle(.character("g"))
        #expect(table.selection == IndexPath(row: 0, section: 0))
        #expect(table.scrollOffset == 0)
        table.handle(.character("G"))
        #expect(table.selection == IndexPath(row: 5, section: 9))
        table.handle(.home)
        #expect(table.scrollOffset == 0)
    }

    @Test func pageDownMovesByAScreenfulAndKeepsTheSelectionsLine() {
        let (table, _, _) = makeTable()
        table.handle(.down)
        table.handle(.down)
        let line = table.layout.rowTop(table.selection!) - table.scrollOffset
        table.handle(.pageDown)
        // (24 - 1 sticky) / 2 - 1 = 10 rows.
        #expect(table.layout.flatIndex(of: table.selection!) == 12)
        #expect(table.layout.rowTop(table.selection!) - table.scrollOffset == line)
        table.handle(.character(" "))
        #expect(table.layout.flatIndex(of: table.selection!) == 22)
        table.handle(.character("b"))
        table.handle(.pageUp)
        #expect(table.layout.flatIndex(of: table.selection!) == 2)
    }

    @Test func bracesJumpToTheNextAndPreviousSection() {
        let (table, _, _) = makeTable()
        table.handle(.character("}"))
        #expect(table.selection == IndexPath(row: 0, section: 1))
        #expect(table.scrollOffset == table.layout.sectionTops[1])
        table.handle(.down)
        table.handle(.character("{"))
        #expect(table.selection == IndexPath(row: 0, section: 1))
        table.handle(.character("{"))
        #expect(table.selection == IndexPath(row: 0, section: 0))
        for _ in 0..<20 { table.handle(.character("}")) }
        #expect(table.selection == IndexPath(row: 5, section: 9))
    }

    @Test func bracesSkipEmptySections() {
        let source = Fixtures.banks(years: 2010...2014, perYear: { $0 == 2013 ? 0 : 2 })
        let table = TableView(rowHeight: 2)
        table.dataSource = source
        _ = draw(table, width: 80, height: 24)
        table.handle(.character("}"))
        #expect(table.selection == IndexPath(row: 0, section: 2))
        table.handle(.character("{"))
        table.handle(.character("{"))
        #expect(table.selection == IndexPath(row: 0, section: 0))
    }

    @Test func fThenTheStartOfAnIndexTitleJumpsToItsSectionWhileTyping() {
        let banks = Fixtures.banks(years: 1999...2015)
        let table = TableView(rowHeight: 2)
        table.dataSource = banks
        _ = draw(table, width: 80, height: 24)
        table.handle(.character("f"))
        #expect(table.indexSearchText == "")
        table.handle(.character("2"))
        #expect(table.selection == IndexPath(row: 0, section: 0))  // "2015", the first title starting with 2
        table.handle(.character("0"))
        table.handle(.character("1"))
        #expect(table.selection == IndexPath(row: 0, section: 0))  // still "2015"
        #expect(table.indexSearchText == "201", "several titles start so: the prompt stays open")
        table.handle(.backspace)
        table.handle(.character("0"))
        #expect(table.selection == IndexPath(row: 0, section: 6))  // "2009", the first of 200…
        table.handle(.character("x"))  // "200x": no match, stays
        #expect(table.selection == IndexPath(row: 0, section: 6))
        #expect(!table.indexSearchMatched)
        table.handle(.enter)
        #expect(table.indexSearchText == nil)
        table.handle(.character("f"))
        table.handle(.character("1"))
        table.handle(.escape)
        #expect(table.indexSearchText == nil)
        // Keys go back to the table.
        table.handle(.character("k"))
        #expect(table.selection == IndexPath(row: 5, section: 15))
    }

    @Test func aPrefixOnlyOneTitleHasJumpsAndClosesThePromptSoTheNextKeyIsTheTables() {
        let banks = Fixtures.banks(years: 1999...2015)
        let table = TableView(rowHeight: 2)
        table.dataSource = banks
        _ = draw(table, width: 80, height: 24)
        table.handle(.character("f"))
        table.handle(.character("1"))  // only "1999"
        #expect(table.selection == IndexPath(row: 0, section: 16))
        #expect(table.indexSearchText == nil, "the jump is done: no prompt left open")
        table.handle(.character("k"))
        #expect(table.selection == IndexPath(row: 5, section: 15), "the next key moves the selection")
        table.handle(.character("f"))
        for c in "2010" { table.handle(.character(c)) }
        #expect(table.selection == IndexPath(row: 0, section: 5))
        #expect(table.indexSearchText == nil)
    }

    @Test func fDoesNothingWithoutAnIndex() {
        let source = Fixtures.plain(20)
        let table = TableView(rowHeight: 1)
        table.dataSource = source
        #expect(table.handle(.character("f")) == false)
        #expect(table.indexSearchText == nil)
    }

    @Test func enterAndRightArrowSelectTheRowForTheDelegate() {
        let (table, _, delegate) = makeTable()
        table.handle(.down)
        table.handle(.enter)
        table.handle(.right)
        #expect(delegate.selected == [IndexPath(row: 1, section: 0), IndexPath(row: 1, section: 0)])
    }

    @Test func unknownKeysAreLeftToTheScreen() {
        let (table, _, _) = makeTable()
        for event: InputEvent in [
            .character("q"), .character("/"), .tab, .backTab, .left, .character("u"), .character("?"),
        ] {
            #expect(table.handle(event) == false, "\(event)")
        }
    }

    @Test func dRevealsTheDeleteButtonAndDConfirms() {
        let (table, _, delegate) = makeTable()
        table.handle(.down)
        table.handle(.character("d"))
        #expect(table.editingIndexPath == IndexPath(row: 1, section: 0))
        #expect(delegate.deleted.isEmpty)
        table.handle(.character("d"))
        #expect(delegate.deleted == [IndexPath(row: 1, section: 0)])
        #expect(table.editingIndexPath == nil)
    }

    @Test func deleteKeyRevealsAndEnterConfirms() {
        let (table, _, delegate) = makeTable()
        table.handle(.delete)
        #expect(table.editingIndexPath == IndexPath(row: 0, section: 0))
        table.handle(.enter)
        #expect(delegate.deleted == [IndexPath(row: 0, section: 0)])
        #expect(delegate.selected.isEmpty)
    }

    @Test func escapeOrMovingAwayCancelsTheDeleteButton() {
        let (table, _, delegate) = makeTable()
        table.handle(.character("d"))
        table.handle(.escape)
        #expect(table.editingIndexPath == nil)
        table.handle(.character("d"))
        table.handle(.down)
        #expect(table.editingIndexPath == nil)
        #expect(table.selection == IndexPath(row: 1, section: 0))
        #expect(delegate.deleted.isEmpty)
    }

    @Test func rowsTheDelegateProtectsShowNoDeleteButton() {
        let (table, _, delegate) = makeTable()
        delegate.deletable = { $0.row != 0 }
        table.handle(.character("d"))
        #expect(table.editingIndexPath == nil)
    }

    @Test func mouseWheelMovesTheSelectionThreeRows() {
        let (table, _, _) = makeTable()
        table.handle(.mouseWheel(up: false, x: 10, y: 10))
        #expect(table.selection == IndexPath(row: 3, section: 0))
        table.handle(.mouseWheel(up: true, x: 10, y: 10))
        #expect(table.selection == IndexPath(row: 0, section: 0))
        #expect(table.handle(.mouseWheel(up: false, x: 10, y: 30)) == false)  // outside the frame
    }

    @Test func clickSelectsARowAndASecondClickOpensIt() {
        let (table, _, delegate) = makeTable()
        // Line 0: header 2015; lines 1-2: row 0; lines 3-4: row 1.
        table.handle(.mouseClick(x: 5, y: 4))
        #expect(table.selection == IndexPath(row: 1, section: 0))
        #expect(delegate.selected.isEmpty)
        table.handle(.mouseClick(x: 5, y: 3))
        #expect(delegate.selected == [IndexPath(row: 1, section: 0)])
    }

    @Test func clickOnTheIndexSidebarJumpsToThatSection() {
        let (table, _, _) = makeTable()
        // 10 titles centred in 24 lines start at line 7: 2015 at 7, 2012 at 10.
        table.handle(.mouseClick(x: 77, y: 10))
        #expect(table.selection == IndexPath(row: 0, section: 3))
        #expect(table.scrollOffset == table.layout.sectionTops[3])
    }

    @Test func clickOnTheDeleteButtonConfirms() {
        let (table, _, delegate) = makeTable()
        table.handle(.character("d"))
        _ = draw(table, width: 80, height: 24)
        table.handle(.mouseClick(x: 70, y: 1))
        #expect(delegate.deleted == [IndexPath(row: 0, section: 0)])
    }

    @Test func clickOnADetailButtonTellsTheDelegate() {
        let (table, banks, delegate) = makeTable()
        banks.accessory = .detailButton
        table.handle(.mouseClick(x: 73, y: 3))  // content is 75 wide: the accessory is at 73
        #expect(delegate.accessoryTaps == [IndexPath(row: 1, section: 0)])
        #expect(table.selection == IndexPath(row: 0, section: 0))
    }

    @Test func resizingKeepsTheSelectionVisible() {
        let (table, _, _) = makeTable()
        for _ in 0..<8 { table.handle(.down) }
        let canvas = draw(table, width: 40, height: 8)
        let selected = (0..<8).filter { canvas[0, $0].attributes.contains(.reverse) }
        #expect(selected.count == 2)
    }

    @Test func selectRowClampsAndScrollsIntoView() {
        let (table, _, _) = makeTable()
        table.selectRow(at: IndexPath(row: 99, section: 7))
        #expect(table.selection == IndexPath(row: 5, section: 7))
        #expect(table.indexPathsForVisibleRows.contains(IndexPath(row: 5, section: 7)))
        table.selectRow(at: nil)
        #expect(table.selection == nil)
        table.handle(.down)  // selects the first visible row again
        #expect(table.selection != nil)
    }

    @Test func aTableInAnInsetFrameDrawsOnlyThereAndMapsClicksToIt() {
        let banks = Fixtures.banks()
        let table = TableView(rowHeight: 2)
        table.dataSource = banks
        var canvas = Canvas(width: 80, height: 24)
        canvas.put("NAV", x: 0, y: 0)
        canvas.put("STATUS", x: 0, y: 23)
        table.render(into: &canvas, frame: Rect(x: 0, y: 1, width: 80, height: 22), at: 0)
        let lines = canvas.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "NAV")
        #expect(lines[1].hasPrefix(" 2015 ─"))
        #expect(lines[23] == "STATUS")
        // Frame line 3 (canvas line 4) is the second line of row 1.
        table.handle(.mouseClick(x: 10, y: 4))
        #expect(table.selection == IndexPath(row: 1, section: 0))
        #expect(table.handle(.mouseClick(x: 10, y: 0)) == false)  // the navigation bar is not the table's
    }
}
