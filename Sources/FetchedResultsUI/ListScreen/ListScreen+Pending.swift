import FetchedResults
import SQLiteStore
import TerminalUI

/// What of a row was sent to a store that has not answered yet: the row itself (a delete sent
/// to a server, ``ListScreenConfiguration/deleteIsAnsweredLater``) or some of its cells (edits
/// sent by ``ListScreenConfiguration/saveCell``, each with the value typed, shown until then).
struct PendingChange {
    /// A cell sent: the text of the value sent (nil: NULL), and the editor's text (kept for a refusal).
    struct Cell {
        var sent: String?
        var typed: String
    }

    var isWholeRow = false
    /// The cells sent, by key path.
    var cells: [String: Cell] = [:]
}

extension ListScreen {
    /// The store answered the cell edit ``ListScreenConfiguration/saveCell`` sent
    /// (``ListScreenConfiguration/cellEditIsAnsweredLater``) of row `id`'s `key`: the cell's mark
    /// goes and it shows what the store holds. With a `refusal` (the
    /// server's NOT NULL, CHECK, a text not of the column's type), the cell editor opens again on
    /// that cell holding the text typed, and the status line says `Not saved: <refusal>` — Enter
    /// sends it again, Esc discards it. A conflict is no refusal to fix: pass nil and say it.
    ///
    ///     screen.cellSaveAnswered(row: id, key: "price", refusal: "CHECK — price must be positive")
    public func cellSaveAnswered(row id: ObjectID, key: String, refusal: String? = nil) {
        let typed = pendingChanges[id]?.cells.removeValue(forKey: key)
        if let change = pendingChanges[id], !change.isWholeRow, change.cells.isEmpty { pendingChanges[id] = nil }
        guard let refusal else { return }
        statusLine.showMessage("Not saved: \(refusal)", at: now, duration: 8, style: .error)
        guard cellEdit == nil, let typed else { return }
        reopenCellEdit(row: id, key: key, text: typed.typed)
    }

    /// The store answered the delete of row `id` sent on its way
    /// (``ListScreenConfiguration/deleteIsAnsweredLater``): the row's mark goes (a refused
    /// delete leaves the row as it was).
    ///
    ///     screen.deleteAnswered(row: id)
    public func deleteAnswered(row id: ObjectID) {
        pendingChanges[id]?.isWholeRow = false
        if pendingChanges[id]?.cells.isEmpty == true { pendingChanges[id] = nil }
    }

    /// Marks row `id` as deleted on a store that has not answered yet.
    func markPendingDelete(of id: ObjectID) {
        pendingChanges[id, default: PendingChange()].isWholeRow = true
    }

    /// Marks row `id`'s cell `key` as sent with the value `sent` (nil: NULL) from the editor's
    /// text `typed`, not answered yet.
    func markPendingEdit(of id: ObjectID, key: String, sent: String?, typed: String) {
        pendingChanges[id, default: PendingChange()].cells[key] = PendingChange.Cell(sent: sent, typed: typed)
    }

    /// `cell` of `object` with the marks of its changes not answered yet: the row dim, or each
    /// cell sent showing the text typed, dim (`visibleKeys`: the key paths of the grid's values).
    func markingPending(_ cell: TableCell, of object: ManagedObject, visibleKeys: [String]) -> TableCell {
        guard let change = pendingChanges[object.objectID] else { return cell }
        var cell = cell
        cell.isPending = change.isWholeRow
        for (key, sent) in change.cells {
            guard let index = visibleKeys.firstIndex(of: key), index < cell.values.count else { continue }
            cell.values[index] = sent.sent
            cell.pendingColumns.insert(index)
        }
        return cell
    }

    /// The cell editor open again on row `id`'s `key`, holding `text`: the row selected and the
    /// column cursor on the column. Nothing when the row or the column is no longer shown.
    private func reopenCellEdit(row id: ObjectID, key: String, text: String) {
        guard showsGrid, let grid,
            let visible = grid.visibleIndices.firstIndex(where: { grid.columns[$0].keyPath == key }),
            let indexPath = adapter.controller.indexPath(for: id),
            let object = adapter.controller.existingObject(at: indexPath),
            let attribute = store.model.entity(named: tab.entity)?.attribute(named: key),
            adapter.select(id)
        else { return }
        table.gridState.cursorColumn = visible
        cellEdit = CellEdit(
            objectID: id,
            column: grid.columns[grid.visibleIndices[visible]],
            attribute: attribute,
            original: object[attribute.name],
            text: text
        )
    }
}
