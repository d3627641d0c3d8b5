/// What ``ObjectContext/undo()`` (or ``ObjectContext/redo()``) just did: the
/// name the save was made with and the change set it published.
///
/// It lets a screen say what it undid from the context's own undo stack,
/// instead of keeping a second list of labels "in step" beside it.
///
///     context.delete(note)
///     try context.save(actionName: "Deleted “Groceries”")
///     let undone = try context.undo()
///     undone?.name                        // "Deleted “Groceries”"
///     undone?.changes.inserted            // [note/7]: select it again
public struct UndoneAction: Sendable, Equatable {
    /// The save's action name (``ObjectContext/save(actionName:)``); nil when it had none.
    public var name: String?
    /// The change set the undo (or redo) published.
    public var changes: ChangeSet
    /// True when the undo only discarded unsaved changes (``ObjectContext/rollback()``).
    public var discardedUnsavedChanges: Bool

    /// An undone action (made by the context; public for tests and adapters).
    package init(name: String?, changes: ChangeSet, discardedUnsavedChanges: Bool = false) {
        self.name = name
        self.changes = changes
        self.discardedUnsavedChanges = discardedUnsavedChanges
    }
}
