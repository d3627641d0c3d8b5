import PostgreSQLClient
import SQLiteStore

/// A row as the server held it before a delete: every column's value, to
/// write it back with ``PostgresReplica/restore(_:)`` (undo).
public struct DeletedRow: Hashable, Sendable {
    /// The column names, in table order.
    public let columns: [String]
    /// The values, one per column, as the server returned them (`bytea` with its bytes).
    public let values: [PostgresValue]
    /// The replica's row id it had.
    public let rowID: Int64
}

/// The first rows of a table read straight from the server, in the order the
/// browser will show them, while the copy is still being made.
public struct ReplicaPreview: Sendable {
    /// The columns, in table order.
    public let columns: [ReplicaColumn]
    /// The rows' values as the replica will hold them.
    public let rows: [[StoreValue]]
}
