import PostgreSQLClient

/// A server table copied into a SQLite file: where the copy is, what it is
/// called there, and how its rows are named.
///
/// Open it like any SQLite table (SQLiteStore's `DatabaseCatalog` and
/// `Store(foreignDatabaseAt:model:readOnly:)`, read-only): its rows follow
/// the server's while ``PostgresReplica/follow(track:status:applied:)`` runs.
///
///     let table = try replica.load()
///     let catalog = try DatabaseCatalog(path: table.path)
///     let events = catalog.table(named: table.tableName)
public struct ReplicaTable: Hashable, Sendable {
    /// The SQLite file.
    public let path: String
    /// The table's name in it: the server table's name without its schema.
    public let tableName: String
    /// The server table or view copied.
    public let source: TableName
    /// Table, view…
    public let kind: TableDescription.Kind
    /// The server's primary key columns, in key order (empty for a view or a
    /// table without a primary key).
    public let keyColumns: [String]
    /// The columns, in table order.
    public let columns: [ReplicaColumn]
    /// The replica's `INTEGER PRIMARY KEY` column — the server's key itself
    /// when it is one integer column, so a row's id is its primary key — or
    /// nil when rows are numbered by SQLite's `rowid` (in the server key's
    /// order at the copy, new rows after).
    public let rowIDColumn: String?
    /// Why rows cannot be deleted (a view; a table without a primary key), or
    /// nil when they can — as far as the table goes: the role's privileges
    /// are ``PostgresReplica/privileges()``'.
    public let readOnlyReason: String?
    /// How many rows the copy held when it was made.
    public let rowCount: Int
}
