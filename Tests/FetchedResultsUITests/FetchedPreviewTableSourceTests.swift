import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI
import Testing

/// The five newest of the adapter tests' banks.
private let banks = Array(sampleBanks.prefix(5))

/// The provisional first page: the preview's rows in their sections, then the adapter takes over.
@Suite struct FetchedPreviewTableSourceTests {
    static func cell(_ bank: ManagedObject) -> TableCell {
        TableCell(style: .subtitle, title: bank.string("name") ?? "", detail: bank.string("city"))
    }

    @Test func previewRowsShowInTheirSectionsWithHeadersWithoutCountsAndNoIndex() throws {
        let f = try BankFixture(banks: banks)
        let controller = BankFixture.makeController(context: f.context, byName: false)
        let source = try FetchedPreviewTableSource(
            rows: try controller.previewFirstObjects(limit: 3),
            context: f.context,
            isSectioned: true,
            cellForObject: Self.cell,
            headerTitle: { "\($0) (…)" }
        )
        #expect(source.numberOfSections == 2)
        #expect((0..<2).map { source.numberOfRows(inSection: $0) } == [1, 2])
        #expect(source.titleForHeader(inSection: 0) == "2025 (…)")
        #expect(source.titleForHeader(inSection: 1) == "2023 (…)")
        #expect(source.sectionIndexTitles().isEmpty)
        #expect(source.cell(forRowAt: IndexPath(row: 1, section: 1)).title == "First Bank of Ohio")
        let table = TableView(rowHeight: 2)
        table.dataSource = source
        var canvas = Canvas(width: 40, height: 10)
        table.render(into: &canvas, frame: canvas.bounds, at: 0)
        let lines = canvas.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix(" 2025 (…)"))
        #expect(lines[1].contains("Pulaski Savings Bank"))
        #expect(lines[3].hasPrefix(" 2023 (…)"))
    }

    @Test func theAdapterTakingOverKeepsTheSelectionOnTheSameObject() throws {
        let f = try BankFixture(banks: banks)
        let controller = BankFixture.makeController(context: f.context, byName: false)
        let source = try FetchedPreviewTableSource(
            rows: try controller.previewFirstObjects(limit: 4),
            context: f.context,
            isSectioned: true,
            cellForObject: Self.cell
        )
        #expect(source.titleForHeader(inSection: 0) == "2025")
        let table = TableView(rowHeight: 2)
        table.dataSource = source
        table.selectRow(at: IndexPath(row: 1, section: 1))
        let selected = table.selection.flatMap { source.rowIdentity(at: $0) }
        try controller.performFetch()
        let adapter = FetchedResultsTableAdapter(controller: controller, tableView: table, cellForObject: Self.cell)
        #expect(adapter.selectedObjectID != nil)
        #expect(adapter.selectedObjectID.map(AnyHashable.init) == selected)
        #expect(adapter.selectedObject?.string("name") == "First Bank of Ohio")
    }

    @Test func withoutSectionsEveryRowIsInOneSectionWithoutAHeader() throws {
        let f = try BankFixture(banks: banks)
        var request = FetchRequest(entity: "Bank")
        request.sortDescriptors = [FetchSort("name")]
        let controller = FetchedResultsController(fetchRequest: request, context: f.context)
        let source = try FetchedPreviewTableSource(
            rows: try controller.previewFirstObjects(limit: 10),
            context: f.context,
            isSectioned: false,
            cellForObject: Self.cell
        )
        #expect(source.numberOfSections == 1)
        #expect(source.numberOfRows(inSection: 0) == 5)
        #expect(source.titleForHeader(inSection: 0) == nil)
        #expect(source.cell(forRowAt: IndexPath(row: 0, section: 0)).title == "Citizens Bank")
    }
}
