import CSQLite

/// What SQLite's pre-update hook reports while ``Database/recordingChanges(excluding:_:)``
/// runs: every row change of the connection, foreign-key actions and trigger programs
/// included, with the row's values before and after, as they come. No SQL may run inside
/// the hook, so the tables' shapes are read afterwards (``log(reading:)``).
final class PreupdateRecorder {
    /// One hook call, values in the hook's column order.
    struct Entry {
        var schema: String
        var table: String
        var kind: LoggedRowChange.Kind
        var oldRowID: Int64
        var newRowID: Int64
        var old: [StoreValue]?
        var new: [StoreValue]?
    }

    private(set) var entries: [Entry] = []
    /// Tables whose changes are not recorded (history tables, which have their own rules).
    private let excluded: Set<String>

    init(excluding tables: Set<String>) {
        self.excluded = tables
    }

    /// Called by the hook for each row about to change.
    func record(
        connection: OpaquePointer,
        op: Int32,
        schema: String,
        table: String,
        key1: Int64,
        key2: Int64
    ) {
        if excluded.contains(table) || table.hasPrefix("sqlite_") { return }
        let count = sqlite3_preupdate_count(connection)
        switch op {
        case SQLITE_INSERT:
            entries.append(
                Entry(
                    schema: schema,
                    table: table,
                    kind: .insert,
                    oldRowID: 0,
                    newRowID: key2,
                    old: nil,
                    new: PreupdateRecorder.values(connection, count: count, old: false)
                )
            )
        case SQLITE_DELETE:
            entries.append(
                Entry(
                    schema: schema,
                    table: table,
                    kind: .delete,
                    oldRowID: key1,
                    newRowID: 0,
                    old: PreupdateRecorder.values(connection, count: count, old: true),
                    new: nil
                )
            )
        default:
            entries.append(
                Entry(
                    schema: schema,
                    table: table,
                    kind: .update,
                    oldRowID: key1,
                    newRowID: key2,
                    old: PreupdateRecorder.values(connection, count: count, old: true),
                    new: PreupdateRecorder.values(connection, count: count, old: false)
                )
            )
        }
    }

    /// True when a row of `table` with `rowID` was deleted by the recorded writes so far
    /// (by a foreign-key action or a trigger of an earlier statement of the same transaction).
    func hasDeleted(table: String, rowID: Int64) -> Bool {
        entries.contains { $0.kind == .delete && $0.table == table && $0.oldRowID == rowID }
    }

    private static func values(_ connection: OpaquePointer, count: Int32, old: Bool) -> [StoreValue] {
        var result: [StoreValue] = []
        result.reserveCapacity(Int(count))
        for i in 0..<count {
            var value: OpaquePointer?
            let rc = old ? sqlite3_preupdate_old(connection, i, &value) : sqlite3_preupdate_new(connection, i, &value)
            result.append(rc == SQLITE_OK ? StoreValue(sqliteValue: value) : .null)
        }
        return result
    }

    /// The entries as a ``RowChangeLog``: each table's shape read once (inside the same
    /// transaction), the values named by their columns.
    func log(reading database: Database) throws -> RowChangeLog {
        var shapes: [String: (LoggedTable, [(name: String, index: Int)])] = [:]
        var log = RowChangeLog()
        log.changes.reserveCapacity(entries.count)
        for entry in entries {
            let key = entry.schema + "\u{0}" + entry.table
            let shape: (LoggedTable, [(name: String, index: Int)])
            if let known = shapes[key] {
                shape = known
            } else {
                shape = try PreupdateRecorder.shape(of: entry.table, schema: entry.schema, in: database)
                shapes[key] = shape
            }
            let (table, positions) = shape
            func named(_ values: [StoreValue]?, rowID: Int64) -> [String: StoreValue]? {
                guard let values else { return nil }
                var row: [String: StoreValue] = [:]
                for (name, index) in positions { row[name] = index < values.count ? values[index] : .null }
                // The hook reports the INTEGER PRIMARY KEY as the row id, whatever its position.
                if let key = table.integerKey { row[key] = .integer(rowID) }
                return row
            }
            log.changes.append(
                LoggedRowChange(
                    table: table,
                    kind: entry.kind,
                    oldRowID: entry.oldRowID,
                    newRowID: entry.newRowID,
                    old: named(entry.old, rowID: entry.oldRowID),
                    new: named(entry.new, rowID: entry.newRowID)
                )
            )
        }
        return log
    }

