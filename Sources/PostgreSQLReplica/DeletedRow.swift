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
    /// Each column's value in the server's text form (nil: NULL), exactly as it came: what
    /// undo writes back, cast to the column's type.
    let serverTexts: [String?]
    /// True when the row was one the user added (its delete the undo of an add): writing it
    /// back is adding it again, not putting back a row deleted.
    var wasAdded = false

    /// The text undo writes for column `index` (the value's parameter form when the server's text is missing).
    func text(at index: Int) -> String? {
        index < serverTexts.count ? serverTexts[index] : values[index].parameterText
    }
}

/// The first rows of a table read straight from the server, in the order the
/// browser will show them, while the copy is still being made.
public struct ReplicaPreview: Sendable {
    /// The columns, in table order.
    public let columns: [ReplicaColumn]
    /// The rows' values as the replica will hold them.
    public let rows: [[StoreValue]]
}
