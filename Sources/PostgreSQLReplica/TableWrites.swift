import PostgreSQLClient
import SQLiteStore

/// A server table's rows changed by primary key, each change in one transaction on the
/// server and nothing else: the guarded `UPDATE`, the `DELETE` whose rows undo writes back,
/// the `INSERT … RETURNING` the row, and the guarded `DELETE` that undoes it. What a replica's writes (``ReplicaWrites``, which then
/// bring the replica up to the server) and a query's result over one table share — one
/// implementation for both.
///
/// A cell is written only when the server still holds what was shown (or, for undo and
/// redo, what the last write left there): the row is locked (`FOR UPDATE`, waiting
/// ``lockTimeout`` at most, then naming the sessions that hold it), its value compared, and
/// only then updated; any other value is another session's, kept, and the write is a
/// ``ReplicaError/conflict(reason:)``. A row a write added (or wrote back) is deleted by its
/// undo (or redo) in the same way: only while every column still holds what the write left.
///
///     var writes = TableWrites(table: description)
///     let edit = try writes.update(key: ["7"], column: "qty", to: "3", expecting: .shown(.integer(2)), on: connection).get()
package struct TableWrites: Sendable {
    let shape: ReplicaShape
    /// Seconds a write waits for a lock another transaction holds before it says whose it is.
    package var lockTimeout: Double = 6

    init(shape: ReplicaShape) { self.shape = shape }

    /// The writes of `table`'s rows.
    package init(table: TableDescription) { shape = ReplicaShape(table, changeFeed: .init()) }

    /// Why no row of the table can be changed (a view, no primary key), nil when they can.
    package var readOnlyReason: String? { shape.readOnlyReason }

    /// Deletes the rows of `keys` (primary key values as the server's text) in one
    /// transaction; returns them as the server held them (for ``restore(_:on:)``), each with
    /// its row id from `rowIDs` (0 when not there). Rows already gone are left out. With
    /// `shown` (a column's name → the value shown, for one key), the row is deleted only while
    /// it still holds those values: otherwise a ``ReplicaError/conflict(reason:)``, nothing deleted.
    package func delete(
        keys: [[String]],
        rowIDs: [[String]: Int64] = [:],
        shown: [String: StoreValue] = [:],
        on connection: PostgresConnection
    ) throws -> [DeletedRow] {
        try delete(keys: keys, rowIDs: rowIDs, on: connection) {
            if !shown.isEmpty { try checkShown(shown, key: keys[0], on: connection) }
        }
    }

    /// Deletes `rows` (undo of ``insert(_:on:)``, redo of ``restore(_:on:)``) in one
    /// transaction, each only while the server still holds what the write left in it: any
    /// other value is another session's, and the delete a ``ReplicaError/conflict(reason:)``
    /// with nothing deleted. Returns the rows as ``delete(keys:rowIDs:shown:on:)`` does; rows
    /// already gone are left out.
    package func delete(_ rows: [AddedRow], on connection: PostgresConnection) throws -> [DeletedRow] {
        let rowIDs = Dictionary(rows.map { ($0.key, $0.rowID) }, uniquingKeysWith: { first, _ in first })
        let added = Set(rows.filter(\.wasAdded).map(\.key))
        return try delete(keys: rows.map(\.key), rowIDs: rowIDs, added: added, on: connection) {
            try checkHeld(rows, on: connection)
        }
    }

    /// The delete of the rows of `keys`, `check` run first in its transaction (a throw deletes
    /// nothing); the rows of `added` are ones the user added (``DeletedRow/wasAdded``).
    private func delete(
        keys: [[String]],
        rowIDs: [[String]: Int64],
        added: Set<[String]> = [],
        on connection: PostgresConnection,
        check: () throws -> Void
    ) throws -> [DeletedRow] {
        if let reason = shape.readOnlyReason { throw ReplicaError.readOnly(reason: reason) }
        if let refusal = try TableWrites.undoRefusal(of: shape.description, on: connection) {
            throw ReplicaError.readOnly(reason: refusal)
        }
        guard !keys.isEmpty else { return [] }
        let names = shape.columns.map(\.name)
        let returning =
            names.map(SQLIdentifier.quote).joined(separator: ", ") + ", " + shape.keyTexts.joined(separator: ", ")
        return try lockHolders(of: keys, on: connection) { () throws -> [DeletedRow] in
            try connection.execute("SET LOCAL lock_timeout = \(Int(lockTimeout * 1000))")
            try check()
            let result = try connection.query(
                "DELETE FROM \(shape.source.quoted) WHERE \(shape.keyCondition) RETURNING \(returning)",
                shape.keyParameters(keys)
            )
            // Undo writes back the server's text: a value read with U+FFFD in it must not be (the rollback keeps the row).
            for row in 0..<result.rowCount {
                if let column = names.indices.first(where: { !result.textIsExact(row: row, column: $0) }) {
                    throw ReplicaError.readOnly(
                        reason: "the value of \(names[column]) is not valid UTF-8 (the database's encoding is "
                            + "SQL_ASCII?), so undo could not write it back as it was"
                    )
                }
            }
            return (0..<result.rowCount).map { row in
                let key = shape.keyColumns.indices.map { result.text(row: row, column: names.count + $0) ?? "" }
                return DeletedRow(
                    columns: names,
                    values: names.indices.map { result[row, $0] },
                    rowID: rowIDs[key] ?? 0,
                    serverTexts: names.indices.map { result.text(row: row, column: $0) },
                    wasAdded: added.contains(key)
                )
            }
        }
    }

    /// Throws a conflict when the row of `key`, locked, no longer holds the values `shown`.
    private func checkShown(_ shown: [String: StoreValue], key: [String], on connection: PostgresConnection) throws {
        let read = try connection.query(
            "SELECT \(shape.selectList) \(shape.fromClause) WHERE \(shape.keyCondition) FOR UPDATE",
            shape.keyParameters([key])
        )
        guard read.rowCount == 1 else { return }
        let row = ServerRow(read, row: 0, shape: shape, keys: ReplicaOrderKeys(shape.orders))
        for (column, value) in shown.sorted(by: { $0.key < $1.key }) {
            guard let index = shape.columns.firstIndex(where: { $0.name == column }) else { continue }
            let described = shape.description.columns.first { $0.name == column }
            if !TableWrites.sameValue(row.values[index], value),
                try !(described.map { try holdsInstant(value, column: $0, key: key, on: connection) } ?? false)
            {
                throw ReplicaError.conflict(
                    reason: "\(column) was changed by another session since it was shown; nothing was deleted"
                )
            }
        }
    }

    /// Throws a conflict when a row of `rows`, locked, no longer holds what the write that put
    /// it there left (each column's server text compared); a row gone is left to the delete.
    private func checkHeld(_ rows: [AddedRow], on connection: PostgresConnection) throws {
        let names = shape.columns.map(\.name)
        let read = try connection.query(
            "SELECT \(heldList) FROM \(shape.source.quoted) WHERE \(shape.keyCondition) FOR UPDATE",
            shape.keyParameters(rows.map(\.key))
        )
        var held: [[String]: [String?]] = [:]
        for row in 0..<read.rowCount {
            let key = shape.keyColumns.indices.map { read.text(row: row, column: names.count + $0) ?? "" }
            held[key] = names.indices.map { read.text(row: row, column: $0) }
        }
        for row in rows {
            guard let now = held[row.key] else { continue }
            for (index, column) in names.enumerated() {
                guard let written = row.columns.firstIndex(of: column), row.serverTexts[written] != now[index]
                else { continue }
                throw ReplicaError.conflict(
                    reason: "\(column) was changed by another session \(row.since): not deleted"
                )
            }
        }
    }

    /// What a write returns and ``checkHeld(_:on:)`` reads of a row: every column, then the key's texts.
    private var heldList: String {
        (shape.columns.map { SQLIdentifier.quote($0.name) } + shape.keyTexts).joined(separator: ", ")
    }

    /// Row `row` of `result` (which selected ``heldList``) as a write left it.
    private func addedRow(_ result: QueryResult, row: Int, rowID: Int64, origin: AddedRow.Origin) -> AddedRow {
        let names = shape.columns.map(\.name)
        return AddedRow(
            rowID: rowID,
            key: shape.keyColumns.indices.map { result.text(row: row, column: names.count + $0) ?? "" },
            columns: names,
            serverTexts: names.indices.map { result.text(row: row, column: $0) },
            origin: origin
        )
    }

    /// Writes `rows` (from ``delete(keys:rowIDs:shown:on:)``) back in one transaction; returns
    /// them as the server then holds them, for ``delete(_:on:)`` (redo).
    package func restore(_ rows: [DeletedRow], on connection: PostgresConnection) throws -> [AddedRow] {
        if let reason = shape.readOnlyReason { throw ReplicaError.readOnly(reason: reason) }
        var restored: [AddedRow] = []
        let described = Dictionary(
            shape.description.columns.map { ($0.name, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        try connection.transaction {
            for row in rows {
                // Generated columns are the server's to compute: never written.
                let written = row.columns.indices.filter { described[row.columns[$0]]?.isWritable ?? true }
                let columns = written.map { SQLIdentifier.quote(row.columns[$0]) }.joined(separator: ", ")
                let values = written.enumerated().map { parameter, index in
                    "$\(parameter + 1)::\(described[row.columns[index]]?.typeName ?? "text")"
                }.joined(separator: ", ")
                let result = try connection.query(
                    "INSERT INTO \(shape.source.quoted) (\(columns)) OVERRIDING SYSTEM VALUE VALUES (\(values))"
                        + " RETURNING \(heldList)",
                    written.map { row.text(at: $0) }
                )
                restored.append(
                    addedRow(result, row: 0, rowID: row.rowID, origin: row.wasAdded ? .addedAgain : .putBack)
                )
            }
        }
        return restored
    }

    /// Inserts a row of `values` (column name → text cast to its type, nil: NULL; the columns
    /// left out take their DEFAULT); returns it as the server holds it then (its key, every
    /// column's text), which ``delete(_:on:)`` (undo) compares.
    package func insert(_ values: [String: String?], on connection: PostgresConnection) throws -> AddedRow {
        if let reason = shape.readOnlyReason { throw ReplicaError.readOnly(reason: reason) }
        let written = shape.description.columns.filter { values.keys.contains($0.name) }
        if let refused = written.first(where: { !$0.isWritable || $0.generation == .identityAlways }) {
            throw ReplicaError.readOnly(
                reason: TableWrites.editRefusal(of: refused) ?? "\(refused.name) is not written"
            )
        }
        let returning = heldList
        let sql: String
        if written.isEmpty {
            sql = "INSERT INTO \(shape.source.quoted) DEFAULT VALUES RETURNING \(returning)"
        } else {
            let columns = written.map { SQLIdentifier.quote($0.name) }.joined(separator: ", ")
            let casts = written.indices.map { "$\($0 + 1)::\(written[$0].typeName)" }.joined(separator: ", ")
            sql = "INSERT INTO \(shape.source.quoted) (\(columns)) VALUES (\(casts)) RETURNING \(returning)"
        }
        let result = try connection.query(sql, written.map { values[$0.name] ?? nil })
        return addedRow(result, row: 0, rowID: 0, origin: .added)
    }

    /// The guarded write of `text` (nil: NULL) into `column` of the row of `key`: the row
    /// locked, its value compared with `expecting`, then updated — or, when another session
    /// changed or deleted it, the conflict (nothing written). `rowID` is carried into the edit.
    package func update(
        key: [String],
        rowID: Int64 = 0,
        column: String,
        to text: String?,
        expecting: CellExpectation,
        on connection: PostgresConnection
    ) throws -> Result<EditedCell, ReplicaError> {
        if let reason = shape.readOnlyReason { throw ReplicaError.readOnly(reason: reason) }
        guard let index = shape.columns.firstIndex(where: { $0.name == column }),
            let described = shape.description.columns.first(where: { $0.name == column })
        else { throw ReplicaError.readOnly(reason: "\(shape.description.displayName) has no column \(column)") }
        if let reason = TableWrites.editRefusal(of: described) { throw ReplicaError.readOnly(reason: reason) }
        let name = SQLIdentifier.quote(column)
        // The column's server text follows the replica's select list (columns, order sources, keys).
        let textColumn = shape.columns.count + shape.ordered.count + shape.keyColumns.count
        return try lockHolders(of: [key], on: connection) { () throws -> Result<EditedCell, ReplicaError> in
            try connection.execute("SET LOCAL lock_timeout = \(Int(lockTimeout * 1000))")
            let read = try connection.query(
                "SELECT \(shape.selectList), \(ReplicaShape.sortColumn(column))::text \(shape.fromClause)"
                    + " WHERE \(shape.keyCondition) FOR UPDATE",
                shape.keyParameters([key])
            )
            guard read.rowCount == 1 else {
                return .failure(.conflict(reason: "another session deleted the row since it was shown"))
            }
            let now = read.text(row: 0, column: textColumn)
            let unchanged: Bool
            switch expecting {
            case .shown(let value):
                let row = ServerRow(read, row: 0, shape: shape, keys: ReplicaOrderKeys(shape.orders))
                unchanged =
                    try TableWrites.sameValue(row.values[index], value)
                    || holdsInstant(value, column: described, key: key, on: connection)
            case .server(let text):
                unchanged = now == text
            }
            guard unchanged else {
                return .failure(.conflict(reason: "\(column) was changed by another session since it was shown"))
            }
            // Undo writes back the server's text: a value read with U+FFFD in it must not be.
            guard read.textIsExact(row: 0, column: textColumn) else {
                throw ReplicaError.readOnly(
                    reason: "the value of \(column) is not valid UTF-8 (the database's encoding is SQL_ASCII?), "
                        + "so undo could not write it back as it was"
                )
            }
            let parameter = "$\(shape.keyColumns.count + 1)"
            let result = try connection.query(
                "UPDATE \(shape.source.quoted) SET \(name) = \(parameter)::\(described.typeName)"
                    + " WHERE \(shape.keyCondition) RETURNING \(name)::text, \(shape.keyTexts.joined(separator: ", "))",
                shape.keyParameters([key]) + [text]
            )
            let newKey = shape.keyColumns.indices.map { result.text(row: 0, column: 1 + $0) ?? "" }
            return .success(
                EditedCell(
                    column: column,
                    rowID: rowID,
                    key: newKey,
                    before: now,
                    after: result.text(row: 0, column: 0)
                )
            )
        }
    }

    /// Writes `edit`'s value before back over its value after (undo; a reverted edit's revert
    /// is redo), when the server still holds the value after.
    package func revert(
        _ edit: EditedCell,
        on connection: PostgresConnection
    ) throws -> Result<EditedCell, ReplicaError> {
        try update(
            key: edit.key,
            rowID: edit.rowID,
            column: edit.column,
            to: edit.before,
            expecting: .server(edit.after),
            on: connection
        )
    }

    /// Why `column` can never be written by an UPDATE (nil: it can): a generated column, an
    /// identity column `GENERATED ALWAYS`, binary data (the replica holds only its size).
    package static func editRefusal(of column: ColumnDescription) -> String? {
        switch column.generation {
        case .stored: return "\(column.name) is a generated column (the server computes it)"
        case .identityAlways: return "\(column.name) is an identity column GENERATED ALWAYS (the server numbers it)"
        default: break
        }
        if column.typeOID == 17 || column.baseTypeOID == 17 {
            return "\(column.name) holds binary data (bytea), shown as its size, not edited as text"
        }
        return nil
    }

    /// Whether the value `held` is the one the browser showed: the same, or the same number.
    static func sameValue(_ held: StoreValue, _ shown: StoreValue) -> Bool {
        if held == shown { return true }
        switch (held, shown) {
        case (.integer(let a), .real(let b)), (.real(let b), .integer(let a)): return Double(a) == b
        default: return false
        }
    }

    /// Whether the `timestamptz` column of the row of `key` holds the instant `shown` names as a
    /// query's result holds it — the server's text with the offset of the result's session, where
    /// a replica holds the local time — as the server compares them. False for another type.
    func holdsInstant(
        _ shown: StoreValue,
        column: ColumnDescription,
        key: [String],
        on connection: PostgresConnection
    ) throws -> Bool {
        guard column.isTimestampWithTimeZone, case .text(let text) = shown else { return false }
        let parameter = "$\(shape.keyColumns.count + 1)"
        let read = try connection.query(
            "SELECT \(SQLIdentifier.quote(column.name)) = \(parameter)::timestamptz \(shape.fromClause)"
                + " WHERE \(shape.keyCondition)",
            shape.keyParameters([key]) + [text]
        )
        return read.rowCount == 1 && read.text(row: 0, column: 0) == "t"
    }

    /// Runs `body` in a transaction; when it gives up waiting for a lock (`lock_timeout`,
    /// SQLSTATE 55P03), throws ``ReplicaError/locked(holders:waited:)`` naming the sessions that
    /// hold a lock on the rows of `keys` (the transaction in their `xmax`) or on the table.
    func lockHolders<T>(
        of keys: [[String]],
        on connection: PostgresConnection,
        _ body: () throws -> T
    ) throws -> T {
        do {
            return try connection.transaction(body)
        } catch let error as PostgresError where error.sqlState == "55P03" {
            let table = "$\(shape.keyColumns.count + 1)::regclass"
            let result = try connection.query(
                """
                SELECT a.pid, coalesce(a.usename, '?'), coalesce(nullif(a.application_name, ''), 'no application'),
                       coalesce(a.state, '?'), coalesce(extract(epoch FROM now() - a.xact_start)::int, 0)
                FROM pg_stat_activity a
                WHERE a.pid <> pg_backend_pid() AND (
                    a.backend_xid IN (SELECT t.xmax FROM \(shape.source.quoted) t WHERE \(shape.keyCondition))
                    OR a.pid IN (SELECT l.pid FROM pg_locks l WHERE l.relation = \(table) AND l.granted
                                 AND l.mode IN ('ShareLock', 'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock')))
                ORDER BY a.xact_start
                """,
                shape.keyParameters(keys) + [shape.source.quoted]
            )
            let holders = (0..<result.rowCount).map { row in
                let text = { (column: Int) in result.text(row: row, column: column) ?? "" }
                return "process \(text(0)) (role \(text(1)), \(text(2))), \(text(3)) for \(text(4)) s"
            }
            throw ReplicaError.locked(holders: holders, waited: lockTimeout)
        }
    }

    /// Why a row deleted from `table` could not be written back as it was — so that it must
    /// not be deleted here — or nil when undo can do it: the role may insert every column
    /// undo writes (`has_column_privilege`), and no foreign key of another table cascades
    /// the delete (`ON DELETE CASCADE`, `SET NULL`, `SET DEFAULT` change rows undo knows
    /// nothing of).
    static func undoRefusal(
        of table: TableDescription,
        on connection: PostgresConnection
    ) throws(PostgresError)
        -> String?
    {
        let writable = table.columns.filter(\.isWritable).map(\.name)
        let result = try connection.query(
            """
            SELECT (SELECT string_agg(quote_ident(c), ', ') FROM unnest($2::text[]) AS c
                    WHERE NOT has_column_privilege($1::regclass, c, 'INSERT')),
                   (SELECT string_agg(DISTINCT f.conrelid::regclass::text || CASE f.confdeltype
                               WHEN 'c' THEN ' (ON DELETE CASCADE)' WHEN 'n' THEN ' (ON DELETE SET NULL)'
                               ELSE ' (ON DELETE SET DEFAULT)' END, ', ')
                    FROM pg_constraint f
                    WHERE f.contype = 'f' AND f.confrelid = $1::regclass AND f.confdeltype IN ('c', 'n', 'd'))
            """,
            [table.name.quoted, PostgresValue.array(writable.map(PostgresValue.text)).parameterText]
        )
        if let columns = result.text(row: 0, column: 0) {
            return "the role may not insert into \(columns) of \(table.displayName), so a delete could not be undone"
        }
        if let references = result.text(row: 0, column: 1) {
            return "a delete from \(table.displayName) also changes rows of \(references), "
                + "which undo could not write back"
        }
        return nil
    }
}
