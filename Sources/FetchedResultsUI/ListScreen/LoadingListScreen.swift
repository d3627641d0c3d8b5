import Foundation
import TerminalUI

/// A list of rows shown while the real list is still being made — the first
/// rows of a file as read, and how far the load has got on the status line
/// ("Loading… 42 % · 120000 rows"). The selection can move meanwhile; the app
/// reads ``selectedRow`` when it swaps the real list in, to keep it — only when
/// ``selectionWasMoved`` (the first row selected by itself is no choice of the
/// person's: the real list then opens at its own top).
///
/// Keys for the list that is coming — `/`, a filter's text, Ctrl-S — are kept, in order, and
/// sent to it by ``handOver(to:)`` once it is on the loop: nothing typed while a file loads is
/// lost. Only the movement keys act here (on the rows shown); `q` and Esc, typed before any
/// kept key, are the loop's (quit; back, which leaves the load).
///
///     let loading = LoadingListScreen(title: "events.csv")
///     loading.rows = preview.map { TableCell(title: $0[0]) }
///     loading.progressText = "Loading… 42 %"
///     loop.push(loading)
///     // … the load is complete: the list is pushed, then
///     loading.handOver(to: loop)   // the loading screen leaves; the keys kept go to the list
public final class LoadingListScreen: View, TableViewDataSource, TableViewDelegate {
    /// The rows shown, top to bottom.
    public var rows: [TableCell] = [] {
        didSet {
            let selected = table.selection
            table.reloadData()
            if selected == nil, !rows.isEmpty { table.selectRow(at: IndexPath(row: 0, section: 0)) }
        }
    }
    /// The right side of the status line: the progress.
    public var progressText = "Loading…"
    let navigationBar: NavigationBar
    /// The bottom line.
    public let statusLine = StatusLine(hints: "loading: the sorted list follows   q quit")
    /// The rows' table.
    public let table = TableView(rowHeight: TableCell.Style.subtitle.lineCount)
    /// Esc: stops what is loading (a query's first run); nil: Esc is the run loop's.
    public var onEscape: (() -> Void)?

    /// A screen titled `title`, with no rows yet.
    public init(title: String) {
        navigationBar = NavigationBar(title: title)
        table.dataSource = self
        table.delegate = self
        table.emptyMessage = "Reading the first rows…"
        table.reloadData()
    }

    /// The selected row's index in ``rows``.
    public var selectedRow: Int? { table.selection?.row }

    /// Whether a key moved the selection (away from the first row the rows selected by themselves).
    public private(set) var selectionWasMoved = false

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        navigationBar.render(into: &canvas, frame: frame.row(0), at: time)
        table.render(into: &canvas, frame: frame.inset(top: 2, bottom: 1), at: time)
        statusLine.trailingText = progressText
        statusLine.render(into: &canvas, frame: frame.row(frame.height - 1), at: time)
    }

    /// The keys typed for the list that is coming, oldest first (see ``handOver(to:)``).
    public private(set) var keptEvents: [InputEvent] = []

    /// The table's movement keys here; Esc to ``onEscape`` when set; `q` and Esc to the loop (quit,
    /// back); every other key (and every key after one kept, so that a filter's text stays whole) is
    /// kept for the list.
    public func handle(_ event: InputEvent) -> EventResult {
        switch event {
        case .resize:
            return moveSelection(event)
        case .mouseWheel, .mouseClick:
            // A place on this screen: nothing for the list to come.
            return keptEvents.isEmpty ? moveSelection(event) : .handled
        case .escape where onEscape != nil:
            // The load's own cancel (a query run): always answered here.
            onEscape?()
            return .handled
        case .character("q"), .escape:
            // The loop's own: `q` quits, Esc goes back (cancels the load).
            if keptEvents.isEmpty { return .ignored }
        case .enter, .right, .character("d"), .delete, .character("f"):
            break
        default:
            if keptEvents.isEmpty, moveSelection(event) == .handled { return .handled }
        }
        keptEvents.append(event)
        return .handled
    }

    /// `event` given to the table: whether it moved or scrolled it.
    private func moveSelection(_ event: InputEvent) -> EventResult {
        let before = table.selection
        guard table.handle(event) else { return .ignored }
        if table.selection != before { selectionWasMoved = true }
        return .handled
    }

    /// Takes this screen off `loop` and sends the keys it kept (``keptEvents``), in order, to
    /// what `loop` shows then — the list that took its place.
    public func handOver(to loop: TerminalRunLoop) {
        loop.remove(self)
        let events = keptEvents
        keptEvents.removeAll()
        for event in events { loop.dispatch(event) }
    }

    // MARK: TableViewDataSource

    public var numberOfSections: Int { rows.isEmpty ? 0 : 1 }
    public func numberOfRows(inSection section: Int) -> Int { rows.count }
    public func cell(forRowAt indexPath: IndexPath) -> TableCell { rows[indexPath.row] }

    // MARK: TableViewDelegate

    public func canDeleteRow(at indexPath: IndexPath) -> Bool { false }
}
