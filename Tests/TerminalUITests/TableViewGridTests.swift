import Foundation
import Testing

@testable import TerminalUI

/// The table view's grid layout: one line per row of aligned columns under a sticky
/// header row, a column cursor with sideways scrolling and frozen columns, and the
/// list's sections, index, selection and animations unchanged.
@Suite struct TableViewGridTests {
    static let columns = [
        GridColumn("name"),
        GridColumn("city"),
        GridColumn("st"),
        GridColumn("closed"),
        GridColumn("cert", alignment: .trailing),
        GridColumn("fund", alignment: .trailing),
        GridColumn("acquired by"),
    ]

    /// Failed banks by year as grid rows: some funds NULL, some acquirers empty.
    static func banks(
        years: ClosedRange<Int> = 2008...2012,
        perYear: Int = 3,
        sectioned: Bool = true
    ) -> ModelDataSource {
        let source = Fixtures.banks(years: years, perYear: { _ in perYear }, style: .value1)
        for s in source.sections.indices {
            for r in source.sections[s].rows.indices {
                let row = source.sections[s].rows[r]
                let (city, state) = Fixtures.cities[(row.id * 3) % Fixtures.cities.count]
                source.sections[s].rows[r].values = [
                    row.title, city, state, row.detail, String(10_000 + row.id * 137),
                    row.id % 4 == 1 ? nil : String(row.id * 7 % 90 + 1),
                    row.id % 3 == 0 ? "" : Fixtures.bankNames[(row.id * 5) % Fixtures.bankNames.count],
                ]
            }
        }
        if !sectioned {
            let rows = source.sections.flatMap(\.rows)
            source.sections = [.init(id: 0, title: nil, indexTitle: nil, rows: rows)]
        }
        return source
    }

    static func makeGrid(_ source: ModelDataSource, columns: [GridColumn] = columns) -> TableView {
        let table = TableView(rowHeight: 1)
        table.dataSource = source
        table.gridColumns = columns
        return table
    }

