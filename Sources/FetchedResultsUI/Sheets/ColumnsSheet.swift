import Foundation
import SQLiteStore
import TerminalUI

/// The list screen's `C`: every column of the tab's grid, hidden ones too, one a line — its
/// name, type, width, whether it shows and whether it is frozen on the left — each editable
/// here, the grid under the sheet changing as it is edited.
///
/// Keys: `-` or Space shows or hides the column, `+` shows every column, `!` freezes it,
/// `<`/`>` narrow and widen it (`=` back to its measured width), `K`/`J` move it up or down
/// (left or right in the grid), `t` changes its type; Enter goes to it in the grid; Esc back.
final class ColumnsSheet: GridSheet {
    unowned let screen: ListScreen

    init(screen: ListScreen) {
        self.screen = screen
        super.init(
            title: "columns",
            columns: [
                GridColumn("column"), GridColumn("type"), GridColumn("width", alignment: .trailing),
                GridColumn("shown"), GridColumn("frozen"),
            ],
            loop: screen.loop,
            hints: "? help  - show/hide  ! freeze  < > width  K J move  t type  Esc back",
            helpBindings: [
                ("", "Columns of the grid"),
                ("↑/↓  j/k", "move the selection"),
                ("-  Space", "show or hide the column"),
                ("+", "show every column"),
                ("!", "freeze it on the left, or let it scroll"),
                ("<  >  =", "narrow, widen it; = its measured width"),
                ("K  J", "move it up / down (left / right in the grid)"),
                ("t", "its type: integer, real, text, date, datetime, boolean"),
                ("Enter", "go to it in the grid"),
                ("Esc", "back to the list"),
            ]
        )
        table.reloadData()
        let cursor = screen.grid?.index(ofVisibleIndex: screen.table.gridState.cursorColumn) ?? 0
        table.selectRow(at: IndexPath(row: cursor, section: 0))
    }

    private var columns: [ListColumn] { screen.grid?.columns ?? [] }
    private var selectedIndex: Int? { table.selection?.row }

    /// Changes the grid (the screen's, shown under the sheet) and redraws the sheet's rows.
    private func edit(_ change: (inout ListGrid, Int) -> Void) {
        guard var grid = screen.grid, let index = selectedIndex, grid.columns.indices.contains(index) else { return }
        change(&grid, index)
        screen.grid = grid
        table.reloadData()
    }

    override func handleSheetKey(_ event: InputEvent) -> Bool {
        guard let index = selectedIndex else { return false }
        switch event {
        case .character("-"), .character(" "):
            let shown = columns.filter { !$0.isHidden }.count
            if !columns[index].isHidden && shown == 1 {
                statusLine.showMessage("\(columns[index].name) is the only column shown", at: now)
                return true
            }
            edit { grid, i in grid.columns[i].isHidden.toggle() }
        case .character("+"):
            edit { grid, _ in for i in grid.columns.indices { grid.columns[i].isHidden = false } }
        case .character("!"):
            edit { grid, i in grid.columns[i].isFrozen.toggle() }
        case .character("<"), .character(">"):
            let step = event == .character("<") ? -ListScreen.columnWidthStep : ListScreen.columnWidthStep
            let current = shownWidth(of: index)
            edit { grid, i in
                let width = max(1, current + step)
                grid.columns[i].width = width
                if width > grid.columns[i].maximumWidth { grid.columns[i].maximumWidth = width }
            }
        case .character("="):
            edit { grid, i in grid.columns[i].width = nil }
            screen.table.remeasureGridColumns()
        case .character("K"), .character("J"):
            let target = index + (event == .character("K") ? -1 : 1)
            guard columns.indices.contains(target) else { return true }
            edit { grid, i in grid.columns.swapAt(i, target) }
            table.selectRow(at: IndexPath(row: target, section: 0))
        case .character("t"):
            let types = ListScreen.columnTypes
            let picker = ChoicePicker(
                title: "Type of \(columns[index].name)",
                choices: types.map(\.name),
                selectedIndex: types.firstIndex { $0.type == columns[index].type } ?? 0
            )
            picker.onChoose = { [unowned self] choice, _ in
                self.screen.changeType(ofColumnAt: index, to: types[choice].type)
                self.table.reloadData()
            }
            loop.push(picker)
        case .enter:
            guard !columns[index].isHidden, let grid = screen.grid,
                let visible = grid.visibleIndices.firstIndex(of: index)
            else {
                statusLine.showMessage("\(columns[index].name) is hidden: - shows it", at: now)
                return true
            }
            screen.table.gridState.cursorColumn = visible
            loop.remove(self)
        default:
            return false
        }
        return true
    }

    /// The width column `index` is drawn at (its own, or as measured), or for a hidden one its own or its name's.
    private func shownWidth(of index: Int) -> Int {
        let column = columns[index]
        if let width = column.width { return width }
        if let grid = screen.grid, let visible = grid.visibleIndices.firstIndex(of: index) {
            let widths = screen.table.gridColumnWidths
            if visible < widths.count { return widths[visible] }
        }
        return max(1, DisplayWidth.of(column.name))
    }

    // MARK: Rows

    override func numberOfRows(inSection section: Int) -> Int { columns.count }

    override func cell(forRowAt indexPath: IndexPath) -> TableCell {
        let column = columns[indexPath.row]
        let width = column.width.map(String.init) ?? "auto \(shownWidth(of: indexPath.row))"
        return TableCell(
            title: column.name,
            values: [
                column.name, ListScreen.typeName(column.type), width, column.isHidden ? "no" : "yes",
                column.isFrozen ? "yes" : "",
            ]
        )
    }
}
