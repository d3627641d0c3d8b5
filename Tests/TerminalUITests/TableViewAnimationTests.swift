import Foundation
import Testing

@testable import TerminalUI

/// Batch animations, rendered at chosen times (the clock is a parameter):
/// deleted rows fade and collapse, inserted rows open a gap and fade in, moved
/// rows travel, reloaded rows flash, and a new batch finishes a running one.
@Suite struct TableViewAnimationTests {
    private func letters(_ titles: String, section: Int = 0, header: String? = "Letters") -> ModelDataSource.Section {
        .init(
            id: section,
            title: header,
            indexTitle: nil,
            rows: titles.map { .init(id: Int($0.asciiValue!), title: "Row \($0)", detail: "detail of \($0)") }
        )
    }

    private func row(_ c: Character) -> ModelDataSource.Row {
        .init(id: Int(c.asciiValue!), title: "Row \(c)", detail: "detail of \(c)")
    }

    /// The frames at `times`, one after the other, each under a "t=…" line.
    private func frames(
        _ table: TableView,
        width: Int = 30,
        height: Int = 12,
        at times: [Double],
        attributes: Bool = false
    ) -> String {
        times.map { t in
            let canvas = draw(table, width: width, height: height, at: t)
            let body = attributes ? canvas.text + "\n" + attributeMap(canvas) : canvas.text
            return "── t=\(t) " + String(repeating: "─", count: 10) + "\n" + body
        }.joined(separator: "\n")
    }

    private func makeTable(_ sections: [ModelDataSource.Section], rowHeight: Int = 2) -> (TableView, ModelDataSource) {
        let source = ModelDataSource(sections, style: rowHeight == 2 ? .subtitle : .value1)
        let table = TableView(rowHeight: rowHeight)
        table.dataSource = source
        table.animationDuration = 0.25
        _ = draw(table, width: 30, height: 12, at: -1)
        return (table, source)
    }

    @Test func aDeletedRowFadesAndCollapsesWhileTheRowsBelowCloseUp() throws {
        let (table, source) = makeTable([letters("ABCDEF")])
        source.sections[0].rows.remove(at: 1)
        try table.performBatchUpdates { table.deleteRows(at: [IndexPath(row: 1, section: 0)]) }
        #expect(table.isAnimating(at: 10))  // not started until its first frame
        let text = frames(table, at: [10, 10.125, 10.25], attributes: true)
        Golden.check(text, "animation-delete-30x12")
        #expect(!table.isAnimating(at: 10.25))
        // Mid-way the deleted row is one line high and dim.
        let mid = draw(table, width: 30, height: 12, at: 10.125)
        #expect(mid.text == draw(table, width: 30, height: 12, at: 11).text)  // over: final frame
    }

