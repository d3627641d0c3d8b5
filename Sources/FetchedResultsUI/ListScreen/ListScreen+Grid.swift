import FetchedResults
import SQLiteStore
import TerminalUI

extension ListScreen {
    /// A tab's grid as the person arranged it: its columns, whether it shows, and the
    /// column cursor and sideways scroll it had when the person left the tab.
    struct TabGrid {
        var grid: ListGrid
        var showsGrid: Bool
        var state = GridState()
    }

    /// The tab showing's columns as the person arranged them (hidden, frozen, widths);
    /// nil when the tab has no ``ListTab/grid``. Setting it shows the new arrangement
    /// (the column cursor stays on the same position).
    ///
    ///     screen.grid?.columns[2].isHidden = true
    public var grid: ListGrid? {
        get { tabGrid(tabIndex)?.grid }
        set {
            guard let newValue, var current = tabGrid(tabIndex) else { return }
            current.grid = newValue
            tabGrids[tabIndex] = current
            applyTabLayout()
        }
    }

    /// Whether the tab showing is drawn as its grid (true) or as its list of cells; setting
    /// it switches (a tab without a ``ListTab/grid`` is always a list).
    ///
    ///     screen.showsGrid.toggle()   // fetchedtable's `v`
    public var showsGrid: Bool {
        get { tabGrid(tabIndex)?.showsGrid ?? false }
        set {
            guard var current = tabGrid(tabIndex), current.showsGrid != newValue else { return }
            saveGridState()
            current = tabGrids[tabIndex] ?? current
            current.showsGrid = newValue
            tabGrids[tabIndex] = current
            applyTabLayout()
        }
    }

    /// The column under the grid's column cursor (nil when the tab shows as a list):
    /// what a key acting on "this column" acts on.
    public var cursorColumn: ListColumn? {
        guard showsGrid else { return nil }
        return grid?.column(atVisibleIndex: table.gridState.cursorColumn)
    }

    /// `!`: freezes the cursor's column on the left, or lets it scroll again; says which.
    package func toggleFrozenCursorColumn() {
        guard showsGrid, var grid, let column = cursorColumn else { return }
        let frozen = grid.toggleFrozen(atVisibleIndex: table.gridState.cursorColumn)
        self.grid = grid
        let text = frozen ? "\(column.name) stays on the left" : "\(column.name) scrolls with the others"
        statusLine.showMessage(text, at: now)
    }

    /// The keys of a grid: ←/→ `h`/`l` move the column cursor, `!` freezes its column, and the
    /// keys that work on it (``handleColumnKey(_:)``). Taken before the app's own keys; false for
    /// every other key, or in a list.
    func handleGridKey(_ event: InputEvent) -> Bool {
        guard showsGrid else { return false }
        switch event {
        case .left, .right, .character("h"), .character("l"):
            return table.handle(event)
        case .character("!"):
            toggleFrozenCursorColumn()
            return true
        default:
            return handleColumnKey(event)
        }
    }

    /// Tab `index`'s grid state, made from its ``ListTab/grid`` the first time.
    func tabGrid(_ index: Int) -> TabGrid? {
        if let existing = tabGrids[index] { return existing }
        guard configuration.tabs.indices.contains(index), let grid = configuration.tabs[index].grid else { return nil }
        let made = TabGrid(grid: grid, showsGrid: configuration.tabs[index].startsAsGrid)
        tabGrids[index] = made
        return made
    }

    /// Keeps the table's column cursor and scroll with the tab showing (before another shows).
    func saveGridState() {
        guard var current = tabGrids[tabIndex], current.showsGrid else { return }
        current.state = table.gridState
        tabGrids[tabIndex] = current
    }

