import Foundation
import TerminalUI

/// A whole screen listing things to open — the tables of a database with their
/// row counts — one a line (`name` left, its detail right and dim). Enter or →
/// opens the selected one (``onChoose``); the screen it pushes returns here with
/// Esc. `/` finds a name as it is typed (any part of it, any case; `n`/`N` the
/// next and previous), for a list of a thousand tables. `?` shows its keys, `q`
/// quits (the run loop's fallback).
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
    package var items: [Item] { didSet { table.reloadData() } }
    /// Called with the index Enter chose.
    public var onChoose: ((Int) -> Void)?
    /// Offered the keys the list does not take (`:` for the app's query line); true: taken.
    package var onKey: ((InputEvent) -> Bool)?
    /// The help overlay's lines for `?` (the screen's own keys by default).
    package var helpBindings: [(keys: String, description: String)] = [
        ("↑/↓  j/k", "move the selection"),
        ("PgUp/PgDn  Home/End", "page, first / last"),
        ("Enter/→", "open it (Esc returns here)"),
        ("/", "find a name as you type; Enter keeps it, Esc goes back"),
        ("n  N", "next / previous name found"),
        ("?  F1", "this help"),
        ("q", "quit"),
    ]
    let navigationBar: NavigationBar
    /// The bottom line (hints and messages).
    package let statusLine: StatusLine
    /// The table of the items, one row each (one line per row).
    package let table = TableView(rowHeight: TableCell.Style.value1.lineCount)

    /// The run loop its help overlay goes on.
    package weak var loop: TerminalRunLoop?

    /// The text `/` is finding, while it is typed: the selection before, and the status line's hints.
    private var finding: (text: String, selectionBefore: Int?, hints: String)?
    /// The text last found, for `n` and `N`.
    private var lastFound = ""

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
    package var selectedIndex: Int? { table.selection?.row }

    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        navigationBar.render(into: &canvas, frame: frame.row(0), at: time)
        table.render(into: &canvas, frame: frame.inset(top: 1, bottom: 1), at: time)
        if let selected = selectedIndex { statusLine.trailingText = "\(selected + 1)/\(items.count)" }
        statusLine.render(into: &canvas, frame: frame.row(frame.height - 1), at: time)
    }

    public func handle(_ event: InputEvent) -> EventResult {
        if finding != nil { return handleFinding(event) }
        switch event {
        case .character("/"):
            finding = ("", selectedIndex, statusLine.hints)
            showFinding()
            return .handled
        case .character("n"), .character("N"):
            select(
                firstMatch(of: lastFound, from: selectedIndex.map { $0 + 1 } ?? 0, forward: event == .character("n"))
            )
            return .handled
        case .character("?"), .function(1):
            // Its own help: the run loop's help bindings belong to the screen last opened over it.
            loop?.push(HelpOverlay(bindings: helpBindings))
            return .handled
        case .character("d"), .delete:
            return .handled  // nothing to delete here
        default:
            if table.handle(event) { return .handled }
            return onKey?(event) == true ? .handled : .ignored
        }
    }

    public func nextWakeTime(after time: Double) -> Double? { statusLine.nextWakeTime(after: time) }

    // MARK: Finding

    /// A key while `/` finds: typed text selects the first name holding it (from the selection
    /// before), Backspace takes a character back, Enter keeps the selection, Esc restores it.
    private func handleFinding(_ event: InputEvent) -> EventResult {
        guard var current = finding else { return .ignored }
        switch event {
        case .character(let character):
            current.text.append(character)
        case .backspace:
            guard !current.text.isEmpty else { return .handled }
            current.text.removeLast()
        case .enter:
            endFinding(keeping: true)
            return .handled
        case .escape:
            endFinding(keeping: false)
            return .handled
        default:
            return .handled
        }
        finding = current
        lastFound = current.text
        if !current.text.isEmpty {
            select(firstMatch(of: current.text, from: current.selectionBefore ?? 0, forward: true))
        }
        showFinding()
        return .handled
    }

    private func endFinding(keeping: Bool) {
        guard let current = finding else { return }
        finding = nil
        statusLine.hints = current.hints
        if !keeping { select(current.selectionBefore) }
    }

    private func showFinding() {
        guard let current = finding else { return }
        let found = current.text.isEmpty || firstMatch(of: current.text, from: 0, forward: true) != nil
        statusLine.hints = "/\(current.text)" + (found ? "" : "  (no name holds it)") + "    Enter keep  Esc back"
    }

    /// The index of the first item (from `start`, wrapping round) whose title holds `text`, any case.
    private func firstMatch(of text: String, from start: Int, forward: Bool) -> Int? {
        guard !text.isEmpty, !items.isEmpty else { return nil }
        let count = items.count
        for step in 0..<count {
            let index = forward ? (start + step) % count : ((start - 2 - step) % count + 2 * count) % count
            if items[index].title.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil {
                return index
            }
        }
        return nil
    }

    private func select(_ index: Int?) {
        guard let index, index < items.count else { return }
        table.selectRow(at: IndexPath(row: index, section: 0))
    }

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
