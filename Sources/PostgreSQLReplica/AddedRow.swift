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
    /// How the write put the row there.
    let origin: Origin

    /// How a write put a row on the server, as a person who made it would say it.
    enum Origin: Hashable, Sendable {
        /// Inserted (`a`).
        case added
        /// Written back by the redo of an add that undo had deleted (`a`, `u`, Ctrl-R).
        case addedAgain
        /// Written back by the undo of a delete (`d`, `u`).
        case putBack
    }

    /// The same row, named `rowID` in the replica.
    func with(rowID: Int64) -> AddedRow {
        AddedRow(rowID: rowID, key: key, columns: columns, serverTexts: serverTexts, origin: origin)
    }

    /// Whether the row is one the user added (or added again), rather than one undo put back.
    var wasAdded: Bool { origin != .putBack }

    /// Since when another session's change is one, for a conflict's words ("qty was changed by
    /// another session since it was added again").
    var since: String {
        switch origin {
        case .added: "since it was added"
        case .addedAgain: "since it was added again"
        case .putBack: "since undo put it back"
        }
    }
}