    private func lines(_ canvas: Canvas) -> [String] {
        canvas.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    // MARK: Golden screens

    @Test func gridWithSectionsAndIndexAt100x16ShowsHeaderRowAboveStickySectionHeader() {
        let table = Self.makeGrid(Self.banks())
        _ = draw(table, width: 100, height: 16)
        table.selectRow(at: IndexPath(row: 1, section: 1))
        table.scrollOffset = table.layout.sectionTops[1] + 1
        let canvas = draw(table, width: 100, height: 16)
        let shown = lines(canvas)
        #expect(shown[0].hasPrefix(" name "))
        #expect(shown[1].hasPrefix(" 2011 ─"))  // the sticky section header under the header row
        Golden.check(canvas, "grid-sections-index-100x16")
    }

    @Test func gridAt40x12ScrolledToTheLastColumnKeepsTheFrozenNameColumn() {
        var columns = Self.columns
        columns[0].isFrozen = true
        columns[0].maximumWidth = 12
        let table = Self.makeGrid(Self.banks(), columns: columns)
        _ = draw(table, width: 40, height: 12)
        for _ in 0..<6 { table.handle(.right) }
        let canvas = draw(table, width: 40, height: 12)
        #expect(table.gridState.cursorColumn == 6)
        #expect(lines(canvas)[0].hasPrefix(" name"))
        #expect(lines(canvas)[0].contains("│ acquired by"))
        Golden.check(canvas, "grid-frozen-scrolled-40x12")
    }

    @Test func gridAtTheListScreensMinimum24x6StillShowsTheCursorsColumn() {
        var columns = Self.columns
        columns[0].isFrozen = true
        let table = Self.makeGrid(Self.banks(), columns: columns)
        table.handle(.right)
        table.handle(.right)  // city
        let canvas = draw(table, width: 24, height: 6)
        // The frozen name column makes way: the cursor's column is shown first.
        #expect(lines(canvas)[0].hasPrefix(" city"))
        Golden.check(canvas, "grid-minimum-24x6")
    }

    @Test func wideCharactersAreMeasuredInCellsAndNeverSplit() {
        let rows: [ModelDataSource.Row] = [
            .init(id: 0, title: "a", values: ["東京スター銀行", "千代田区", "12"]),
            .init(id: 1, title: "b", values: ["🏦 Emoji Savings 💰", "🌴 Miami", "7"]),
            .init(id: 2, title: "c", values: ["Café Crème", "Zürich", "12345"]),
            .init(id: 3, title: "d", values: ["Ｆｕｌｌｗｉｄｔｈ Ｂａｎｋ of the very long name", nil, ""]),
        ]
        let source = ModelDataSource([.init(id: 0, title: nil, indexTitle: nil, rows: rows)], style: .value1)
        let table = Self.makeGrid(
            source,
            columns: [GridColumn("bank", maximumWidth: 20), GridColumn("city"), GridColumn("n", alignment: .trailing)]
        )
        let canvas = draw(table, width: 44, height: 6)
        #expect(table.gridColumnWidths == [20, 8, 5])
        let shown = lines(canvas)
        #expect(shown[1].hasPrefix(" 東京スター銀行        千代田区     12"))
        #expect(shown[4].hasPrefix(" Ｆｕｌｌｗｉｄｔｈ …  ∅"))  // Ｂ would be cut: the … comes first
        Golden.check(canvas, "grid-wide-characters-44x6")
    }

    // MARK: Values

    @Test func nullIsADimEmptySetSignAndAnEmptyStringIsBlank() {
        let rows: [ModelDataSource.Row] = [
            .init(id: 0, title: "a", values: ["x", nil, "1"]),
            .init(id: 1, title: "b", values: ["y", "", "2"]),
        ]
        let source = ModelDataSource([.init(id: 0, title: nil, indexTitle: nil, rows: rows)], style: .value1)
        let table = Self.makeGrid(
            source,
            columns: [GridColumn("k"), GridColumn("note"), GridColumn("n", alignment: .trailing)]
        )
        table.selectRow(at: IndexPath(row: 1, section: 0))
        let canvas = draw(table, width: 30, height: 5)
        let shown = lines(canvas)
        #expect(shown[1] == " x  ∅     1")
        #expect(shown[2] == " y        2")
        let nullX = Array(shown[1]).firstIndex(of: "∅")!
        #expect(canvas[nullX, 1].attributes.contains(.dim))
    }

    /// One grid row per cell given, highlights and all.
    final class HighlightSource: TableViewDataSource {
        let cells: [TableCell]
        init(_ cells: [TableCell]) { self.cells = cells }
        var numberOfSections: Int { 1 }
        func numberOfRows(inSection section: Int) -> Int { cells.count }
        func cell(forRowAt indexPath: IndexPath) -> TableCell { cells[indexPath.row] }
    }

    @Test func aHighlightedRangeIsReversedInItsCellAndUnderlinedInTheSelectedRow() {
        let cells = [
            TableCell(
                values: ["Heritage Bank", "三体 Ströme", "abcdefghij"],
                highlights: [
                    .init(column: 0, range: 0..<8), .init(column: 1, range: 1..<3), .init(column: 2, range: 4..<9),
                ]
            ),
            TableCell(values: ["Heritage Bank", "x", "y"], highlights: [.init(column: 0, range: 9..<13)]),
        ]
        let source = HighlightSource(cells)
        let table = TableView(rowHeight: 1)
        table.dataSource = source
        table.gridColumns = [GridColumn("bank"), GridColumn("city"), GridColumn("code", maximumWidth: 6)]
        table.selectRow(at: IndexPath(row: 1, section: 0))
        table.gridState.cursorColumn = 2
        let canvas = draw(table, width: 40, height: 4)
        let shown = lines(canvas)
        #expect(shown[1] == " Heritage Bank  三体 Ströme  abcde…")
        func reversed(_ x: Int, _ y: Int) -> Bool { canvas[x, y].attributes.contains(.reverse) }
        // "Heritage" (cells 1–8) reversed, the space after it not.
        #expect((1...8).allSatisfy { reversed($0, 1) } && !reversed(9, 1))
        // "体 " of 三体 Ströme: 体 is two cells (18–19), the space one (20); 三 (16–17) not.
        #expect(!reversed(16, 1) && reversed(18, 1) && reversed(19, 1) && reversed(20, 1) && !reversed(21, 1))
        // "efghi" of a value cut to "abcde…": "e" alone, never the "…".
        #expect(reversed(33, 1) && !reversed(34, 1))
        // The selected row is reversed already: its "Bank" bold and underlined instead.
        #expect(canvas[10, 2].attributes.contains(.underline) && !reversed(10, 2))
        #expect(reversed(9, 2) && !canvas[9, 2].attributes.contains(.underline))
    }

    @Test func aRowOrAValueWaitingForItsStoresAnswerIsDimAndMarked() {
        var edited = TableCell(values: ["Heritage Bank", "Atlanta", "1234"])
        edited.pendingColumns = [1]
        var deleted = TableCell(values: ["First Bank", "Miami", "77"])
        deleted.isPending = true
        let plain = TableCell(values: ["Coastal Bank", "Tampa", nil])
        let table = TableView(rowHeight: 1)
        let source = HighlightSource([edited, deleted, plain])
        table.dataSource = source
        table.gridColumns = [GridColumn("bank"), GridColumn("city"), GridColumn("n", alignment: .trailing)]
        table.selectRow(at: IndexPath(row: 0, section: 0))
        let canvas = draw(table, width: 32, height: 5)
        let shown = lines(canvas)
        #expect(shown[1] == " Heritage Bank ↻Atlanta  1234")  // the value sent, marked before it
        #expect(shown[2] == "↻First Bank     Miami      77")  // the row sent, marked at its left
        #expect(shown[3] == " Coastal Bank   Tampa       ∅")
        #expect(canvas[16, 1].attributes.contains(.dim) && !canvas[1, 1].attributes.contains(.dim))
        #expect((1...28).allSatisfy { canvas[$0, 2].attributes.contains(.dim) })
        Golden.check(canvas, "grid-pending-32x5")
    }

    @Test func numbersAreRightAlignedUnderARightAlignedName() {
        let rows: [ModelDataSource.Row] = [
            .init(id: 0, title: "a", values: ["5"]),
            .init(id: 1, title: "b", values: ["12345"]),
        ]
        let source = ModelDataSource([.init(id: 0, title: nil, indexTitle: nil, rows: rows)], style: .value1)
        let table = Self.makeGrid(source, columns: [GridColumn("amount", alignment: .trailing)])
        let shown = lines(draw(table, width: 20, height: 4))
        #expect(shown[0] == " amount")
        #expect(shown[1] == "      5")
        #expect(shown[2] == "  12345")
    }

    @Test func aLongValueIsCutAtTheColumnsMaximumWidthAndAFixedWidthWins() {
        let rows: [ModelDataSource.Row] = [.init(id: 0, title: "a", values: ["abcdefghijklmnop", "xyz"])]
        let source = ModelDataSource([.init(id: 0, title: nil, indexTitle: nil, rows: rows)], style: .value1)
        let table = Self.makeGrid(source, columns: [GridColumn("t", maximumWidth: 6), GridColumn("u", width: 2)])
        let shown = lines(draw(table, width: 30, height: 3))
        #expect(shown[1] == " abcde…  x…")
        #expect(table.gridColumnWidths == [6, 2])
    }

    @Test func widthsGrowWithTheRowsScrolledPastAndNeverShrink() {
        let rows: [ModelDataSource.Row] = (0..<40).map {
            .init(id: $0, title: "", values: [$0 == 35 ? "a much longer value" : "v\($0)"])
        }
        let source = ModelDataSource([.init(id: 0, title: nil, indexTitle: nil, rows: rows)], style: .value1)
        let table = Self.makeGrid(source, columns: [GridColumn("col")])
        _ = draw(table, width: 40, height: 10)
        #expect(table.gridColumnWidths == [3])
        table.handle(.end)
        _ = draw(table, width: 40, height: 10)
        #expect(table.gridColumnWidths == [19])
        table.handle(.home)
        _ = draw(table, width: 40, height: 10)
        #expect(table.gridColumnWidths == [19])
        table.remeasureGridColumns()
        _ = draw(table, width: 40, height: 10)
        #expect(table.gridColumnWidths == [3])
    }

    @Test func onlyTheVisibleRowsAreAskedForOncePerFrame() {
        let rows: [ModelDataSource.Row] = (0..<100_000).map { .init(id: $0, title: "", values: ["\($0)"]) }
        let source = ModelDataSource([.init(id: 0, title: nil, indexTitle: nil, rows: rows)], style: .value1)
        let table = Self.makeGrid(source, columns: [GridColumn("n", alignment: .trailing)])
        _ = draw(table, width: 40, height: 10)
        #expect(source.cellRequests == 9)  // ten lines less the header row
    }

    // MARK: The column cursor

    @Test func arrowsAndHLMoveTheColumnCursorAndScrollItIntoViewWhileEnterStillSelects() {
        let delegate = RecordingDelegate()
        let table = Self.makeGrid(Self.banks())
        table.delegate = delegate
        _ = draw(table, width: 50, height: 10)
        #expect(lines(draw(table, width: 50, height: 10))[0].hasPrefix(" name"))
        #expect(table.handle(.right))
        #expect(table.handle(.character("l")))
        #expect(table.gridState.cursorColumn == 2)
        #expect(delegate.selected.isEmpty)  // → moves the cursor in a grid, it does not open the row
        for _ in 0..<10 { table.handle(.right) }
        #expect(table.gridState.cursorColumn == 6)  // stops at the last column
        let header = lines(draw(table, width: 50, height: 10))[0]
        #expect(header.hasSuffix("acquired by"))
        #expect(!header.contains("name"))  // scrolled sideways
        #expect(table.gridState.horizontalOffset > 0)
        table.handle(.character("h"))
        for _ in 0..<10 { table.handle(.left) }
        #expect(table.gridState.cursorColumn == 0)
        #expect(lines(draw(table, width: 50, height: 10))[0].hasPrefix(" name"))
        #expect(table.gridState.horizontalOffset == 0)
        table.handle(.enter)
        #expect(delegate.selected.count == 1)
    }

    @Test func theCursorsHeaderIsReversedAndItsCellInTheSelectedRowIsBoldNotReversed() {
        let table = Self.makeGrid(Self.banks())
        _ = draw(table, width: 100, height: 10)
        table.handle(.right)
        let canvas = draw(table, width: 100, height: 10)
        let x = table.gridPlacements.first { $0.column == 1 }!.x
        #expect(canvas[x, 0].attributes.contains(.reverse))
        let selectedY = 2  // the header row, the 2012 section header, then the first row
        #expect(canvas[x, selectedY].attributes.isSuperset(of: [.bold, .underline]))
        #expect(!canvas[x, selectedY].attributes.contains(.reverse))
        #expect(canvas[1, selectedY].attributes.contains(.reverse))
    }

    @Test func frozenColumnsComeFirstAndTheCursorMovesThroughThemFirst() {
        var columns = Self.columns
        columns[4].isFrozen = true  // cert
        let table = Self.makeGrid(Self.banks(), columns: columns)
        let header = lines(draw(table, width: 100, height: 6))[0]
        #expect(header.hasPrefix("  cert │ name"))
        #expect(table.gridState.cursorColumn == 0)  // still on name, which is now second
        table.handle(.left)
        #expect(table.gridState.cursorColumn == 4)
        table.handle(.right)
        table.handle(.right)
        #expect(table.gridState.cursorColumn == 1)
    }

    @Test func clicksOnTheHeaderRowAndOnACellPutTheCursorOnTheirColumn() {
        let delegate = RecordingDelegate()
        let table = Self.makeGrid(Self.banks(sectioned: false))
        table.delegate = delegate
        _ = draw(table, width: 100, height: 10)
        let city = table.gridPlacements.first { $0.column == 1 }!.x
        let cert = table.gridPlacements.first { $0.column == 4 }!.x
        #expect(table.handle(.mouseClick(x: city + 1, y: 0)))
        #expect(table.gridState.cursorColumn == 1)
        #expect(table.selection == IndexPath(row: 0, section: 0))
        #expect(table.handle(.mouseClick(x: cert, y: 3)))
        #expect(table.gridState.cursorColumn == 4)
        #expect(table.selection == IndexPath(row: 2, section: 0))
        #expect(delegate.selected.isEmpty)
    }

    @Test func settingOtherColumnNamesMeasuresAgainAndKeepsTheCursorInRange() {
        let table = Self.makeGrid(Self.banks())
        _ = draw(table, width: 100, height: 10)
        for _ in 0..<6 { table.handle(.right) }
        var frozen = Self.columns
        frozen[0].isFrozen = true
        let widths = table.gridColumnWidths
        table.gridColumns = frozen
        #expect(table.gridColumnWidths == widths)  // freezing keeps the measured widths
        table.gridColumns = Array(Self.columns.prefix(3))
        #expect(table.gridState.cursorColumn == 2)
        #expect(table.gridColumnWidths == [4, 4, 2])  // the names' widths until the next frame
    }

    // MARK: Animations and the list features

    @Test func aDeletedRowFadesOutInTheGridAndTheRowsBelowCloseUp() throws {
        let source = Self.banks(years: 2011...2012, perYear: 3)
        let table = Self.makeGrid(source)
        table.animationDuration = 0.25
        _ = draw(table, width: 60, height: 10, at: -1)
        source.sections[0].rows.remove(at: 1)
        try table.performBatchUpdates { table.deleteRows(at: [IndexPath(row: 1, section: 0)]) }
        let frames = [10, 10.125, 10.25].map { t -> String in
            let canvas = draw(table, width: 60, height: 10, at: t)
            return "── t=\(t) " + String(repeating: "─", count: 10) + "\n" + canvas.text + "\n" + attributeMap(canvas)
        }
        Golden.check(frames.joined(separator: "\n"), "grid-animation-delete-60x10")
        #expect(!table.isAnimating(at: 10.25))
    }

    @Test func anEmptyGridShowsItsHeaderRowAndTheEmptyMessage() {
        let source = ModelDataSource([], style: .value1)
        let table = Self.makeGrid(source)
        table.emptyMessage = "No banks"
        let shown = lines(draw(table, width: 60, height: 6))
        #expect(shown[0].hasPrefix(" name  city  st  closed  cert  fund  acquired by"))
        #expect(shown.contains { $0.contains("No banks") })
    }

    @Test func aListTableIgnoresValuesAndKeepsArrowRightForSelecting() {
        let delegate = RecordingDelegate()
        let table = TableView(rowHeight: 1)
        table.dataSource = Self.banks()
        table.delegate = delegate
        let canvas = draw(table, width: 60, height: 6)
        #expect(!canvas.text.contains("cert"))
        table.handle(.right)
        #expect(delegate.selected.count == 1)
    }
}
