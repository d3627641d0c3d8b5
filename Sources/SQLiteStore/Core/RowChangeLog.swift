/// Every row one write transaction inserted, changed or removed — those the
/// statements named and those that foreign-key actions (`ON DELETE CASCADE`,
/// `SET NULL`, `SET DEFAULT`) and triggers changed on their own — with all of
/// their values before and after, in the order they happened.
///
/// Made by ``Database/recordingChanges(excluding:_:)`` from SQLite's pre-update
/// hook; ``Database/revert(_:)`` undoes it, row by row, in reverse order. That
/// is what makes an undo of a delete bring back what the delete cascaded to.
struct RowChangeLog {
    /// The changes in the order SQLite made them.
    var changes: [LoggedRowChange] = []

    /// True when the transaction changed no row (outside the excluded tables).
    var isEmpty: Bool { changes.isEmpty }
}

/// One row change of a ``RowChangeLog``.
struct LoggedRowChange {
    /// What happened to the row.
    enum Kind: Sendable {
        case insert, update, delete
    }

    /// The row's table and how to address its rows.
    var table: LoggedTable
    var kind: Kind
    /// The row id before (rowid tables; 0 in a `WITHOUT ROWID` table, and for an insert).
    var oldRowID: Int64
    /// The row id after (rowid tables; 0 in a `WITHOUT ROWID` table, and for a delete).
    var newRowID: Int64
    /// Every stored column's value before, by column name (nil for an insert).
    var old: [String: StoreValue]?
    /// Every stored column's value after, by column name (nil for a delete).
    var new: [String: StoreValue]?
}

/// A table rows were logged for, as read from its schema while the transaction ran.
struct LoggedTable: Hashable {
    /// The schema (`main`, `temp`, an attached name).
    var schema: String
    /// The table's name as in the schema.
    var name: String
    /// The columns an `INSERT` or `UPDATE` may set (generated columns left out), in table order.
    var writableColumns: [String]
    /// The primary key of a `WITHOUT ROWID` table; empty for a rowid table.
    var keyColumns: [String]
    /// A name that reaches a rowid table's row id (`rowid`, `_rowid_`, `oid`, or its `INTEGER PRIMARY KEY`);
    /// nil for a `WITHOUT ROWID` table, or when real columns hide every one of them.
    var rowIDName: String?
    /// The `INTEGER PRIMARY KEY` column (an alias of the row id), if any.
    var integerKey: String?

    /// `"schema"."name"`.
    var sqlName: String { SQLIdentifier.alwaysQuoted(schema) + "." + SQLIdentifier.alwaysQuoted(name) }
}
