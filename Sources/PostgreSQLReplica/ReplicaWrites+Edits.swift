import PostgreSQLClient
import SQLiteStore

/// A browser's cell edits and added rows: each written on the server in one transaction,
/// then brought into the replica (one SQLite transaction), as ``ReplicaWrites/delete(rowIDs:on:)`` does.
///
/// A cell is written only when the server still holds what the browser showed (or, for undo
/// and redo, what the last write left there): the row is locked (`FOR UPDATE`, waiting
/// ``ReplicaWrites/lockTimeout`` at most, then naming the sessions that hold it), its value
/// compared, and only then updated; any other value is another session's, kept, and the
/// write is a ``ReplicaError/conflict(reason:)``. The value before is kept in the server's
/// exact text (refused, as delete refuses, when it is not valid UTF-8), so undo writes back
/// exactly what was there, cast to the column's type.
extension ReplicaWrites {
    /// Why `column` can never be written by an UPDATE (nil: it can): a generated column, an
    /// identity column `GENERATED ALWAYS`, binary data (the replica holds only its size).
    static func editRefusal(of column: ColumnDescription) -> String? {
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

    /// Writes `text` (nil: NULL), cast to the column's type, into `column` of the row the
    /// replica names `rowID`, when the server holds `expecting` there.
    func update(
        rowID: Int64,
        column: String,
        to text: String?,
        expecting: CellExpectation,
        on connection: PostgresConnection
    ) throws(ReplicaError) -> EditedCell {
        if let reason = shape.readOnlyReason { throw .readOnly(reason: reason) }
        do {
            let store = try ReplicaStore(path: replica.table.path, shape: shape, tracking: replica.tracking)
            guard let key = try store.key(ofRowID: rowID) else {
                throw ReplicaError.conflict(reason: "another session deleted the row since it was shown")
            }
            return try write(
                column,
                of: key,
                rowID: rowID,
                to: text,
                expecting: expecting,
                store: store,
                on: connection
            )
        } catch {
            throw .wrap(error)
        }
    }

    /// Writes `edit`'s value before back over its value after (undo; a reverted edit's revert
    /// is redo), when the server still holds the value after.
    func revert(_ edit: EditedCell, on connection: PostgresConnection) throws(ReplicaError) -> EditedCell {
        if let reason = shape.readOnlyReason { throw .readOnly(reason: reason) }
        do {
            let store = try ReplicaStore(path: replica.table.path, shape: shape, tracking: replica.tracking)
            return try write(
                edit.column,
                of: edit.key,
                rowID: edit.rowID,
                to: edit.before,
                expecting: .server(edit.after),
                store: store,
                on: connection
            )
        } catch {
            throw .wrap(error)
        }
    }

    /// Inserts a row of `values` (column name → text cast to its type, nil: NULL; the columns
    /// left out take their DEFAULT) and returns its row id in the replica, which holds it.
    func insert(_ values: [String: String?], on connection: PostgresConnection) throws(ReplicaError) -> Int64 {
        if let reason = shape.readOnlyReason { throw .readOnly(reason: reason) }
        let written = shape.description.columns.filter { values.keys.contains($0.name) }
        if let refused = written.first(where: { !$0.isWritable || $0.generation == .identityAlways }) {
            throw .readOnly(reason: ReplicaWrites.editRefusal(of: refused) ?? "\(refused.name) is not written")
        }
        do {
            let store = try ReplicaStore(path: replica.table.path, shape: shape, tracking: replica.tracking)
            let returning = shape.keyTexts.joined(separator: ", ")
            let sql: String
            if written.isEmpty {
                sql = "INSERT INTO \(shape.source.quoted) DEFAULT VALUES RETURNING \(returning)"
            } else {
                let columns = written.map { SQLIdentifier.quote($0.name) }.joined(separator: ", ")
                let casts = written.indices.map { "$\($0 + 1)::\(written[$0].typeName)" }.joined(separator: ", ")
                sql = "INSERT INTO \(shape.source.quoted) (\(columns)) VALUES (\(casts)) RETURNING \(returning)"
            }
            let result = try connection.query(sql, written.map { values[$0.name] ?? nil })
            let key = shape.keyColumns.indices.map { result.text(row: 0, column: $0) ?? "" }
            _ = try ReplicaSync(store: store).refresh(keys: [key], on: connection)
            guard let rowID = try store.rowID(forKey: ReplicaKey.encode(key)) else {
                throw ReplicaError.conflict(reason: "another session deleted the new row before the copy read it")
            }
            return rowID
        } catch {
            throw .wrap(error)
        }
    }

    /// The guarded write: the row locked, its value compared with `expecting`, then updated;
    /// the replica brought up to the server's row either way (a conflict shows the other
    /// session's value).
    private func write(
        _ column: String,
        of key: [String],
        rowID: Int64,
        to text: String?,
        expecting: CellExpectation,
        store: ReplicaStore,
        on connection: PostgresConnection
    ) throws -> EditedCell {
        guard let index = shape.columns.firstIndex(where: { $0.name == column }),
            let described = shape.description.columns.first(where: { $0.name == column })
        else { throw ReplicaError.readOnly(reason: "\(shape.description.displayName) has no column \(column)") }
        if let reason = ReplicaWrites.editRefusal(of: described) { throw ReplicaError.readOnly(reason: reason) }
        let name = SQLIdentifier.quote(column)
        // The column's server text follows the replica's select list (columns, order sources, keys).
        let textColumn = shape.columns.count + shape.ordered.count + shape.keyColumns.count
        let outcome = try lockHolders(of: [key], on: connection) { () throws -> Result<EditedCell, ReplicaError> in
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
                unchanged = ReplicaWrites.sameValue(row.values[index], value)
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
        switch outcome {
        case .success(let edit):
            let keys = edit.key == key ? [key] : [key, edit.key]
            _ = try ReplicaSync(store: store).refresh(
                keys: keys,
                on: connection,
                preferredRowIDs: [ReplicaKey.encode(edit.key): rowID]
            )
            let movedTo = try store.rowID(forKey: ReplicaKey.encode(edit.key)) ?? rowID
            return EditedCell(column: column, rowID: movedTo, key: edit.key, before: edit.before, after: edit.after)
        case .failure(let conflict):
            _ = try ReplicaSync(store: store).refresh(keys: [key], on: connection)
            throw conflict
        }
    }

    /// Whether the replica's value `held` is the one the browser showed: the same, or the same number.
    static func sameValue(_ held: StoreValue, _ shown: StoreValue) -> Bool {
        if held == shown { return true }
        switch (held, shown) {
        case (.integer(let a), .real(let b)), (.real(let b), .integer(let a)): return Double(a) == b
        default: return false
        }
    }
}
