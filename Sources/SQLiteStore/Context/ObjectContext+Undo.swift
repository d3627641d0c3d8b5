import Foundation

/// Undo: the part of ``ObjectContext`` that undoes and redoes saves, row by row.
extension ObjectContext {
    /// True when there is a save to undo (or unsaved changes, which undo discards).
    public var canUndo: Bool { !undoStack.isEmpty || hasChanges }
    /// True when an undone save can be redone.
    public var canRedo: Bool { !redoStack.isEmpty }

    /// The name the save that ``undo()`` would undo was saved with (see
    /// ``save(actionName:)``); nil when there is none or it has no name.
    public var undoActionName: String? { hasChanges ? nil : undoStack.last?.name }
    /// The name of the save that ``redo()`` would redo, if any.
    public var redoActionName: String? { redoStack.last?.name }

    /// Names the last save on the undo stack (as `UndoManager.setActionName`
    /// names the last undo group), for saves made by code that does not pass
    /// ``save(actionName:)`` a name. Does nothing when there is no save to undo.
    ///
    ///     let note = try stash.addNote(title: "Groceries", body: "")   // saves
    ///     context.setUndoActionName("Added “Groceries”")
    public func setUndoActionName(_ name: String?) {
        guard !undoStack.isEmpty else { return }
        undoStack[undoStack.count - 1].name = name
    }

    /// Undoes the last save (deleted rows return with their row ids, cascaded
    /// children included), as a save of its own that publishes a change set.
    /// With unsaved changes pending, undo discards those instead (``rollback()``).
    ///
    /// Returns what was undone — the save's action name and the change set
    /// published — or nil when there was nothing to undo.
    ///
    ///     if let undone = try context.undo() {
    ///         status.showMessage("Undone: \(undone.name ?? "last change")", at: now)
    ///         if let id = undone.changes.inserted.first { adapter.select(id) }
    ///     }
    @discardableResult
    public func undo() throws -> UndoneAction? {
        if hasChanges {
            rollback()
            return UndoneAction(name: nil, changes: ChangeSet(), discardedUnsavedChanges: true)
        }
        guard let entry = undoStack.last else { return nil }
        let (log, changes) = try revert(entry.log, madeBy: entry.madeBy, as: .undo)
        undoStack.removeLast()
        redoStack.append(UndoEntry(name: entry.name, log: log, madeBy: .undo))
        return UndoneAction(name: entry.name, changes: changes, discardedUnsavedChanges: false)
    }

    /// Redoes the last undone save; publishes a change set. Returns what was
    /// redone (as ``undo()`` does), or nil when there was nothing to redo.
    @discardableResult
    public func redo() throws -> UndoneAction? {
        rollback()
        guard let entry = redoStack.last else { return nil }
        let (log, changes) = try revert(entry.log, madeBy: entry.madeBy, as: .redo)
        redoStack.removeLast()
        undoStack.append(UndoEntry(name: entry.name, log: log, madeBy: .redo))
        return UndoneAction(name: entry.name, changes: changes, discardedUnsavedChanges: false)
    }

    /// Undoes `log` (which `madeBy` wrote) in one transaction — every row it changed, those its
    /// cascades and triggers changed included — recording what that changed in turn (the way
    /// back, for redo or undo), and publishes the change set of the rows this model has.
    func revert(
        _ log: RowChangeLog,
        madeBy: SaveHook.Write,
        as write: SaveHook.Write
    ) throws -> (RowChangeLog, ChangeSet) {
        guard !store.isReadOnly else { throw StoreError.readOnly(path: store.path) }
        let counterBefore = store.localChangeCounter
        let (range, reverted, changes, reloaded) = try database.transaction {
            () throws -> (ClosedRange<Int64>?, RowChangeLog, ChangeSet, ReloadedRows) in
            let start = try store.historyPosition()
            try database.execute("PRAGMA defer_foreign_keys = ON")
            try runWillWriteHook(write)
            // The file's own triggers stay off: what they did at the save is in the log, and
            // firing them again (an audit row of the undo) would make the undo inexact and the
            // redo collide with it. The history triggers are off with them: readers get a reset.
            try database.checkUnchangedSince(log, write: write, madeBy: madeBy)
            let triggersOff = try store.hasTriggersBesidesHistory()
            let (_, reverted) = try database.recordingChanges(excluding: unloggedTables) { _ in
                if triggersOff {
                    try database.withTriggersOff { try database.revert(log) }
                } else {
                    try database.revert(log)
                }
            }
            if triggersOff { try store.recordReset() }
            try runDidWriteHook(write)
            // What to publish and reload is read before the commit: after it, nothing is read.
            var changes = changeSet(of: rowChanges(of: reverted))
            let reloaded = try readRegistered(
                Array(changes.inserted) + Array(changes.updated.keys) + Array(changes.deleted)
            )
            for (id, keys) in try toOnePropagation(of: changes.updated, trustingLinks: false) {
                changes.addUpdate(id, keys: keys)
            }
            try store.pruneHistory()
            let end = try store.historyPosition()
            return (end > start ? (start + 1)...end : nil, reverted, changes, reloaded)
        }
        store.localChangeCounter &+= 1
        historyReader?.noteOwnWrite(range, counterBefore: counterBefore)
        let before = memory(of: reloaded.objects, ownWrite: range)
        apply(reloaded)
        var published = changes
        published.writtenRows = WrittenRows(reverted, model: model)
        publishWhenCommitted(published, restoringOtherwise: before)
        return (reverted, published)
    }