    /// A table's writable columns with their positions among the hook's values, its key, its row id's name.
    static func shape(
        of table: String,
        schema: String,
        in database: Database
    ) throws -> (LoggedTable, [(name: String, index: Int)]) {
        let isWithoutRowID =
            try database.scalar(
                "SELECT wr FROM pragma_table_list WHERE schema = ? AND name = ?",
                [.text(schema), .text(table)]
            ).int64 == 1
        var names: [String] = []
        var writable: [String] = []
        var positions: [(name: String, index: Int)] = []
        var keys: [(order: Int64, name: String, type: String)] = []
        var stored = 0
        var position = 0
        try database.forEachRow(
            "SELECT name, hidden, pk, upper(type) FROM pragma_table_xinfo(?, ?) ORDER BY cid",
            [.text(table), .text(schema)]
        ) { row in
            let name = row.text(at: 0)
            let hidden = row.int64(at: 1)
            names.append(name.lowercased())
            if row.int64(at: 2) > 0 { keys.append((row.int64(at: 2), name, row.text(at: 3))) }
            // 2: a VIRTUAL generated column (not in the stored record), 3: a STORED one.
            let index = PreupdateColumnOrder.omitsVirtualColumns ? stored : position
            if hidden == 0 {
                writable.append(name)
                positions.append((name, index))
            }
            if hidden != 2 { stored += 1 }
            position += 1
        }
        keys.sort { $0.order < $1.order }
        var integerKey: String?
        var rowIDName: String?
        if !isWithoutRowID {
            if keys.count == 1, keys[0].type == "INTEGER" { integerKey = keys[0].name }
            rowIDName = integerKey ?? ["rowid", "_rowid_", "oid"].first { !names.contains($0) }
        }
        let logged = LoggedTable(
            schema: schema,
            name: table,
            writableColumns: writable,
            keyColumns: isWithoutRowID ? keys.map(\.name) : [],
            rowIDName: rowIDName,
            integerKey: integerKey
        )
        return (logged, positions)
    }
}

/// Whether this SQLite's `sqlite3_preupdate_old` counts columns as they are stored (VIRTUAL
/// generated columns left out, as 3.40 does) or as the table declares them: found once,
/// on a table in memory, so that either kind of library is read right.
enum PreupdateColumnOrder {
    static let omitsVirtualColumns: Bool = probe()

    private static func probe() -> Bool {
        var connection: OpaquePointer?
        guard sqlite3_open(":memory:", &connection) == SQLITE_OK, let connection else { return true }
        defer { sqlite3_close(connection) }
        sqlite3_exec(
            connection,
            "CREATE TABLE t(a, v GENERATED ALWAYS AS (a + 100) VIRTUAL, b); INSERT INTO t(a, b) VALUES (1, 7)",
            nil,
            nil,
            nil
        )
        final class Seen { var second: Int64 = 0 }
        let seen = Seen()
        let unmanaged = Unmanaged.passRetained(seen)
        defer { unmanaged.release() }
        sqlite3_preupdate_hook(
            connection,
            { context, connection, _, _, _, _, _ in
                guard let context, let connection else { return }
                var value: OpaquePointer?
                if sqlite3_preupdate_old(connection, 1, &value) == SQLITE_OK {
                    Unmanaged<Seen>.fromOpaque(context).takeUnretainedValue().second = sqlite3_value_int64(value)
                }
            },
            unmanaged.toOpaque()
        )
        sqlite3_exec(connection, "DELETE FROM t", nil, nil, nil)
        sqlite3_preupdate_hook(connection, nil, nil)
        return seen.second != 101
    }
}

extension StoreValue {
    /// The value of an `sqlite3_value` in its storage class.
    init(sqliteValue value: OpaquePointer?) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            guard let p = sqlite3_value_text(value) else {
                self = .text("")
                return
            }
            self = .text(
                String(decoding: UnsafeBufferPointer(start: p, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
            )
        case SQLITE_BLOB:
            guard let p = sqlite3_value_blob(value) else {
                self = .blob([])
                return
            }
            self = .blob(Array(UnsafeRawBufferPointer(start: p, count: Int(sqlite3_value_bytes(value)))))
        default: self = .null
        }
    }
}
