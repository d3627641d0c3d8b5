import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI

/// The list screen's `I`: one line per column shown — its type, how many values, NULLs and
/// distinct values, the least and the greatest, and for numbers the mean, median and
/// standard deviation — over the rows the list shows (the tab's predicate and the filter).
///
/// Every figure is exact, read from all the rows (``ColumnSummaries``) on the store's second
/// connection: the sheet shows at once, each column's line fills in when it is read, the title
/// bar says how far the read is, and keys are answered meanwhile. Esc goes back (and stops it).
final class SummarySheet: GridSheet {
    let columns: [ListColumn]
    let summaries: ColumnSummaries
    private var started = false

    init(context: ObjectContext, request: FetchRequest, columns: [ListColumn], loop: TerminalRunLoop) {
        self.columns = columns
        summaries = ColumnSummaries(keyPaths: columns.map(\.keyPath), request: request, context: context)
        super.init(
            title: "summary",
            columns: [
                GridColumn("column", isFrozen: true), GridColumn("type"),
                GridColumn("rows", alignment: .trailing), GridColumn("nulls", alignment: .trailing),
                GridColumn("distinct", alignment: .trailing), GridColumn("min", maximumWidth: 24),
                GridColumn("max", maximumWidth: 24), GridColumn("mean", alignment: .trailing),
                GridColumn("median", alignment: .trailing), GridColumn("stdev", alignment: .trailing),
            ],
            loop: loop,
            hints: "←/→ columns  Esc back  ? help",
            helpBindings: [
                ("", "Summary of every column shown"),
                ("↑/↓  ←/→", "move; ←/→ the figures"),
                ("", "Every figure is exact, read from all the rows shown (the filter too);"),
                ("", "mean, median and stdev (n − 1) are of the values that are numbers."),
                ("Esc", "back to the list"),
                ("q", "quit"),
            ]
        )
        table.reloadData()
        table.selectRow(at: IndexPath(row: 0, section: 0))
    }

    /// Starts the read (call once, before the sheet shows): each summary read, and the progress
    /// of the one being read, are posted to the loop, which draws them.
    func start() {
        summaries.onProgress = loop.poster {}  // the post itself: a frame
        startReading()
    }

    /// Starts the read once the store's second connection is free (tried again a tenth of a second
    /// later while another job holds it, until the sheet is gone).
    private func startReading() {
        guard !isGone else { return }
        started = summaries.start() != .busy
        guard !started else { return }
        let retry = loop.poster { [weak self] in self?.startReading() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { retry() }
    }

    deinit { summaries.cancel() }

    override func willRender(frame: Rect, at time: Double) {
        if let error = summaries.error {
            navigationBar.trailingText = "stopped"
            statusLine.showMessage("Cannot summarize \(error)", at: time, style: .error)
        } else if summaries.isFinished {
            let rows = summaries.summaries.compactMap { $0 }.first?.rows ?? 0
            navigationBar.trailingText = "\(GridSheet.grouped(rows)) row\(rows == 1 ? "" : "s")"
        } else {
            navigationBar.trailingText = started ? "summarizing… \(Int(summaries.progress * 100)) %" : "waiting…"
        }
    }

    override func handle(_ event: InputEvent) -> EventResult {
        switch event {
        case .left, .right, .character("h"), .character("l"):
            return table.handle(event) ? .handled : .ignored
        default:
            return super.handle(event)
        }
    }

    // MARK: Rows

    override func numberOfRows(inSection section: Int) -> Int { columns.count }

    override func cell(forRowAt indexPath: IndexPath) -> TableCell {
        let column = columns[indexPath.row]
        let type = ListScreen.typeName(column.type)
        guard let summary = summaries.summaries[indexPath.row] else {
            return TableCell(title: column.name, values: [column.name, type, "…"])
        }
        func text(_ value: StoreValue) -> String? { value == .null ? nil : DisplayText.of(value, type: column.type) }
        // Figures of numbers, where there are none: left blank (not ∅: nothing is missing).
        func number(_ value: Double?) -> String { value.map(SummarySheet.format) ?? "" }
        return TableCell(
            title: column.name,
            values: [
                column.name, type, GridSheet.grouped(summary.rows), GridSheet.grouped(summary.nulls),
                GridSheet.grouped(summary.distinct), text(summary.minimum), text(summary.maximum),
                number(summary.mean), number(summary.median), number(summary.standardDeviation),
            ]
        )
    }

    /// A figure to six significant digits, without a trailing `.0` on a whole number.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.6g", value)
    }
}
