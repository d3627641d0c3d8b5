import SQLiteStore

/// One cell written on the server by ``PostgresReplica/update(rowID:column:to:expecting:)``:
/// the row, the column, and its value before and after in the server's own text, so that
/// ``PostgresReplica/revert(_:)`` can write it back (undo) — and revert that (redo).
public struct EditedCell: Hashable, Sendable {
    /// The column written.
    public let column: String
    /// The replica's row id of the row (after the write: a new key may have moved it).
    public let rowID: Int64
    /// The row's primary key texts after the write.
    let key: [String]
    /// The value before the write, in the server's text (nil: NULL).
    let before: String?
    /// The value after the write, in the server's text (nil: NULL).
    let after: String?

    /// The write that undoes this one: the same cell, from `after` back to `before`.
    var reversed: EditedCell { EditedCell(column: column, rowID: rowID, key: key, before: after, after: before) }
}

/// What a cell must hold on the server for a write to go through: the value the browser
/// showed (the replica's form of it), or the server's text a write left there (undo, redo).
/// Anything else is another session's change, which a write never overwrites
/// (``ReplicaError/conflict(reason:)``).
public enum CellExpectation: Hashable, Sendable {
    /// The value as the replica holds it (what the list showed).
    case shown(StoreValue)
    /// The value in the server's text (nil: NULL).
    case server(String?)
}
