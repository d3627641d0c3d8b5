/// A save, an undo or a redo inside a transaction of the caller's (an app that writes rows of
/// its own with it) is the caller's to commit: the context publishes its change set once the
/// outermost transaction commits, and when that rolls back — the caller threw, or its COMMIT
/// failed on a full disk — puts its memory back as it was before (the changes pending, the
/// undo stack, the objects' ids and saved state), so that it agrees with the file and a retry
/// saves what the user typed (`Database.onTransactionEnd(_:)`).
extension ObjectContext {
    /// What a save or an undo is about to change in the context's memory.
    struct MemoryBefore {
        struct ObjectState {
            let object: ManagedObject
            let objectID: ObjectID
            let values: [StoreValue]
            let committedValues: [StoreValue]
            let links: [ManagedObject.Link]
            let committedLinks: [ManagedObject.Link]
            let changedKeys: Set<String>
            let isInserted: Bool
            let isDeleted: Bool
            let editBase: (values: [StoreValue], links: [ManagedObject.Link])?
            let registered: Bool
        }
        var objects: [ObjectState]
        var dirty: [ObjectIdentifier: ManagedObject]
        var undoStack: [UndoEntry]
        var redoStack: [UndoEntry]
        /// The history entries the write noted as the context's own.
        var ownWrite: ClosedRange<Int64>?
    }

    /// The state of `objects` and of the context, before a save or an undo changes them.
    func memory(of objects: [ManagedObject], ownWrite: ClosedRange<Int64>?) -> MemoryBefore {
        MemoryBefore(
            objects: objects.map { object in
                MemoryBefore.ObjectState(
                    object: object,
                    objectID: object.objectID,
                    values: object.values,
                    committedValues: object.committedValues,
                    links: object.links,
                    committedLinks: object.committedLinks,
                    changedKeys: object.changedKeys,
                    isInserted: object.isInserted,
                    isDeleted: object.isDeleted,
                    editBase: object.editBase,
                    registered: registered(object.objectID) === object
                )
            },
            dirty: dirty,
            undoStack: undoStack,
            redoStack: redoStack,
            ownWrite: ownWrite
        )
    }

    /// Publishes `changes` once the caller's transaction commits (at once outside one), or
    /// puts the context back to `before` if it rolls back.
    func publishWhenCommitted(_ changes: ChangeSet, restoringOtherwise before: MemoryBefore) {
        database.onTransactionEnd { [weak self] committed in
            guard let self else { return }
            if committed { self.publish(changes) } else { self.restore(before) }
        }
    }

    /// Puts the context's memory back as `before` describes it.
    func restore(_ before: MemoryBefore) {
        for state in before.objects {
            let object = state.object
            unregister(object)
            object.objectID = state.objectID
            object.values = state.values
            object.committedValues = state.committedValues
            object.links = state.links
            object.committedLinks = state.committedLinks
            object.changedKeys = state.changedKeys
            object.isInserted = state.isInserted
            object.isDeleted = state.isDeleted
            object.editBase = state.editBase
            if state.registered { register(object) }
        }
        dirty = before.dirty
        undoStack = before.undoStack
        redoStack = before.redoStack
        historyReader?.forgetOwnWrite(before.ownWrite)
    }
}
