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
    /// Why `column` can never be written by an UPDATE (nil: it can): ``TableWrites/editRefusal(of:)``.
    static func editRefusal(of column: ColumnDescription) -> String? { TableWrites.editRefusal(of: column) }

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
    /// left out take their DEFAULT) and returns it as the server held it, named by its row id
    /// in the replica, which holds it.
    func insert(_ values: [String: String?], on connection: PostgresConnection) throws(ReplicaError) -> AddedRow {
        if let reason = shape.readOnlyReason { throw .readOnly(reason: reason) }
        do {
            let store = try ReplicaStore(path: replica.table.path, shape: shape, tracking: replica.tracking)
            let added = try server.insert(values, on: connection)
            _ = try ReplicaSync(store: store).refresh(keys: [added.key], on: connection)
            guard let rowID = try store.rowID(forKey: ReplicaKey.encode(added.key)) else {
                throw ReplicaError.conflict(reason: "another session deleted the new row before the copy read it")
            }
            return added.with(rowID: rowID)
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
        let outcome = try server.update(
            key: key,
            rowID: rowID,
            column: column,
            to: text,
            expecting: expecting,
            on: connection
        )
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
}
