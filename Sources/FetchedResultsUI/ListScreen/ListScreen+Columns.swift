import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI

// Work on the grid's column under the cursor (VisiData's keys where they do not clash
// with the list's): hide it (`-`), show every column again (`+`), move it (`H`/`L`),
// narrow or widen it (`<`/`>`), sort by it (`[`/`]`), and the sheets of the columns
// (`C`), of its values' frequency (`F`) and of a summary of every column (`I`).

extension ListScreen {
    /// How many cells `<` and `>` narrow or widen a column by.
    static let columnWidthStep = 2

    /// The grid keys that act on a column; false for any other key.
    func handleColumnKey(_ event: InputEvent) -> Bool {
        guard case .character(let key) = event else { return false }
        switch key {
        case "-": hideCursorColumn()
        case "+": showAllColumns()
        case "H": moveCursorColumn(by: -1)
        case "L": moveCursorColumn(by: 1)
        case "<": resizeCursorColumn(by: -ListScreen.columnWidthStep)
        case ">": resizeCursorColumn(by: ListScreen.columnWidthStep)
        case "[": sortByCursorColumn(ascending: true)
        case "]": sortByCursorColumn(ascending: false)
        case "F": showFrequencySheet()
        case "C": showColumnsSheet()
        case "I": showSummarySheet()
        case "t": showTypePicker()
        default: return false
        }
        return true
    }

    /// `-`: leaves the cursor's column out of the grid (the cursor goes to the next one); the
    /// last column shown stays.
    func hideCursorColumn() {
        guard var grid, let column = cursorColumn else { return }
        guard grid.visibleIndices.count > 1, let index = grid.index(ofVisibleIndex: table.gridState.cursorColumn)
        else {
            statusLine.showMessage("\(column.name) is the only column shown", at: now)
            return
        }
        grid.columns[index].isHidden = true
        self.grid = grid
        statusLine.showMessage("\(column.name) hidden — + shows every column, C lists them", at: now)
    }

    /// `+`: shows every column again.
    func showAllColumns() {
        guard var grid else { return }
        let hidden = grid.columns.filter(\.isHidden).count
        guard hidden > 0 else {
            statusLine.showMessage("Every column shows", at: now)
            return
        }
        for i in grid.columns.indices { grid.columns[i].isHidden = false }
        self.grid = grid
        statusLine.showMessage("\(hidden) hidden column\(hidden == 1 ? "" : "s") shown again", at: now)
    }

    /// `H`/`L`: moves the cursor's column one place left or right (among the frozen columns,
    /// or among the others); the cursor stays on it.
    func moveCursorColumn(by delta: Int) {
        guard var grid, let index = grid.index(ofVisibleIndex: table.gridState.cursorColumn) else { return }
        let order = grid.displayOrder
        guard let position = order.firstIndex(of: index), grid.move(columnAt: index, by: delta) else { return }
        // The column is now where its neighbour in the drawn order was.
        let moved = order[position + delta.signum()]
        self.grid = grid
        if let visible = grid.visibleIndices.firstIndex(of: moved) { table.gridState.cursorColumn = visible }
    }

    /// `<`/`>`: narrows or widens the cursor's column by `delta` cells (at least 1; past its
    /// measured cap, so a long value can be read whole).
    func resizeCursorColumn(by delta: Int) {
        let cursor = table.gridState.cursorColumn
        guard var grid, let index = grid.index(ofVisibleIndex: cursor) else { return }
        let widths = table.gridColumnWidths
        let current = cursor < widths.count ? widths[cursor] : grid.columns[index].width ?? 1
        let width = max(1, current + delta)
        grid.columns[index].width = width
        if width > grid.columns[index].maximumWidth { grid.columns[index].maximumWidth = width }
        self.grid = grid
    }

    /// `[`/`]`: the tab ordered by the cursor's column (``ListScreenConfiguration/sortByColumn``,
    /// else that column alone, after the section key when the tab has sections); the list
    /// shows its top.
    func sortByCursorColumn(ascending: Bool) {
        guard let column = cursorColumn else { return }
        let direction = ascending ? "ascending" : "descending"
        reconfigureAtTop(describing: "sort by \(column.name)") { [configuration] tab in
            if let sort = configuration.sortByColumn {
                sort(column, ascending, &tab)
                return
            }
            var sorts = [FetchSort(column.keyPath, ascending: ascending)]
            if let section = tab.sectionNameKeyPath, section != column.keyPath {
                sorts.insert(FetchSort(section, ascending: tab.sortDescriptors.first?.ascending ?? true), at: 0)
            }
            tab.sortDescriptors = sorts
        }
        if !statusLine.isShowingError(at: now) {
            statusLine.showMessage("Sorted by \(column.name), \(direction)", at: now)
        }
    }

