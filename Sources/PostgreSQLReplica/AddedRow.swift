/// A row a write put on the server — ``PostgresReplica/insert(_:)``, or undo writing deleted
/// rows back (``PostgresReplica/restore(_:)``) — as the server held it right after, in the
/// write's own transaction: what undoing the write (``PostgresReplica/delete(_:)``) compares
/// before it deletes the row, so that another session's change since is never deleted.
public struct AddedRow: Hashable, Sendable {
    /// The replica's row id of the row (0 where no replica holds it: a query's result).
    public let rowID: Int64
    /// The row's primary key texts.
    package let key: [String]
    /// The column names, in table order.
    let columns: [String]
    /// Each column's value in the server's text (nil: NULL), as the write left it.
    let serverTexts: [String?]
    /// True when undo wrote the row back (a delete undone), false when it was inserted.
    let restored: Bool

    /// The same row, named `rowID` in the replica.
    func with(rowID: Int64) -> AddedRow {
        AddedRow(rowID: rowID, key: key, columns: columns, serverTexts: serverTexts, restored: restored)
    }

    /// How the row came to be, for a conflict's words ("since it was added").
    var verb: String { restored ? "written back" : "added" }
}
