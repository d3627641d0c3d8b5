import Foundation
import TestSupport
import Testing

@testable import TerminalUI

/// A million rows cost what ten do: the table asks only for visible rows, keeps
/// section offsets as prefix sums and finds lines by binary search. (Timing is
/// the `bench` program's job; these check the structure that makes it so.)
@Suite struct TableViewScalingTests {
    /// Counts every question the table asks.
    final class CountingSource: TableViewDataSource {
        let sections: Int, rowsPerSection: Int
        var rowCountRequests = 0, cellRequests = 0, headerRequests = 0
        private var keepAlive: AnyObject?
        init(sections: Int, rowsPerSection: Int) {
            self.sections = sections
            self.rowsPerSection = rowsPerSection
            keepAlive = self
        }
        var numberOfSections: Int { sections }
        func numberOfRows(inSection section: Int) -> Int {
            rowCountRequests += 1
            return rowsPerSection
        }
        func cell(forRowAt indexPath: IndexPath) -> TableCell {
            cellRequests += 1
            return TableCell(title: "row \(indexPath.row)", detail: "section \(indexPath.section)")
        }
        func titleForHeader(inSection section: Int) -> String? {
            headerRequests += 1
            return "S\(section)"
        }
    }

    @Test func aFrameOfAMillionRowsAsksOnlyForTheVisibleRows() {
        let source = CountingSource(sections: 1, rowsPerSection: 1_000_000)
        let table = TableView(rowHeight: 2)
        table.dataSource = source
        _ = draw(table, width: 80, height: 24)
        #expect(source.rowCountRequests == 1)
        source.cellRequests = 0
        table.scrollOffset = 1_000_001
        let canvas = draw(table, width: 80, height: 24)
        #expect(source.cellRequests <= 13)  // 24 lines of 2-line rows, maybe one cut at each end
        #expect(canvas.text.contains("row 500001"))  // line 1,000,001 is row 500,000's second line
        // Moving the selection asks for nothing but the frame.
        source.cellRequests = 0
        for _ in 0..<100 { table.handle(.down) }
        #expect(source.cellRequests == 0)
    }

    @Test func loadingAsksEachSectionOnceAndNoRows() {
        let source = CountingSource(sections: 1000, rowsPerSection: 1000)
        let table = TableView(rowHeight: 2)
        table.dataSource = source
        table.reloadData()
        #expect(source.rowCountRequests == 1000)
        #expect(source.headerRequests == 1000)
        #expect(source.cellRequests == 0)
        #expect(table.totalNumberOfRows == 1_000_000)
    }

    @Test func aSmallBatchOnAMillionRowsTouchesOnlyItsRows() throws {
        let source = ModelDataSource(
            [
                .init(
                    id: 0,
                    title: "All",
                    indexTitle: nil,
                    rows: (0..<200_000).map { .init(id: $0, title: "r\($0)") }
                )
            ],
            style: .value1
        )
        let table = TableView(rowHeight: 1)
        table.dataSource = source
        table.selectRow(at: IndexPath(row: 150_000, section: 0))
        _ = draw(table, width: 40, height: 12)
        source.sections[0].rows.remove(at: 10)
        source.cellRequests = 0
        try table.performBatchUpdates { table.deleteRows(at: [IndexPath(row: 10, section: 0)]) }
        #expect(table.selection == IndexPath(row: 149_999, section: 0))
        #expect(source.cellRequests <= 30)  // the visible rows, for the animation
    }

    @Test func lineLookupsAgreeWithAWalkThroughTheContent() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<50 {
            let sections = (0..<Int.random(in: 0...12, using: &rng)).map { s in
                ModelDataSource.Section(
                    id: s,
                    title: Bool.random(using: &rng) ? "S\(s)" : nil,
                    indexTitle: nil,
                    rows: (0..<Int.random(in: 0...5, using: &rng)).map { .init(id: $0, title: "r") }
                )
            }
            let source = ModelDataSource(sections)
            let layout = TableLayout(dataSource: source, rowHeight: Int.random(in: 1...3, using: &rng))
            // Walk the content line by line, the slow way.
            var expected: [(TableLayout.Entry, Int)] = []
            for (s, section) in sections.enumerated() {
                if section.title != nil { expected.append((.header(s), expected.count)) }
                for r in section.rows.indices {
                    let top = expected.count
                    for _ in 0..<layout.rowHeight { expected.append((.row(IndexPath(row: r, section: s)), top)) }
                }
            }
            #expect(layout.contentHeight == expected.count)
            for (line, (entry, top)) in expected.enumerated() {
                let found = layout.entry(atLine: line)
                #expect(found?.entry == entry && found?.top == top, "line \(line)")
            }
            #expect(layout.entry(atLine: expected.count) == nil)
            for flat in 0..<layout.totalRows {
                let ip = layout.indexPath(atFlatIndex: flat)!
                #expect(layout.flatIndex(of: ip) == flat)
            }
        }
    }
}
