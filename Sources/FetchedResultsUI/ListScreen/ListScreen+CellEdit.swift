import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI

/// The edit of one cell under way (`e` in a grid): the row and column edited, the value it
/// had, and the line editor drawn over the cell.
final class CellEdit {
    let objectID: ObjectID
    let column: ListColumn
    let attribute: Attribute
    let original: StoreValue
    let field: TextField

    /// The editor of a cell holding `text` (nil: its value, `original`).
    init(objectID: ObjectID, column: ListColumn, attribute: Attribute, original: StoreValue, text: String? = nil) {
        self.objectID = objectID
        self.column = column
        self.attribute = attribute
        self.original = original
        self.field = TextField(text: text ?? CellText.text(of: original))
        field.fieldAttributes = [.reverse]
    }
}

extension ListScreen {
    /// The status line's hints while a cell is edited.
    static let cellEditHints = "Enter saves · Esc cancels · Ctrl-U clears · Ctrl-N ∅ (NULL)"

    /// Whether a cell is being edited (`e`).
    package var isEditingCell: Bool { cellEdit != nil }

    /// `e` in a grid (``ListScreenConfiguration/allowsCellEdits``): opens the line editor over
    /// the cell of the selected row under the column cursor, holding its value. Says why on the
    /// status line instead when the cell cannot be edited (a read-only store, a column whose key
    /// path is not one of the entity's attributes, one the app refuses: ``ListScreenConfiguration/cellEditRefusal``).
    package func beginCellEdit() {
        guard configuration.allowsCellEdits else { return }
        if isLoading {
            statusLine.showMessage("Cannot edit yet: the list is still loading", at: now, duration: 8, style: .error)
            return
        }
        if let reason = cellEditRefusal() {
            statusLine.showMessage("Cannot edit: \(reason)", at: now, duration: 8, style: .error)
            return
        }
        guard let column = cursorColumn, let id = adapter.selectedObjectID,
            let indexPath = adapter.controller.indexPath(for: id),
            let object = adapter.controller.existingObject(at: indexPath),
            let attribute = store.model.entity(named: tab.entity)?.attribute(named: column.keyPath)
        else { return }
        cellEdit = CellEdit(objectID: id, column: column, attribute: attribute, original: object[attribute.name])
    }

    /// Why the cell under the cursor cannot be edited now, nil when it can.
    private func cellEditRefusal() -> String? {
        guard showsGrid, let column = cursorColumn else { return "cells are edited in a grid" }
        if let readOnlyReason = configuration.readOnlyReason { return readOnlyReason }
        if writeWaitingForLock != nil { return "a change waits for another program's lock" }
        guard adapter.selectedObjectID != nil else { return "no row is selected" }
        if let reason = configuration.cellEditRefusal?(column) { return reason }
        guard let attribute = store.model.entity(named: tab.entity)?.attribute(named: column.keyPath) else {
            return "\(column.name) is computed, not a column of the table"
        }
        if attribute.type == .blob { return "\(column.name) holds binary data, which is not edited as text" }
        return nil
    }

    /// The keys of the cell editor: Enter saves, Ctrl-N saves NULL, Esc cancels, the others edit
    /// the text (Ctrl-U clears it). Every key is the editor's while it is open.
    func handleCellEditKey(_ event: InputEvent) -> EventResult {
        guard let edit = cellEdit else { return .ignored }
        switch event {
        case .enter:
            commitCellEdit(edit, text: edit.field.text)
        case .control("n"):
            commitCellEdit(edit, text: nil)
        case .escape:
            cellEdit = nil
            statusLine.showMessage("Not changed", at: now)
        case .resize:
            return .ignored
        case .mouseWheel, .mouseClick:
            break
        default:
            _ = edit.field.handle(event)
        }
        return .handled
    }

    /// Saves `text` (nil: NULL) into the edited cell through the context, named for undo
    /// ("Edited price of “Dune”"); a text of the wrong type or a save the store refuses keeps the
    /// editor open with the text and says why on the status line.
    private func commitCellEdit(_ edit: CellEdit, text: String?) {
        let name = edit.column.name
        var value = StoreValue.null
        if let text {
            do {
                value = try CellText.value(of: text, for: edit.attribute)
            } catch {
                let said = "Not saved: “\(text)” is \(error) (\(name))"
                statusLine.showMessage(said, at: now, duration: 8, style: .error)
                return
            }
        }
        guard let indexPath = adapter.controller.indexPath(for: edit.objectID),
            let object = adapter.controller.existingObject(at: indexPath)
        else {
            cellEdit = nil
            statusLine.showMessage("Not saved: another program deleted the row", at: now, duration: 8, style: .error)
            return
        }
        guard value != object[edit.attribute.name] else {
            cellEdit = nil
            statusLine.showMessage("Not changed", at: now)
            return
        }
        let actionName = "Edited \(name) of \(tab.objectName(object))"
        if let saveCell = configuration.saveCell {
            do {
                try saveCell(object, edit.attribute.name, value, edit.original, actionName)
            } catch {
                statusLine.showMessage(
                    "Not saved: \(StoreFailure.reason(of: error))",
                    at: now,
                    duration: 8,
                    style: .error
                )
                return
            }
            cellEdit = nil
            if configuration.cellEditIsAnsweredLater {
                markPendingEdit(of: edit.objectID, key: edit.attribute.name, sent: text, typed: edit.field.text)
            }
            statusLine.showMessage("Saving \(actionName)…", at: now, duration: 30)
            return
        }
        // As for a delete: a refetch reading in the background need not hold up the save.
        adapter.controller.cancelBackgroundWork()
        object[edit.attribute.name] = value
        do {
            try context.save(actionName: actionName)
        } catch {
            context.rollback()
            let reason = CellText.reason(for: error, column: name)
            statusLine.showMessage("Not saved: \(reason)", at: now, duration: 8, style: .error)
            return
        }
        cellEdit = nil
        statusLine.showMessage("\(actionName) — u to undo", at: now, duration: 8)
    }

    /// Draws the open cell editor over its cell: as wide as the cell, or as its text and the
    /// cursor when that is wider (spilling over the neighbours, within the frame).
    func renderCellEditor(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard let edit = cellEdit else { return }
        guard let cell = table.selectedGridCellFrame, adapter.selectedObjectID == edit.objectID else { return }
        let width = min(max(cell.width, DisplayWidth.of(edit.field.text) + 1), frame.maxX - cell.x)
        edit.field.render(into: &canvas, frame: Rect(x: cell.x, y: cell.y, width: width, height: 1), at: time)
    }
}