    /// The logged changes of the model's rows, one per row and state (an update that moved
    /// a row to another row id: a delete and an insert), updates naming only changed columns.
    func rowChanges(of log: RowChangeLog) -> [RowChange] {
        var entities: [String: Entity?] = [:]
        var result: [RowChange] = []
        for change in log.changes {
            let name = change.table.name
            if entities[name] == nil {
                entities[name] = .some(
                    model.entities.first {
                        !$0.numbersRowsByPosition && $0.tableName == name && change.table.schema == "main"
                    }
                )
            }
            guard let entity = entities[name] ?? nil else { continue }
            func row(_ values: [String: StoreValue]?, _ rowID: Int64) -> [String: StoreValue]? {
                guard var values else { return nil }
                values[entity.idColumn] = .integer(rowID)
                return values
            }
            let before = row(change.old, change.oldRowID)
            let after = row(change.new, change.newRowID)
            if change.kind == .update, change.oldRowID == change.newRowID, let before, let after {
                let changed = Set(after.keys.filter { before[$0] != after[$0] })
                guard !changed.isEmpty else { continue }
                result.append(
                    RowChange(
                        entity: entity.name,
                        rowID: change.newRowID,
                        before: before.filter { changed.contains($0.key) },
                        after: after.filter { changed.contains($0.key) }
                    )
                )
                continue
            }
            if before != nil {
                result.append(RowChange(entity: entity.name, rowID: change.oldRowID, before: before, after: nil))
            }
            if after != nil {
                result.append(RowChange(entity: entity.name, rowID: change.newRowID, before: nil, after: after))
            }
        }
        return result
    }

    /// The change set of `steps` (in the order they happened), before to-one propagation.
    func changeSet(of steps: [RowChange]) -> ChangeSet {
        var changes = ChangeSet()
        var partners: [ObjectID: Set<String>] = [:]
        for step in steps {
            guard let entity = model.entity(named: step.entity) else { continue }
            let id = ObjectID(entity: entity.name, rowID: step.rowID)
            let current = step.before
            let target = step.after
            switch (current, target) {
            case (nil, _?):
                changes.deleted.remove(id)
                changes.inserted.insert(id)
            case (_?, nil):
                changes.inserted.remove(id)
                changes.deleted.insert(id)
            case (_?, let row?):
                let keys = Set(row.keys.compactMap { entity.key(forColumn: $0) })
                changes.updated[id, default: []].formUnion(withDerivedKeys(keys, of: entity))
            case (nil, nil): continue
            }
            for i in entity.foreignKeyRelationships {
                let rel = entity.relationships[i]
                let old = current?[rel.columnName]?.int64
                let new = target?[rel.columnName]?.int64
                guard old != new || current == nil || target == nil else { continue }
                for rowID in [old, new].compactMap({ $0 }) {
                    partners[ObjectID(entity: rel.destination, rowID: rowID), default: []].insert(rel.inverse)
                }
            }
        }
        for id in changes.inserted.union(changes.deleted) { changes.updated.removeValue(forKey: id) }
        for (id, keys) in partners { changes.addUpdate(id, keys: keys) }
        return changes
    }
}
