import Foundation
import Testing

@testable import TerminalUI

/// Screens of the table view, compared with golden text files (and, where it
/// matters, an attribute map: which cells are reversed, dim, accented).
@Suite struct TableViewGoldenTests {
    @Test func subtitleTableScrolledMidSectionShowsThatSectionsHeaderAtTheTop() {
        let banks = Fixtures.banks()
        let table = TableView(rowHeight: 2)
        table.dataSource = banks
        _ = draw(table, width: 80, height: 24)
        // Select a row in the middle of 2013 and scroll so that its section's
        // own header has gone off the top: the header must stick.
        table.selectRow(at: IndexPath(row: 4, section: 2))
        table.scrollOffset = table.layout.sectionTops[2] + 3
        let canvas = draw(table, width: 80, height: 24)
        #expect(canvas.text.split(separator: "\n").first?.hasPrefix(" 2013 ─") == true)
        Golden.check(canvas, "sticky-header-subtitle-80x24")
    }

    @Test func nextSectionHeaderReplacesTheStickyOneWhenItReachesTheTop() {
        let banks = Fixtures.banks()
        let table = TableView(rowHeight: 2)
        table.dataSource = banks
        _ = draw(table, width: 80, height: 24)
        table.selectRow(at: IndexPath(row: 0, section: 1))
        let top = table.layout.sectionTops[1]
        table.scrollOffset = top - 1  // last line of 2015's last row at the top
        var lines = draw(table, width: 80, height: 24).text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix(" 2015 ─"))
        #expect(lines[1].hasPrefix(" 2014 ─"))
        table.scrollOffset = top
        lines = draw(table, width: 80, height: 24).text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix(" 2014 ─"))
        table.scrollOffset = top + 1
        lines = draw(table, width: 80, height: 24).text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix(" 2014 ─"))
    }

    @Test func value1CellsWithIndexSidebarAt40x12() {
        let banks = Fixtures.banks(years: 2008...2012, perYear: { _ in 3 }, style: .value1)
        let table = TableView(rowHeight: 1)
        table.dataSource = banks
        let canvas = draw(table, width: 40, height: 12)
        Golden.check(canvas, "value1-index-40x12")
    }

    @Test func indexSidebarCompressesWithBulletsWhenTitlesOutnumberLines() {
        let banks = Fixtures.banks(years: 1990...2019, perYear: { _ in 2 }, style: .value1)
        let table = TableView(rowHeight: 1)
        table.dataSource = banks
        let canvas = draw(table, width: 40, height: 12)
        // 30 titles in 12 lines: 6 kept titles (first and last always) with a
        // bullet between each pair: 11 lines.
        let sidebar = canvas.text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0.suffix(4)) }
        #expect(
            Array(sidebar.prefix(11)) == [
                "2019", "   •", "2013", "   •", "2007", "   •", "2002", "   •", "1996", "   •", "1990",
            ]
        )
        Golden.check(canvas, "index-compressed-40x12")
    }

    @Test func largeSubtitleTableWithSelectionAt120x40() {
        let banks = Fixtures.banks(years: 1996...2015, perYear: { 3 + $0 % 4 })
        let table = TableView(rowHeight: 2)
        table.dataSource = banks
        _ = draw(table, width: 120, height: 40)
        for _ in 0..<9 { table.handle(.down) }
        let canvas = draw(table, width: 120, height: 40)
        Golden.check(canvas, "subtitle-selection-120x40")
    }

    @Test func wideCharactersAreNeverSplitWhenTruncated() {
        let rows: [ModelDataSource.Row] = [
            .init(id: 0, title: "東京スター銀行 本店営業部 第二課", detail: "千代田区, 東京都"),
            .init(id: 1, title: "🏦 Emoji Savings 💰💰💰 and Loan 🐷🐷", detail: "🌴 Miami, FL"),
            .init(id: 2, title: "Ｆｕｌｌｗｉｄｔｈ Ｂａｎｋ", detail: "Café Crème, NY"),
            .init(id: 3, title: "Zoë's Bank of Ünïcödé", detail: "e\u{301}t\u{301}e\u{301}"),
            .init(id: 4, title: "한국 은행 서울 지점 본사 건물", detail: "서울"),
        ]
        let source = ModelDataSource([.init(id: 0, title: "銀行 Banks", indexTitle: "銀", rows: rows)], style: .value1)
        let table = TableView(rowHeight: 1)
        table.dataSource = source
        let canvas = draw(table, width: 40, height: 12)
        // A continuation cell always follows a wide character's own cell.
        for y in 0..<canvas.height {
            for x in 0..<canvas.width where canvas[x, y].isContinuation {
                #expect(x > 0 && DisplayWidth.of(canvas[x - 1, y].text) == 2, "split wide character at \(x),\(y)")
            }
        }
        Golden.check(canvas, "cjk-emoji-40x12")

        source.style = .subtitle
        let subtitle = TableView(rowHeight: 2)
        subtitle.dataSource = source
        Golden.check(draw(subtitle, width: 23, height: 12), "cjk-emoji-subtitle-23x12", attributes: false)
    }

    @Test func inlineDeleteButtonAppearsAtTheRowsRightEdgeInReverseDestructive() {
        let banks = Fixtures.banks()
        let table = TableView(rowHeight: 2)
        table.dataSource = banks
        _ = draw(table, width: 80, height: 24)
        table.handle(.down)
        table.handle(.character("d"))
        let canvas = draw(table, width: 80, height: 24)
        Golden.check(canvas, "inline-delete-80x24")
        // The row being edited is not reversed (so the button stands out without colour).
        #expect(!canvas[1, 3].attributes.contains(.reverse))
        #expect(canvas[canvas.width - 5 - 8, 3].attributes.isSuperset(of: [.reverse, .destructive]))
    }

    @Test func emptyTableShowsTheEmptyMessage() {
        let table = TableView()
        let nothing = ModelDataSource([])
        table.dataSource = nothing
        Golden.check(draw(table, width: 80, height: 24), "empty-80x24")
        let sections = ModelDataSource([.init(id: 0, title: "2010", indexTitle: "2010", rows: [])])
        let other = TableView()
        other.emptyMessage = "No failed banks match “zzz”"
        other.dataSource = sections
        Golden.check(draw(other, width: 40, height: 12), "empty-sections-40x12")
    }

    @Test func indexJumpPromptHighlightsTheMatchedTitle() {
        let banks = Fixtures.banks(years: 2000...2015, perYear: { _ in 4 })
        let table = TableView(rowHeight: 2)
        table.dataSource = banks
        _ = draw(table, width: 80, height: 24)
        for event: InputEvent in [.character("f"), .character("2"), .character("0"), .character("0")] {
            table.handle(event)
        }
        let canvas = draw(table, width: 80, height: 24)
        Golden.check(canvas, "index-jump-80x24")
    }

    @Test func selectionIsReverseVideoSoItShowsWithoutColour() {
        let banks = Fixtures.banks()
        let table = TableView(rowHeight: 2)
        table.dataSource = banks
        let canvas = draw(table, width: 80, height: 24)
        // Row (0,0) is at lines 1-2 (line 0 is the 2015 header): reversed across the content width.
        for y in 1...2 {
            for x in 0..<(80 - 5) { #expect(canvas[x, y].attributes.contains(.reverse)) }
        }
        #expect(!canvas[0, 3].attributes.contains(.reverse))
        // Headers and the sidebar use the accent colour, never reverse.
        #expect(canvas[1, 0].attributes == [.bold, .accent])
        #expect(!canvas[78, 0].attributes.contains(.reverse))
    }
}
