/// A table or view as the catalog describes it: its columns, its primary
/// key and how many rows it holds.
public struct TableDescription: Hashable, Sendable {
    /// What kind of relation it is.
    public enum Kind: String, Hashable, Sendable {
        /// An ordinary table.
        case table
        /// A partitioned table (its rows live in its partitions).
        case partitionedTable
        /// A view: no primary key, never written to.
        case view
        /// A materialized view.
        case materializedView
        /// A foreign table.
        case foreignTable
    }

    /// Its schema and name.
    public let name: TableName
    /// The name a person types and reads: unqualified when the search path
    /// finds this relation by it, else `schema.name` (each part quoted only
    /// when SQL needs it).
    public let displayName: String
    /// Table, view…
    public let kind: Kind
    /// The columns in table order.
    public let columns: [ColumnDescription]
    /// The primary key's columns in key order; empty without a primary key
    /// (always for a view).
    public let primaryKey: [String]
    /// How many rows: exact for a small table, the planner's estimate for a
    /// large one or a view.
    public let rowCount: RowCount
}

/// A column of a table or view.
public struct ColumnDescription: Hashable, Sendable {
    /// The column's name.
    public let name: String
    /// Its type as SQL writes it (`bigint`, `character varying(40)`, `timestamp with time zone`).
    public let typeName: String
    /// Its type's OID (`pg_type.oid`).
    public let typeOID: UInt32
    /// Whether it may hold NULL.
    public let isNullable: Bool
}

/// A row count, exact or estimated.
public enum RowCount: Hashable, Sendable {
    /// Counted (`count(*)`): the table is small.
    case exact(Int)
    /// The planner's estimate (`pg_class.reltuples` scaled to the table's
    /// current size, or `EXPLAIN`'s): the table is large, or a view.
    case estimated(Int)

    /// The number, exact or not.
    public var value: Int {
        switch self {
        case .exact(let value), .estimated(let value): value
        }
    }
}

/// What the connected role may do with a table (`has_table_privilege`).
public struct TablePrivileges: Hashable, Sendable {
    /// `SELECT`.
    public let select: Bool
    /// `INSERT` (an undone delete writes the row again).
    public let insert: Bool
    /// `UPDATE`.
    public let update: Bool
    /// `DELETE`.
    public let delete: Bool

    /// Privileges as given.
    public init(select: Bool, insert: Bool, update: Bool, delete: Bool) {
        self.select = select
        self.insert = insert
        self.update = update
        self.delete = delete
    }
}

/// A table's activity counters (`pg_stat_user_tables`) and storage identity:
/// a cheap signal, read without touching the table, that its rows may have
/// changed. Compare two readings; any difference means "refetch".
///
/// The counters are not immediate. In PostgreSQL 15 a backend adds its
/// pending statistics to the shared ones when it goes idle after a commit,
/// but at most once a second; pending statistics of a backend that then
/// stays idle wait up to 10 s (`PGSTAT_IDLE_INTERVAL`). Measured here: a
/// long-lived writer's first UPDATE showed up 10.0 s after its commit; a
/// writer that exits (`psql -c`) flushes on the way out, at once. So the
/// counters see a busy writer within about a second and an occasional one
/// within about ten. `TRUNCATE` moves no counter; it changes ``fileNode``
/// at once. ``Catalog/writePosition(on:)`` moves at once on any write in
/// the cluster.
public struct ChangeCounters: Hashable, Sendable {
    /// Rows inserted (`n_tup_ins`).
    public let inserted: Int64
    /// Rows updated (`n_tup_upd`).
    public let updated: Int64
    /// Rows deleted (`n_tup_del`).
    public let deleted: Int64
    /// The storage file (`pg_relation_filenode`); new after `TRUNCATE`,
    /// `VACUUM FULL` or `CLUSTER`.
    public let fileNode: Int64
}