    /// The rows the list shows, as a request: the tab's entity, its predicate and the filter.
    var shownRowsRequest: FetchRequest {
        var request = tab.fetchRequest(filter: filter)
        request.sortDescriptors = []
        return request
    }

    /// `F`: the frequency sheet of the cursor's column (``FrequencySheet``): its values, most
    /// frequent first, live; Enter filters the list to one.
    func showFrequencySheet() {
        guard let column = cursorColumn else { return }
        let sheet = FrequencySheet(
            context: context,
            request: shownRowsRequest,
            column: column,
            loop: loop,
            refetchesInBackgroundOnReset: tab.refetchesInBackgroundOnReset,
            animated: configuration.animated
        )
        sheet.onChoose = { [unowned self] keyPath, value in self.filter(keyPath: keyPath, to: value, column: column) }
        sheet.start()
        loop.push(sheet)
    }

    /// Narrows the filter in force to the rows whose `keyPath` holds `value` (Enter in the frequency sheet).
    func filter(keyPath: String, to value: StoreValue, column: ListColumn) {
        do {
            let condition = try FetchPredicate("%K == %@", arguments: [.text(keyPath), value])
            let text = ListScreen.predicateText(keyPath: keyPath, value: value)
            let combined = filter.map { $0.and(condition) } ?? condition
            try applyFilter(combined, text: filterText.isEmpty ? text : "\(filterText) AND \(text)")
            let count = adapter.controller.numberOfObjects
            statusLine.showMessage(
                "\(count) \(count == 1 ? tab.noun.singular : tab.noun.plural) where \(text) — Esc shows them all",
                at: now
            )
        } catch {
            statusLine.showMessage("Cannot filter by \(column.name): \(error)", at: now, duration: 8, style: .error)
        }
    }

    /// `keyPath == value` as the filter line shows it (a name that is not a plain key path in double quotes).
    static func predicateText(keyPath: String, value: StoreValue) -> String {
        let plain = keyPath.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        let name = plain ? keyPath : "\"" + keyPath.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        switch value {
        case .null: return "\(name) == nil"
        case .integer(let i): return "\(name) == \(i)"
        case .real(let d): return "\(name) == \(d)"
        case .text(let text): return "\(name) == '\(text.replacingOccurrences(of: "'", with: "''"))'"
        case .blob: return "\(name) == \(DisplayText.of(value))"
        }
    }

    /// `C`: the sheet of every column (``ColumnsSheet``), where each can be shown, hidden, frozen,
    /// moved, resized and typed.
    func showColumnsSheet() {
        guard grid != nil else { return }
        loop.push(ColumnsSheet(screen: self))
    }

    /// `I`: the summary of every column shown (``SummarySheet``), computed in the background.
    func showSummarySheet() {
        guard let grid else { return }
        let columns = grid.visibleIndices.map { grid.columns[$0] }
        let sheet = SummarySheet(context: context, request: shownRowsRequest, columns: columns, loop: loop)
        sheet.start()
        loop.push(sheet)
    }

    /// `t`: a picker of the cursor column's type.
    func showTypePicker() {
        guard let column = cursorColumn, let index = grid?.index(ofVisibleIndex: table.gridState.cursorColumn)
        else { return }
        let types = ListScreen.columnTypes
        let picker = ChoicePicker(
            title: "Type of \(column.name)",
            choices: types.map(\.name),
            selectedIndex: types.firstIndex { $0.type == column.type } ?? 0
        )
        picker.onChoose = { [unowned self] choice, _ in self.changeType(ofColumnAt: index, to: types[choice].type) }
        loop.push(picker)
    }

    /// The types a column can be given, as the pickers and the columns sheet name them.
    static let columnTypes: [(name: String, type: AttributeType)] = [
        ("integer", .integer), ("real", .real), ("text", .text), ("date", .date), ("datetime", .dateTime),
        ("boolean", .bool),
    ]

    /// The name of `type` as ``columnTypes`` says it ("text" for an unknown type).
    static func typeName(_ type: AttributeType?) -> String {
        columnTypes.first { $0.type == type }?.name ?? "text"
    }

    /// Gives the column at `index` of the grid's columns `type`: how its values read and line up,
    /// and — through ``ListScreenConfiguration/retypeColumn`` — what the app does with the data.
    func changeType(ofColumnAt index: Int, to type: AttributeType) {
        guard var grid, grid.columns.indices.contains(index) else { return }
        let column = grid.columns[index]
        guard column.type != type else { return }
        grid.columns[index].type = type
        self.grid = grid
        table.remeasureGridColumns()
        if let retype = configuration.retypeColumn {
            retype(grid.columns[index], self)
        } else {
            statusLine.showMessage("\(column.name) reads as \(ListScreen.typeName(type))", at: now)
        }
    }
}

extension StatusLine {
    /// Whether an error message shows at `time`.
    func isShowingError(at time: Double) -> Bool { message(at: time)?.style == .error }
}
