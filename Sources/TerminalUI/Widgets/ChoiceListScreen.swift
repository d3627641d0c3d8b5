import Foundation

/// A whole screen listing things to open — the tables of a database with their
/// row counts — one a line (`name` left, its detail right and dim). Enter or →
/// opens the selected one (``onChoose``); the screen it pushes returns here with
/// Esc. `?` shows its keys, `q` quits (the run loop's fallback).
///
///     let list = ChoiceListScreen(title: "school.sqlite", items: [
///         .init(title: "student", detail: "412 rows"),
///         .init(title: "subject", detail: "view · 12 rows"),
///     ], loop: loop)
///     list.onChoose = { index in loop.push(screen(for: index)) }
///     loop.push(list)
public final class ChoiceListScreen: View, TableViewDataSource, TableViewDelegate {
    /// One line of the list.
    public struct Item: Equatable, Sendable {
        /// The name (left).
        public var title: String
        /// What to know about it (right, dim): "412 rows".
        public var detail: String?

        /// An item `title`, with `detail`.
        public init(title: String, detail: String? = nil) {
            self.title = title
            self.detail = detail
        }
    }

    /// The items, top to bottom.
    public var items: [Item] { didSet { table.reloadData() } }
    /// Called with the index Enter chose.
    public var onChoose: ((Int) -> Void)?
    /// The help overlay's lines for `?` (the screen's own keys by default).
    public var helpBindings: [(keys: String, description: String)] = [
        ("↑/↓  j/k", "move the selection"),
        ("PgUp/PgDn  Home/End", "page, first / last"),
        ("Enter/→", "open it (Esc returns here)"),
        ("?  F1", "this help"),
        ("q", "quit"),
    ]
    let navigationBar: NavigationBar
    /// The bottom line (hints and messages).
    public let statusLine: StatusLine
    /// The table of the items, one row each (one line per row).
    public let table = TableView(rowHeight: TableCell.Style.value1.lineCount)

    /// The run loop its help overlay goes on.
    public weak var loop: TerminalRunLoop?

    /// A screen titled `title` listing `items` on `loop` (not pushed yet); `hints` on the status line.
    public init(title: String, items: [Item], loop: TerminalRunLoop?, hints: String = "Enter open  ? help  q quit") {
        self.items = items
        self.loop = loop
        navigationBar = NavigationBar(title: title)
        statusLine = StatusLine(hints: hints)
        table.dataSource = self
        table.delegate = self
        table.reloadData()
        table.selectRow(at: items.isEmpty ? nil : IndexPath(row: 0, section: 0))
    }

    /// The index of the selected item.
    public var selectedIndex: Int? { table.selection?.row }

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        navigationBar.render(into: &canvas, frame: frame.row(0), at: time)
        table.render(into: &canvas, frame: frame.inset(top: 1, bottom: 1), at: time)
        if let selected = selectedIndex { statusLine.trailingText = "\(selected + 1)/\(items.count)" }
        statusLine.render(into: &canvas, frame: frame.row(frame.height - 1), at: time)
    }

    public func handle(_ event: InputEvent) -> EventResult {
        switch event {
        case .character("?"), .function(1):
            // Its own help: the run loop's help bindings belong to the screen last opened over it.
            loop?.push(HelpOverlay(bindings: helpBindings))
            return .handled
        case .character("d"), .delete:
            return .handled  // nothing to delete here
        default:
            return table.handle(event) ? .handled : .ignored
        }
    }

    public func nextWakeTime(after time: Double) -> Double? { statusLine.nextWakeTime(after: time) }

    // MARK: TableViewDataSource

    public var numberOfSections: Int { items.isEmpty ? 0 : 1 }
    public func numberOfRows(inSection section: Int) -> Int { items.count }
    public func cell(forRowAt indexPath: IndexPath) -> TableCell {
        let item = items[indexPath.row]
        return TableCell(style: .value1, title: item.title, detail: item.detail, accessory: .disclosureIndicator)
    }

    // MARK: TableViewDelegate

    public func didSelectRow(at indexPath: IndexPath) { onChoose?(indexPath.row) }
    public func canDeleteRow(at indexPath: IndexPath) -> Bool { false }
}
