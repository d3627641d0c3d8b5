import Foundation
import TerminalUI

/// What a sheet of the list screen has in common (the columns `C`, the frequency `F`
/// and the summary `I` of a column): a title bar, a table shown as a grid of its own
/// columns, and a status line of hints; `?` its own help, Esc back to the list. The
/// sheet supplies its rows (``TableViewDataSource``) and its keys (``handleSheetKey(_:)``).
class GridSheet: View, TableViewDataSource, TableViewDelegate {
    unowned let loop: TerminalRunLoop
    let navigationBar: NavigationBar
    let statusLine: StatusLine
    let table = TableView(rowHeight: 1)
    /// The sheet's keys, for `?`.
    var helpBindings: [(keys: String, description: String)]

    init(
        title: String,
        columns: [GridColumn],
        loop: TerminalRunLoop,
        hints: String,
        helpBindings: [(keys: String, description: String)]
    ) {
        self.loop = loop
        navigationBar = NavigationBar(title: title)
        statusLine = StatusLine(hints: hints)
        self.helpBindings = helpBindings
        table.gridColumns = columns
        table.showsSectionIndex = false
        table.dataSource = self
        table.delegate = self
    }

    var now: Double { loop.clock.now }
    /// Whether the sheet was drawn (it is on the loop, or was).
    private(set) var wasShown = false
    /// Whether the sheet was drawn and has left the loop since.
    var isGone: Bool { wasShown && !loop.contains(self) }

    /// The sheet's own keys, before the table's; true when the key was taken.
    func handleSheetKey(_ event: InputEvent) -> Bool { false }

    /// Called before each frame (the sheet's moment to update its bars and counts).
    func willRender(frame: Rect, at time: Double) {}

    func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        wasShown = true
        willRender(frame: frame, at: time)
        navigationBar.render(into: &canvas, frame: frame.row(0), at: time)
        table.render(into: &canvas, frame: frame.inset(top: 1, bottom: 1), at: time)
        statusLine.render(into: &canvas, frame: frame.row(frame.height - 1), at: time)
    }

    func handle(_ event: InputEvent) -> EventResult {
        if handleSheetKey(event) { return .handled }
        switch event {
        case .character("?"), .function(1):
            loop.push(HelpOverlay(bindings: helpBindings))
            return .handled
        case .escape:
            return .dismiss
        case .character("d"), .delete:
            return .handled  // a sheet deletes nothing
        default:
            return table.handle(event) ? .handled : .ignored
        }
    }

    func needsTick(at time: Double) -> Bool { table.isAnimating(at: time) }

    func nextWakeTime(after time: Double) -> Double? { statusLine.nextWakeTime(after: time) }

    // MARK: TableViewDataSource (the sheet's rows)

    var numberOfSections: Int { 1 }
    func numberOfRows(inSection section: Int) -> Int { 0 }
    func cell(forRowAt indexPath: IndexPath) -> TableCell { TableCell(values: []) }
    func rowIdentity(at indexPath: IndexPath) -> AnyHashable? { nil }
    func indexPath(forRowIdentity identity: AnyHashable) -> IndexPath? { nil }

    // MARK: TableViewDelegate

    func didSelectRow(at indexPath: IndexPath) {}
    func canDeleteRow(at indexPath: IndexPath) -> Bool { false }

    /// "1,234,567": a count with its thousands grouped.
    static func grouped(_ count: Int) -> String {
        var digits = String(count.magnitude)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return count < 0 ? "-" + digits : digits
    }
}
