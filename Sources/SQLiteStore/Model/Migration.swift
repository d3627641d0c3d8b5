/// One step of schema evolution, from one `user_version` to the next.
///
/// Migrations run in one transaction, in order, from the file's version up to
/// the model's. After the last step the store creates whatever the model has
/// and the file lacks (new tables, indexes) and rebuilds the history triggers,
/// so a step only needs to do what cannot be inferred (renames, new columns,
/// data changes).
///
/// A unique key the new version adds is enforced from then on, unless rows
/// already in the file break it: then the file gets a plain index on the key's
/// columns instead, and still opens (`Store.enforcesUniqueKey(_:of:)` tells
/// which), rather than locking its owner out or deleting rows for them. A
/// step that knows how to settle such rows may do so before the index is made.
///
///     Migration(from: 1, to: 2) { db in
///         try db.execute("ALTER TABLE note ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0")
///     }
public struct Migration: Sendable {
    /// The `user_version` the step starts from.
    public var from: Int
    /// The `user_version` the step leads to.
    public var to: Int
    /// The step's work, run inside the store's migration transaction.
    public var migrate: @Sendable (Database) throws -> Void

    /// A step from version `from` to version `to`.
    public init(from: Int, to: Int, _ migrate: @Sendable @escaping (Database) throws -> Void) {
        self.from = from
        self.to = to
        self.migrate = migrate
    }
}
