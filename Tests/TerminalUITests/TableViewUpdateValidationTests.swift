import Foundation
import Testing

@testable import TerminalUI

/// Batch updates are checked against the data source by UIKit's rule (TerminalUI.docc/TableViewBatchUpdates.md); an
/// inconsistent batch throws an error naming the section and the counts (as
/// UIKit's exception does) and leaves the table reloaded and consistent.
@Suite struct TableViewUpdateValidationTests {
    /// Sections with the given row counts; row ids are unique.
    private func makeTable(_ counts: [Int]) -> (TableView, ModelDataSource) {
        var id = 0
        let sections = counts.enumerated().map { s, n in
            ModelDataSource.Section(
                id: s,
                title: "S\(s)",
                indexTitle: nil,
                rows: (0..<n).map { _ in
                    defer { id += 1 }
                    return .init(id: id, title: "row \(id)")
                }
            )
        }
        let source = ModelDataSource(sections, style: .value1)
        let table = TableView(rowHeight: 1)
        table.dataSource = source
        _ = draw(table, width: 40, height: 12)
        return (table, source)
    }

    private func newRow(_ id: Int) -> ModelDataSource.Row { .init(id: id, title: "new \(id)") }

    @Test func aRowAddedWithoutAnInsertGivesUIKitsInvalidNumberOfRowsMessage() {
        let (table, source) = makeTable([2, 2, 2, 4])
        source.sections[3].rows.append(newRow(100))
        #expect(
            throws: TableViewError.invalidRowCount(
                section: 3,
                before: 4,
                after: 5,
                inserted: 0,
                deleted: 0,
                movedIn: 0,
                movedOut: 0
            )
        ) {
            try table.performBatchUpdates({})
        }
        let message = TableViewError.invalidRowCount(
            section: 3,
            before: 4,
            after: 5,
            inserted: 0,
            deleted: 0,
            movedIn: 0,
            movedOut: 0
        ).description
        #expect(
            message
                == "Invalid update: invalid number of rows in section 3. The number of rows contained in an existing section after the update (5) must be equal to the number of rows contained in that section before the update (4), plus or minus the number of rows inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out)."
        )
    }

    @Test func theErrorCountsTheBatchsInsertsDeletesAndMoves() {
        let (table, source) = makeTable([3, 3])
        // Data: one row moved from S0 to S1 and one deleted from S1, but the
        // batch forgets the delete.
        let moved = source.sections[0].rows.remove(at: 0)
        source.sections[1].rows.remove(at: 2)
        source.sections[1].rows.insert(moved, at: 0)
        #expect(
            throws: TableViewError.invalidRowCount(
                section: 1,
                before: 3,
                after: 3,
                inserted: 0,
                deleted: 0,
                movedIn: 1,
                movedOut: 0
            )
        ) {
            try table.performBatchUpdates {
                table.moveRow(at: IndexPath(row: 0, section: 0), to: IndexPath(row: 0, section: 1))
            }
        }
    }

    @Test func aSectionAddedWithoutInsertSectionsIsAnInvalidSectionCount() {
        let (table, source) = makeTable([1, 1])
        source.sections.append(.init(id: 9, title: "S9", indexTitle: nil, rows: []))
        do {
            try table.performBatchUpdates({})
            Issue.record("no error")
        } catch {
            #expect(error == .invalidSectionCount(before: 2, after: 3, inserted: 0, deleted: 0))
            #expect(
                error.description.hasPrefix(
                    "Invalid update: invalid number of sections. The number of sections contained in the table view after the update (3) must be equal to the number of sections contained in the table view before the update (2)"
                )
            )
        }
    }

    @Test func deletingARowThatDidNotExistIsOutOfRange() {
        let (table, source) = makeTable([2])
        source.sections[0].rows.removeLast()
        #expect(
            throws: TableViewError.indexOutOfRange(kind: .deleteRow, section: 0, row: 7, sectionCount: 1, rowCount: 2)
        ) {
            try table.performBatchUpdates { table.deleteRows(at: [IndexPath(row: 7, section: 0)]) }
        }
        let message = TableViewError.indexOutOfRange(kind: .deleteRow, section: 0, row: 7, sectionCount: 1, rowCount: 2)
            .description
        #expect(
            message
                == "Invalid update: attempt to delete row 7 from section 0, which only contains 2 rows before the update."
        )
    }

    @Test func insertingBeyondTheNewCountIsOutOfRangeInNewCoordinates() {
        let (table, source) = makeTable([2])
        source.sections[0].rows.append(newRow(50))
        #expect(
            throws: TableViewError.indexOutOfRange(kind: .insertRow, section: 0, row: 3, sectionCount: 1, rowCount: 3)
        ) {
            try table.performBatchUpdates { table.insertRows(at: [IndexPath(row: 3, section: 0)]) }
        }
    }

    @Test func aRowInASectionThatDoesNotExistIsOutOfRange() {
        let (table, _) = makeTable([2])
        #expect(
            throws: TableViewError.indexOutOfRange(kind: .reloadRow, section: 4, row: 0, sectionCount: 1, rowCount: nil)
        ) {
            try table.performBatchUpdates { table.reloadRows(at: [IndexPath(row: 0, section: 4)]) }
        }
    }

    @Test func deletingASectionThatDidNotExistIsOutOfRange() {
        let (table, _) = makeTable([2, 2])
        #expect(
            throws: TableViewError.indexOutOfRange(
                kind: .deleteSection,
                section: 5,
                row: nil,
                sectionCount: 2,
                rowCount: nil
            )
        ) {
            try table.performBatchUpdates { table.deleteSections(IndexSet(integer: 5)) }
        }
    }

    @Test func deletingTheSameRowTwiceIsADuplicate() {
        let (table, source) = makeTable([3])
        source.sections[0].rows.remove(at: 1)
        #expect(
            throws: TableViewError.duplicateOperation(kind: .deleteRow, conflictsWith: .deleteRow, section: 0, row: 1)
        ) {
            try table.performBatchUpdates {
                table.deleteRows(at: [IndexPath(row: 1, section: 0), IndexPath(row: 1, section: 0)])
            }
        }
    }

    @Test func deletingAndReloadingOneRowIsADuplicate() {
        let (table, source) = makeTable([3])
        source.sections[0].rows.remove(at: 1)
        #expect(
            throws: TableViewError.duplicateOperation(kind: .reloadRow, conflictsWith: .deleteRow, section: 0, row: 1)
        ) {
            try table.performBatchUpdates {
                table.deleteRows(at: [IndexPath(row: 1, section: 0)])
                table.reloadRows(at: [IndexPath(row: 1, section: 0)])
            }
        }
    }

    @Test func movingADeletedRowIsADuplicate() {
        let (table, source) = makeTable([3])
        source.sections[0].rows.remove(at: 0)
        #expect(
            throws: TableViewError.duplicateOperation(
                kind: .moveRowSource,
                conflictsWith: .deleteRow,
                section: 0,
                row: 0
            )
        ) {
            try table.performBatchUpdates {
                table.deleteRows(at: [IndexPath(row: 0, section: 0)])
                table.moveRow(at: IndexPath(row: 0, section: 0), to: IndexPath(row: 1, section: 0))
            }
        }
    }

    @Test func twoInsertsAtOneIndexPathAreADuplicate() {
        let (table, source) = makeTable([1])
        source.sections[0].rows.insert(contentsOf: [newRow(7), newRow(8)], at: 0)
        #expect(
            throws: TableViewError.duplicateOperation(kind: .insertRow, conflictsWith: .insertRow, section: 0, row: 0)
        ) {
            try table.performBatchUpdates {
                table.insertRows(at: [IndexPath(row: 0, section: 0), IndexPath(row: 0, section: 0)])
            }
        }
    }

    @Test func aMoveIntoAnInsertedRowsPlaceIsADuplicate() {
        let (table, source) = makeTable([3])
        let row = source.sections[0].rows.remove(at: 0)
        source.sections[0].rows.insert(row, at: 2)
        #expect(
            throws: TableViewError.duplicateOperation(
                kind: .insertRow,
                conflictsWith: .moveRowDestination,
                section: 0,
                row: 2
            )
        ) {
            try table.performBatchUpdates {
                table.moveRow(at: IndexPath(row: 0, section: 0), to: IndexPath(row: 2, section: 0))
                table.insertRows(at: [IndexPath(row: 2, section: 0)])
            }
        }
    }

    @Test func rowOperationsInsideAReloadedSectionAreADuplicate() {
        let (table, _) = makeTable([3])
        #expect(
            throws: TableViewError.duplicateOperation(
                kind: .reloadRow,
                conflictsWith: .reloadSection,
                section: 0,
                row: 1
            )
        ) {
            try table.performBatchUpdates {
                table.reloadSections(IndexSet(integer: 0))
                table.reloadRows(at: [IndexPath(row: 1, section: 0)])
            }
        }
    }

    @Test func endUpdatesWithoutBeginUpdatesThrows() {
        let (table, _) = makeTable([1])
        #expect(throws: TableViewError.endUpdatesWithoutBeginUpdates) { try table.endUpdates() }
    }

    @Test func afterAnInvalidBatchTheTableHasReloadedAndMatchesTheDataSource() {
        let (table, source) = makeTable([2, 2])
        source.sections[1].rows.append(newRow(60))
        source.sections[1].rows.append(newRow(61))
        #expect(throws: TableViewError.self) { try table.performBatchUpdates({}) }
        #expect(table.lastUpdateError != nil)
        #expect(table.numberOfRows(inSection: 1) == 4)
        let canvas = draw(table, width: 40, height: 12)
        #expect(canvas.text.contains("new 61"))
        #expect(table.isAnimating(at: 0) == false)
        // The next, valid batch works from the reloaded state.
        source.sections[1].rows.removeLast()
        try? table.performBatchUpdates { table.deleteRows(at: [IndexPath(row: 3, section: 1)]) }
        #expect(table.lastUpdateError == nil)
        #expect(table.numberOfRows(inSection: 1) == 3)
    }

    @Test func deletingTheLastRowOfASectionWithTheSectionIsValid() {
        // As a fetched-results controller reports it: delete object + delete section.
        let (table, source) = makeTable([2, 1, 2])
        source.sections.remove(at: 1)
        #expect(throws: Never.self) {
            try table.performBatchUpdates {
                table.deleteRows(at: [IndexPath(row: 0, section: 1)])
                table.deleteSections(IndexSet(integer: 1))
            }
        }
        #expect(table.numberOfSections == 2)
    }

    @Test func insertingASectionWithItsFirstRowIsValid() {
        let (table, source) = makeTable([2, 2])
        source.sections.insert(.init(id: 5, title: "S5", indexTitle: nil, rows: [newRow(70)]), at: 1)
        #expect(throws: Never.self) {
            try table.performBatchUpdates {
                table.insertSections(IndexSet(integer: 1))
                table.insertRows(at: [IndexPath(row: 0, section: 1)])
            }
        }
        #expect(table.numberOfRows(inSection: 1) == 1)
    }

    @Test func aSectionKeyChangeMovesTheRowIntoANewSectionAndDeletesTheEmptiedOne() {
        // Rule 5 of FetchedResults.docc/ChangeBatches.md: S1's only row moves to a new section after S2; S1 is deleted.
        let (table, source) = makeTable([2, 1, 2])
        table.selectRow(at: IndexPath(row: 0, section: 1))
        let moved = source.sections[1].rows[0]
        source.sections.remove(at: 1)
        source.sections.append(.init(id: 9, title: "S9", indexTitle: nil, rows: [moved]))
        #expect(throws: Never.self) {
            try table.performBatchUpdates {
                table.deleteSections(IndexSet(integer: 1))
                table.insertSections(IndexSet(integer: 2))
                table.moveRow(at: IndexPath(row: 0, section: 1), to: IndexPath(row: 0, section: 2))
            }
        }
        #expect(table.selection == IndexPath(row: 0, section: 2))
    }

    @Test func aSingleOperationOutsideABatchIsAppliedAtOnce() {
        let (table, source) = makeTable([2])
        source.sections[0].rows.insert(newRow(80), at: 0)
        table.insertRows(at: [IndexPath(row: 0, section: 0)])
        #expect(table.numberOfRows(inSection: 0) == 3)
        #expect(table.lastUpdateError == nil)
        source.sections[0].rows.insert(newRow(81), at: 0)
        table.deleteRows(at: [IndexPath(row: 0, section: 0)])  // wrong: it is an insert
        #expect(table.lastUpdateError != nil)
        #expect(table.numberOfRows(inSection: 0) == 4)
    }

    @Test func nestedBatchesApplyAtTheOutermostEnd() throws {
        let (table, source) = makeTable([2])
        table.beginUpdates()
        table.beginUpdates()
        source.sections[0].rows.append(newRow(90))
        table.insertRows(at: [IndexPath(row: 2, section: 0)])
        try table.endUpdates()
        #expect(table.numberOfRows(inSection: 0) == 2)
        try table.endUpdates()
        #expect(table.numberOfRows(inSection: 0) == 3)
    }
}