    @Test func midwayThroughADeleteTheRowIsHalfHeightAndDim() throws {
        let (table, source) = makeTable([letters("ABCDEF")])
        source.sections[0].rows.remove(at: 1)
        try table.performBatchUpdates { table.deleteRows(at: [IndexPath(row: 1, section: 0)]) }
        _ = draw(table, width: 30, height: 12, at: 0)
        let mid = draw(table, width: 30, height: 12, at: 0.125)
        let lines = mid.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[3] == " Row B")
        #expect(mid[1, 3].attributes.contains(.dim))
        #expect(lines[4] == " Row C")  // C has moved up by one line of two
    }

    @Test func anInsertedRowOpensAGapAndFadesIn() throws {
        let (table, source) = makeTable([letters("ABCDE")])
        source.sections[0].rows.insert(row("X"), at: 2)
        try table.performBatchUpdates { table.insertRows(at: [IndexPath(row: 2, section: 0)]) }
        Golden.check(frames(table, at: [0, 0.125, 0.25], attributes: true), "animation-insert-30x12")
    }

    @Test func anInsertedRowIsOnScreenInTheAnimationsFirstFrame() throws {
        // One-line rows (a grid's, a query's result): the new row shows at once, dim, the rows
        // below already one line down, none missing.
        let (table, source) = makeTable([letters("ABCDE")], rowHeight: 1)
        source.sections[0].rows.insert(row("X"), at: 0)
        try table.performBatchUpdates { table.insertRows(at: [IndexPath(row: 0, section: 0)]) }
        let first = draw(table, width: 30, height: 12, at: 0)
        let titles = first.text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.prefix(6) }
        #expect(Array(titles[1...6]) == [" Row X", " Row A", " Row B", " Row C", " Row D", " Row E"])
        #expect(first[1, 1].attributes.contains(.dim))
        #expect(!first[1, 2].attributes.contains(.dim))
        // A two-line row opens from its first line: its title from the first frame.
        let (tall, tallSource) = makeTable([letters("ABCDE")])
        tallSource.sections[0].rows.insert(row("Y"), at: 2)
        try tall.performBatchUpdates { tall.insertRows(at: [IndexPath(row: 2, section: 0)]) }
        let opening = draw(tall, width: 30, height: 12, at: 0).text.split(separator: "\n").map(String.init)
        #expect(Array(opening[4...6]) == [" detail of B", " Row Y", " Row C"])
    }

    @Test func aRowMovedToAnotherSectionTravelsFromItsOldLineToItsNewOne() throws {
        let (table, source) = makeTable(
            [
                letters("ABC", section: 0, header: "First"),
                letters("DE", section: 1, header: "Second"),
            ],
            rowHeight: 1
        )
        let moved = source.sections[0].rows.remove(at: 0)
        source.sections[1].rows.insert(moved, at: 1)
        table.selectRow(at: IndexPath(row: 0, section: 0))
        try table.performBatchUpdates {
            table.moveRow(at: IndexPath(row: 0, section: 0), to: IndexPath(row: 1, section: 1))
        }
        let times = [0, 0.0625, 0.125, 0.1875, 0.25]
        Golden.check(frames(table, at: times), "animation-move-30x12")
        // The selection travelled with the row.
        #expect(table.selection == IndexPath(row: 1, section: 1))
    }

    @Test func aReloadedRowFlashesInReverseThenSettles() throws {
        let (table, source) = makeTable([letters("ABC")], rowHeight: 1)
        source.sections[0].rows[2].title = "Row C (updated)"
        try table.performBatchUpdates { table.reloadRows(at: [IndexPath(row: 2, section: 0)]) }
        let start = draw(table, width: 30, height: 12, at: 0)
        #expect(start.text.contains("Row C (updated)"))
        #expect(start[1, 3].attributes.isSuperset(of: [.reverse, .bold]))
        let end = draw(table, width: 30, height: 12, at: 0.25)
        #expect(!end[1, 3].attributes.contains(.reverse))
    }

    @Test func aBatchArrivingMidAnimationFinishesTheRunningOneAtOnce() throws {
        let (table, source) = makeTable([letters("ABCDEF")])
        source.sections[0].rows.remove(at: 0)
        try table.performBatchUpdates { table.deleteRows(at: [IndexPath(row: 0, section: 0)]) }
        _ = draw(table, width: 30, height: 12, at: 0)
        _ = draw(table, width: 30, height: 12, at: 0.1)
        #expect(table.isAnimating(at: 0.1))
        source.sections[0].rows.insert(row("Y"), at: 3)
        try table.performBatchUpdates { table.insertRows(at: [IndexPath(row: 3, section: 0)]) }
        // From here the first batch is complete: the frames are those of the insert only.
        Golden.check(frames(table, at: [0.1, 0.225, 0.35]), "animation-interrupted-30x12")
        let first = draw(table, width: 30, height: 12, at: 0.1)
        #expect(!first.text.contains("Row A"))
        #expect(!table.isAnimating(at: 0.35))
    }

    @Test func animatedFalseAppliesAtOnce() throws {
        let (table, source) = makeTable([letters("ABCD")])
        source.sections[0].rows.remove(at: 1)
        try table.performBatchUpdates({ table.deleteRows(at: [IndexPath(row: 1, section: 0)]) }, animated: false)
        #expect(!table.isAnimating(at: 0))
        #expect(!draw(table, width: 30, height: 12, at: 0).text.contains("Row B"))
    }

    @Test func aTableWithAnimationsOffAppliesAtOnce() throws {
        let (table, source) = makeTable([letters("ABCD")])
        table.animatesUpdates = false
        source.sections[0].rows.remove(at: 1)
        try table.performBatchUpdates { table.deleteRows(at: [IndexPath(row: 1, section: 0)]) }
        #expect(!table.isAnimating(at: 0))
    }

    @Test func keysAreHandledDuringAnAnimationAndAScrollFinishesIt() throws {
        let (table, source) = makeTable([letters("ABCDEFGHIJKLMNOP")])
        source.sections[0].rows.remove(at: 3)
        try table.performBatchUpdates { table.deleteRows(at: [IndexPath(row: 3, section: 0)]) }
        _ = draw(table, width: 30, height: 12, at: 0)
        // Moving within the screen keeps the animation going, with the selection drawn on the moving rows.
        table.handle(.down)
        #expect(table.selection == IndexPath(row: 1, section: 0))
        #expect(table.isAnimating(at: 0.1))
        let mid = draw(table, width: 30, height: 12, at: 0.1)
        #expect(mid[0, 3].attributes.contains(.reverse))
        // A scroll ends it at once.
        table.handle(.end)
        #expect(!table.isAnimating(at: 0.1))
    }

    @Test func deletingTheSelectedRowSelectsTheNextOne() throws {
        let (table, source) = makeTable([letters("ABCD")])
        table.selectRow(at: IndexPath(row: 1, section: 0))
        source.sections[0].rows.remove(at: 1)
        try table.performBatchUpdates { table.deleteRows(at: [IndexPath(row: 1, section: 0)]) }
        #expect(table.selection == IndexPath(row: 1, section: 0))
        #expect(source.row(at: table.selection!).title == "Row C")
        // Deleting the last row selects the new last row.
        table.selectRow(at: IndexPath(row: 2, section: 0))
        source.sections[0].rows.remove(at: 2)
        try table.performBatchUpdates { table.deleteRows(at: [IndexPath(row: 2, section: 0)]) }
        #expect(source.row(at: table.selection!).title == "Row C")
    }

    @Test func theSelectedRowKeepsItsLineWhenRowsAreInsertedAbove() throws {
        let (table, source) = makeTable([letters("ABCDEFGHIJKLMNOPQRST")], rowHeight: 1)
        table.selectRow(at: IndexPath(row: 15, section: 0))
        #expect(table.scrollOffset > 0)
        let before = table.layout.rowTop(table.selection!) - table.scrollOffset
        source.sections[0].rows.insert(contentsOf: [row("X"), row("Y")], at: 0)
        try table.performBatchUpdates {
            table.insertRows(at: [IndexPath(row: 0, section: 0), IndexPath(row: 1, section: 0)])
        }
        #expect(source.row(at: table.selection!).title == "Row P")
        #expect(table.layout.rowTop(table.selection!) - table.scrollOffset == before)
    }

    @Test func deletingASectionFadesItsHeaderAndRowsAway() throws {
        let (table, source) = makeTable(
            [
                letters("AB", section: 0, header: "First"),
                letters("CD", section: 1, header: "Second"),
                letters("EF", section: 2, header: "Third"),
            ],
            rowHeight: 1
        )
        source.sections.remove(at: 1)
        try table.performBatchUpdates { table.deleteSections(IndexSet(integer: 1)) }
        Golden.check(frames(table, at: [0, 0.125, 0.25], attributes: true), "animation-delete-section-30x12")
    }
}
