import Foundation
import SQLiteStore
import TerminalUI

extension ListScreen {
    // MARK: Delete

    /// False (and says why) on a read-only store, or when the app allows no deletes.
    public func canDeleteRow(at indexPath: IndexPath) -> Bool {
        if isLoading || !configuration.allowsDelete { return false }
        if let readOnlyReason = configuration.readOnlyReason ?? configuration.deleteRefusal {
            statusLine.showMessage("Delete is disabled: \(readOnlyReason)", at: now, style: .error)
            return false
        }
        return true
    }

    /// The Delete button confirmed: delete through the context and save, naming
    /// the save for its undo; the row animates out.
    public func commitDelete(at indexPath: IndexPath) {
        guard canDeleteRow(at: indexPath), let object = adapter.controller.existingObject(at: indexPath) else { return }
        let name = tab.objectName(object)
        if writeWaitingForLock != nil {
            statusLine.showMessage("Not deleted: a change waits for another program's lock", at: now, style: .error)
            return
        }
        let actionName = configuration.deleteActionName(name)
        // A refetch reading in the background holds a shared lock on a rollback-journal file:
        // stopped here (it starts again at the next tick), the save need not wait for it.
        adapter.controller.cancelBackgroundWork()
        do {
            if let delete = configuration.delete {
                try delete(object, actionName)
            } else {
                context.delete(object)
                try context.save(actionName: actionName)
            }
            if configuration.deleteIsAnsweredLater { markPendingDelete(of: object.objectID) }
            let said = configuration.deleteIsAnsweredLater ? "Deleting \(name)…" : "\(actionName) — u to undo"
            statusLine.showMessage(said, at: now, duration: 8)
        } catch let error where isLockedOut(error) {
            // Another program holds the file locked: the delete is done once it lets go.
            context.rollback()
            let id = object.objectID
            writeWaitingForLock = { [unowned self] in self.retryDelete(of: id, named: name) }
            waitForLock(forWriting: true, saying: "Deleting \(name): ")
        } catch StoreError.conflict(_) where configuration.delete == nil {
            // Another program changed the row since the list read it: read it again, and ask.
            try? context.resolveConflict(of: object, by: .reloadAndReapply)
            context.rollback()
            offerDeleteAfterConflict(of: object.objectID, named: name)
        } catch {
            context.rollback()
            statusLine.showMessage(
                "Could not delete \(name): \(StoreFailure.reason(of: error))",
                at: now,
                duration: 8,
                style: .error
            )
        }
    }

    /// The delete of `id` that met another program's lock, once the lock is gone: done if the
    /// object is still in the list (another program may have deleted it meanwhile).
    private func retryDelete(of id: ObjectID, named name: String) {
        guard !isLoading, let indexPath = adapter.controller.indexPath(for: id) else {
            statusLine.showMessage("\(name) is gone: another program deleted it", at: now, duration: 8)
            return
        }
        commitDelete(at: indexPath)
    }

    /// A delete refused because another program changed the object since the list read it
    /// (the context has read it again): says so, and offers to delete it as it is now, or keep it.
    private func offerDeleteAfterConflict(of id: ObjectID, named name: String) {
        statusLine.showMessage(
            "Not deleted: \(name) was changed by another program since the list showed it",
            at: now,
            duration: 8,
            style: .error
        )
        let picker = ChoicePicker(
            title: "\(name) was changed by another program",
            choices: ["Delete it as it is now", "Keep it"]
        )
        picker.onChoose = { [unowned self] index, _ in
            if index == 0 { self.retryDelete(of: id, named: name) }
        }
        loop.push(picker)
    }

    // MARK: Undo

    /// `u`: undoes the context's last save and says what it undid, in the
    /// context's own words (the save's action name); the selection goes to the
    /// object that came back or changed, when it is in the list.
    package func undo() {
        if let readOnlyReason = configuration.readOnlyReason {
            statusLine.showMessage("Undo is disabled: \(readOnlyReason)", at: now, style: .error)
            return
        }
        if writeWaitingForLock != nil {
            statusLine.showMessage("Not undone: a change waits for another program's lock", at: now, style: .error)
            return
        }
        adapter.controller.cancelBackgroundWork()  // as for a delete: the undo's save need not wait
        do {
            guard context.canUndo, let undone = try context.undo() else {
                statusLine.showMessage("Nothing to undo", at: now)
                return
            }
            let touched = undone.changes.inserted.sorted() + undone.changes.updated.keys.sorted()
            if let id = touched.first(where: { adapter.controller.indexPath(for: $0) != nil }) {
                adapter.select(id)
            }
            statusLine.showMessage(configuration.undoMessage(undone), at: now)
        } catch let error where isLockedOut(error) {
            // Another program holds the file locked: the undo is done once it lets go.
            writeWaitingForLock = { [unowned self] in self.undo() }
            waitForLock(forWriting: true, saying: "Undoing: ")
        } catch {
            statusLine.showMessage(
                "Could not undo: \(StoreFailure.reason(of: error))",
                at: now,
                duration: 8,
                style: .error
            )
        }
    }

    // MARK: Redo

    /// Ctrl-R: redoes the change `u` last undid and says what it redid (the save's action name);
    /// the selection goes to the object it changed, when it is in the list.
    package func redo() {
        if let readOnlyReason = configuration.readOnlyReason {
            statusLine.showMessage("Redo is disabled: \(readOnlyReason)", at: now, style: .error)
            return
        }
        if writeWaitingForLock != nil {
            statusLine.showMessage("Not redone: a change waits for another program's lock", at: now, style: .error)
            return
        }
        adapter.controller.cancelBackgroundWork()  // as for an undo
        do {
            guard context.canRedo, let redone = try context.redo() else {
                statusLine.showMessage("Nothing to redo", at: now)
                return
            }
            let touched = redone.changes.inserted.sorted() + redone.changes.updated.keys.sorted()
            if let id = touched.first(where: { adapter.controller.indexPath(for: $0) != nil }) {
                adapter.select(id)
            }
            statusLine.showMessage("Redone: \(redone.name ?? "the last change")", at: now)
        } catch {
            statusLine.showMessage("Could not redo: \(error)", at: now, duration: 8, style: .error)
        }
    }
}
