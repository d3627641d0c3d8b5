import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI

extension TableBrowser {
    /// A query's result whose rows are one table's (``QueryWrites``): `d` deletes the row from that
    /// table, `e` edits a cell of one of its columns (checked against the value shown), `a` adds a
    /// row to it with the table's form, `u` and Ctrl-R undo and redo those — each saved at once,
    /// in the table; the result shows it once the query has run again (asked for at once).
    func configureQueryWrites(_ configuration: inout ListScreenConfiguration, source: QuerySource, writes: QueryWrites)
    {
        let mapped: () throws -> Void = {
            // A re-run found the key repeated (a self-join): its rows are no longer one table's.
            if source.live.sourceTable == nil {
                throw QueryWriteRefusal(description: QuerySource.notOneTablesRows(source.live))
            }
        }
        // Said once the key's own handling is done (the list says "Saving …" after an edit is sent).
        let say = loop.poster { [weak self] (text: String) in self?.list?.showMessage(text, duration: 8) }
        let written = { [unowned self] in
            self.queries.ownWriteSaved = Date()
            source.live.refresh()
        }
        configuration.delete = { row, actionName in
            try mapped()
            try writes.delete(row, actionName: actionName)
            written()
        }
        configuration.saveCell = { row, key, value, shown, actionName in
            try mapped()
            try writes.edit(row, column: key, value: value, shown: shown, actionName: actionName)
            written()
            say("\(actionName) — u to undo")
        }
        configuration.cellEditRefusal = { column in writes.editRefusal(column: column.keyPath) }
        configuration.keyBindings.removeAll { $0.events.contains(.character("a")) }
        configuration.keyBindings.append(queryAddRowBinding(writes: writes, say: say, written: written))
        configuration.keyBindings.append(contentsOf: queryUndoBindings(writes: writes, written: written))
    }

    /// `a` on a query's result: the form of a new row of the table its rows are rows of (its
    /// columns, DEFAULTs, generated and NOT NULL ones as the table's own form shows them).
    private func queryAddRowBinding(
        writes: QueryWrites,
        say: @escaping @Sendable (sending String) -> Void,
        written: @escaping () -> Void
    ) -> ListKeyBinding {
        let table = writes.mapping.table
        let attributes = writes.context.store.model.entity(named: table)?.attributes.filter { $0.type != .blob } ?? []
        var form = RecordForm(
            entity: table,
            labels: Dictionary(attributes.map { ($0.name, $0.name) }, uniquingKeysWith: { a, _ in a })
        )
        form.tableAttributes = attributes
        var binding = ListKeyBinding(.character("a"), keys: "a", description: "add a row to \(table) (its form)") {
            screen in
            if let reason = screen.configuration.readOnlyReason {
                screen.showMessage("Cannot add a row: \(reason)", duration: 8, style: .error)
                return
            }
            screen.loop.push(
                form.newRowForm(in: screen) { values, name, _ in
                    try writes.insert(values, actionName: "Added \(name)")
                    written()
                    say("Added \(name) to \(table) — u to undo")
                }
            )
        }
        binding.helpPlacement = .section("Change")
        return binding
    }

    /// `u` and Ctrl-R on a query's result: the last change of the table undone or redone.
    private func queryUndoBindings(writes: QueryWrites, written: @escaping () -> Void) -> [ListKeyBinding] {
        let table = writes.mapping.table
        var undo = ListKeyBinding(.character("u"), keys: "u", description: "undo the last change (of \(table))") {
            screen in
            do {
                guard writes.context.canUndo, let undone = try writes.context.undo() else {
                    screen.showMessage("Nothing to undo")
                    return
                }
                written()
                screen.showMessage(screen.configuration.undoMessage(undone))
            } catch {
                screen.showMessage("Could not undo: \(StoreFailure.reason(of: error))", duration: 8, style: .error)
            }
        }
        undo.helpPlacement = .section("Change")
        var redo = ListKeyBinding(.control("r"), keys: "Ctrl-R", description: "redo the change u undid") { screen in
            do {
                guard writes.context.canRedo, let redone = try writes.context.redo() else {
                    screen.showMessage("Nothing to redo")
                    return
                }
                written()
                screen.showMessage("Redone: \(redone.name ?? "the last change")")
            } catch {
                screen.showMessage("Could not redo: \(StoreFailure.reason(of: error))", duration: 8, style: .error)
            }
        }
        redo.helpPlacement = .sharingLine(with: "u")
        return [undo, redo]
    }
}
