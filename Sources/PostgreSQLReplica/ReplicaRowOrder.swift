import PostgreSQLClient

/// The rows of a copy in a browser's order, sorted as they arrived: every row's id and the
/// text of the sorted column (or the keys of its order column), in SQLite's order of the
/// replica — the column's texts byte for byte (`BINARY`), NULL where ``nullsGreatest`` puts
/// it (last ascending and first descending, as the server sorts), ties by id ascending.
/// So a browser's first fetch of the replica need not sort it again
/// (``PostgresReplica/load(sortingBy:progress:status:)``).
///
/// Row `i` has the id `ids[i]` and the text `text[offsets[i] ..< offsets[i + 1]]`, or NULL
/// when `isNull[i]`.
///
///     let (table, order) = try replica.load(sortingBy: OrderTerm("ts", ascending: false))
///     if let order { print(order.ids.prefix(10)) }   // the newest ten
public struct ReplicaRowOrder: Sendable {
    /// The replica column sorted by: the column asked, or its order column (``ReplicaColumn/orderColumn``).
    public let column: String
    /// The direction.
    public let ascending: Bool
    /// The ids (the integer primary key) in order.
    public let ids: [Int64]
    /// The column's texts, in order, one after the other.
    package let text: [UInt8]
    /// Where each row's text starts in ``text`` (one more than the rows: the last is the end).
    package let offsets: [UInt32]
    /// Which rows hold NULL (their text is empty).
    package let isNull: [Bool]
    /// Whether NULL sorts above every text (PostgreSQL's order), not below it (SQLite's).
    public let nullsGreatest: Bool
}
