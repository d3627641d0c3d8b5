/// Code a store runs inside every transaction in which an ``ObjectContext`` writes it: its
/// saves, undos and redos. The place for an app's own invariants — a summary row, a
/// manifest of every row with its MAC — which a generic path (a list screen's delete, an
/// undo) must not be able to go around.
///
/// ``willWrite`` runs first in the transaction, before any row is written; ``didWrite`` runs
/// last, after every row of the write (its cascades and triggers included), before the
/// commit. Both read and write through the same connection, in the same transaction, and
/// either may throw: the whole write is rolled back, the context keeps its changes (a save)
/// or its undo stack (an undo), and the error reaches the caller of
/// ``ObjectContext/save(actionName:)``, ``ObjectContext/undo()`` or ``ObjectContext/redo()``.
///
/// What ``didWrite`` writes is not in the write's undo log: an undo reverts the rows the save
/// changed, and its own ``didWrite`` then writes what the rows are as they stand. Writes made
/// through ``Store/database`` directly (``Database/transaction(_:)``) do not run the hook: the
/// code that makes them keeps the invariant itself.
///
///     store.saveHook = SaveHook(
///         willWrite: { db, _ in
///             guard try db.scalar("SELECT count(*) FROM book") == db.scalar("SELECT books FROM totals")
///             else { throw TotalsError.changedBehindTheAppsBack }
///         },
///         didWrite: { db, _ in try db.run("UPDATE totals SET books = (SELECT count(*) FROM book)") }
///     )
///     context.delete(book)
///     try context.save()          // the row and the total, in one transaction
///     try context.undo()          // the row back, the total written again
public struct SaveHook {
    /// Which write of a context the hook runs in.
    public enum Write: Sendable, Equatable {
        /// ``ObjectContext/save(actionName:)``.
        case save
        /// ``ObjectContext/undo()`` (not one that only discards unsaved changes: it writes nothing).
        case undo
        /// ``ObjectContext/redo()``.
        case redo
    }

    /// Runs first in the write's transaction, before any row is written (a check: throw to refuse the write).
    public var willWrite: (Database, Write) throws -> Void
    /// Runs last in the write's transaction, after every row is written (throw to roll it all back).
    public var didWrite: (Database, Write) throws -> Void

    /// A hook of the two steps; `willWrite` does nothing unless given.
    public init(
        willWrite: @escaping (Database, Write) throws -> Void = { _, _ in },
        didWrite: @escaping (Database, Write) throws -> Void
    ) {
        self.willWrite = willWrite
        self.didWrite = didWrite
    }
}
