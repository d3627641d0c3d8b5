/// An object whose row another writer changed (or deleted) after the object was read and
/// before a save of it: the save refuses with ``StoreError/conflict(_:)`` and writes nothing,
/// rather than write over the other side's change. ``ObjectContext/resolveConflict(of:by:)``
/// chooses what the next save does ([Changes from other processes](<doc:ChangesFromOtherProcesses>)).
///
///     do { try context.save() } catch StoreError.conflict(let conflicts) {
///         for conflict in conflicts { print(conflict) }   // FailedBankInfo/3 was changed by another program since it was read (city)
///     }
public struct SaveConflict: Sendable, Equatable, CustomStringConvertible {
    /// The object.
    public var objectID: ObjectID
    /// The attributes and to-one relationships whose stored value is no longer the one the
    /// object was read with (empty when the row is gone).
    public var changedKeys: Set<String>
    /// True when the row is gone: another writer deleted it.
    public var rowIsGone: Bool

    /// A conflict over `objectID` (made by the context; public for tests and adapters).
    package init(objectID: ObjectID, changedKeys: Set<String>, rowIsGone: Bool) {
        self.objectID = objectID
        self.changedKeys = changedKeys
        self.rowIsGone = rowIsGone
    }

    /// What the next save does with an object in conflict (``ObjectContext/resolveConflict(of:by:)``).
    public enum Resolution: Sendable {
        /// Take the row as the other writer left it, and apply the object's own changes on top:
        /// what the other side changed stays, unless this side changed the same key.
        case reloadAndReapply
        /// Write the object as the context shows it over whatever the row holds now: every key
        /// whose value differs from the row is written (a delete goes ahead).
        case overwrite
    }

    public var description: String {
        rowIsGone
            ? "\(objectID) was deleted by another program since it was read"
            : "\(objectID) was changed by another program since it was read (\(changedKeys.sorted().joined(separator: ", ")))"
    }
}

/// An undo or redo that would write over what another writer did to a row since the save
/// (``StoreError/restoreConflict(table:row:reason:step:)``): it changes nothing, and stays on its
/// stack (it applies once the other writer's change is gone).
public enum RestoreConflict: Sendable, Equatable {
    /// A row the save deleted was put back (with the same key) by another writer.
    case existsAgain
    /// A row the save inserted or changed was changed again by another writer.
    case changedSince
    /// A row the save inserted or changed was deleted by another writer.
    case deletedSince
}

/// The undo or redo a ``RestoreConflict`` refused, as the person who pressed it knows it: what
/// it was to take back (the save, or the undo or redo before it) and what that did to the row —
/// for the error's words ("the row 4 of orders was changed by another program since it was added
/// again; not undone").
public struct RestoreStep: Sendable, Equatable {
    /// The write refused: ``SaveHook/Write/undo`` or ``SaveHook/Write/redo``.
    public var write: SaveHook.Write
    /// The write it was to take back: the save (an undo), an undo (a redo), or a redo (an undo again).
    public var takingBack: SaveHook.Write
    /// Whether that write inserted the row (else it changed it).
    public var inserted: Bool

    /// The step of `write`, taking back `takingBack`, which inserted the row or changed it.
    public init(write: SaveHook.Write, takingBack: SaveHook.Write, inserted: Bool) {
        self.write = write
        self.takingBack = takingBack
        self.inserted = inserted
    }

    /// Since when another writer's change is one: "since it was added", "since it was added
    /// again" (a redone add), "since undo put it back" (an undone delete), and for a row changed,
    /// "since it was edited", "since it was edited again", "since undo changed it back".
    public var since: String {
        switch (takingBack, inserted) {
        case (.undo, true): "since undo put it back"
        case (.undo, false): "since undo changed it back"
        case (.redo, true): "since it was added again"
        case (.redo, false): "since it was edited again"
        case (.save, true): "since it was added"
        case (.save, false): "since it was edited"
        }
    }

    /// What did not happen: "not undone", "not redone".
    public var notDone: String { write == .redo ? "not redone" : "not undone" }
}