    /// The cell of an object in the tab showing: its values in the grid's shown columns (the
    /// search's matches in them highlighted), or the tab's own cell in a list; marked while a
    /// change of it waits for its store's answer.
    func cellMaker() -> (ManagedObject) -> TableCell {
        guard let current = tabGrid(tabIndex), current.showsGrid else {
            let cell = tab.cell
            return { [weak self] object in
                guard let self, !self.pendingChanges.isEmpty else { return cell(object) }
                return self.markingPending(cell(object), of: object, visibleKeys: [])
            }
        }
        let grid = current.grid
        let numeric = grid.visibleIndices.map { grid.columns[$0].isNumeric }
        let keys = grid.visibleIndices.map { grid.columns[$0].keyPath }
        return { [weak self] object in
            let values = grid.values(of: object)
            var cell = TableCell(values: values)
            if let text = self?.search?.text, !text.isEmpty {
                cell.highlights = ListScreen.highlights(of: text, in: values, numeric: numeric)
            }
            guard let self, !self.pendingChanges.isEmpty else { return cell }
            return self.markingPending(cell, of: object, visibleKeys: keys)
        }
    }

    /// Where `text` shows in a row's `values` as the grid search matches it: in a column of
    /// text, each place it occurs with ASCII letters in any case (`CONTAINS[c]`); in a column
    /// of numbers, the whole value when it is that number.
    static func highlights(of text: String, in values: [String?], numeric: [Bool]) -> [TableCell.Highlight] {
        let needle = Array(text).map(ListScreen.asciiLowercased)
        var highlights: [TableCell.Highlight] = []
        for (column, value) in values.enumerated() {
            guard let value, !value.isEmpty else { continue }
            if column < numeric.count, numeric[column] {
                if let number = Double(text), Double(value) == number {
                    highlights.append(.init(column: column, range: 0..<value.count))
                }
                continue
            }
            let haystack = Array(value).map(ListScreen.asciiLowercased)
            guard needle.count <= haystack.count else { continue }
            var start = 0
            while start + needle.count <= haystack.count {
                if haystack[start..<(start + needle.count)].elementsEqual(needle) {
                    highlights.append(.init(column: column, range: start..<(start + needle.count)))
                    start += needle.count
                } else {
                    start += 1
                }
            }
        }
        return highlights
    }

    /// `character` with an ASCII capital made small (what `CONTAINS[c]` folds; nothing else).
    private static func asciiLowercased(_ character: Character) -> Character {
        guard let ascii = character.asciiValue, ascii >= 0x41, ascii <= 0x5A else { return character }
        return Character(Unicode.Scalar(ascii | 0x20))
    }

    /// The predicate of `/` in a grid: any column shown holds the text — containing it (ASCII
    /// letters in any case: `CONTAINS[c]`, which a number stored as a number never does), or, in
    /// a column of numbers, equal to it when it is a number.
    func gridSearchPredicate(_ text: String) throws -> FetchPredicate? {
        guard let grid else { return nil }
        var format: [String] = []
        var arguments: [StoreValue] = []
        let number: StoreValue? = Int64(text).map { .integer($0) } ?? Double(text).map { .real($0) }
        for index in grid.visibleIndices {
            let column = grid.columns[index]
            if column.isNumeric, let number {
                format.append("%K == %@")
                arguments += [.text(column.keyPath), number]
            }
            format.append("%K CONTAINS[c] %@")
            arguments += [.text(column.keyPath), .text(text)]
        }
        guard !format.isEmpty else { return nil }
        return try FetchPredicate(format.joined(separator: " OR "), arguments: arguments)
    }

    /// Makes the table show the tab showing as it should: as a grid (one line per row, its
    /// columns) or as a list of the tab's cells at its row height. A grid already showing
    /// keeps its column cursor, unless `restoresCursor` (another tab shows: its own cursor).
    func applyTabLayout(restoresCursor: Bool = false) {
        if let current = tabGrid(tabIndex), current.showsGrid {
            let state = restoresCursor || table.gridColumns == nil ? current.state : table.gridState
            table.rowHeight = 1
            table.gridColumns = current.grid.gridColumns
            table.gridState = state
        } else {
            table.rowHeight = tab.rowHeight
            table.gridColumns = nil
        }
        let cell = cellMaker()
        adapter?.cellForObject = cell
        preview?.cellForObject = cell
    }
}
