import PostgreSQLClient
import SQLiteStore

/// A browser's writes: deleting rows on the server by primary key, then in
/// the replica; writing deleted rows back (undo). Each side in one transaction; the server's
/// side is ``TableWrites``'s.
///
/// A delete goes through only when its undo can be done: the rows' values came back from
/// the server exactly (valid UTF-8: a `SQL_ASCII` database may hold other bytes), and
/// ``TableWrites/undoRefusal(of:on:)`` finds nothing in the way. Undo writes back every column but the
/// generated ones, identity columns with `OVERRIDING SYSTEM VALUE`, each value in the
/// server's own text cast to the column's type.
struct ReplicaWrites {
    let replica: LoadedReplica
    /// Seconds a delete waits for a lock another transaction holds before it says whose it is.
    var lockTimeout: Double = 6
    var shape: ReplicaShape { replica.shape }

    /// The server's side of the writes.
    var server: TableWrites {
        var writes = TableWrites(shape: shape)
        writes.lockTimeout = lockTimeout
        return writes
    }

    func delete(rowIDs: [Int64], on connection: PostgresConnection) throws(ReplicaError) -> [DeletedRow] {
        if let reason = shape.readOnlyReason { throw .readOnly(reason: reason) }
        do {
            let store = try ReplicaStore(path: replica.table.path, shape: shape, tracking: replica.tracking)
            var keys: [[String]] = []
            var rowIDByKey: [[String]: Int64] = [:]
            for id in rowIDs {
                guard let key = try store.key(ofRowID: id) else { continue }
                keys.append(key)
                rowIDByKey[key] = id
            }
            guard !keys.isEmpty else { return [] }
            let deleted = try server.delete(keys: keys, rowIDs: rowIDByKey, on: connection)
            _ = try ReplicaSync(store: store).refresh(keys: keys, on: connection)
            return deleted
        } catch {
            throw .wrap(error)
        }
    }

    /// Deletes `rows` (undo of an insert, redo of a delete) on the server, each only while it
    /// holds what the write left (``TableWrites/delete(_:on:)``), then in the replica; a
    /// conflict brings the replica up to the other session's row.
    func delete(_ rows: [AddedRow], on connection: PostgresConnection) throws(ReplicaError) -> [DeletedRow] {
        if let reason = shape.readOnlyReason { throw .readOnly(reason: reason) }
        guard !rows.isEmpty else { return [] }
        do {
            let store = try ReplicaStore(path: replica.table.path, shape: shape, tracking: replica.tracking)
            let keys = rows.map(\.key)
            do {
                let deleted = try server.delete(rows, on: connection)
                _ = try ReplicaSync(store: store).refresh(keys: keys, on: connection)
                return deleted
            } catch let conflict as ReplicaError {
                if case .conflict = conflict { _ = try ReplicaSync(store: store).refresh(keys: keys, on: connection) }
                throw conflict
            }
        } catch {
            throw .wrap(error)
        }
    }

    /// Writes `rows` back on the server, then in the replica under their old row ids; returns
    /// them as written (for ``delete(_:on:)``, redo).
    func restore(_ rows: [DeletedRow], on connection: PostgresConnection) throws(ReplicaError) -> [AddedRow] {
        if let reason = shape.readOnlyReason { throw .readOnly(reason: reason) }
        guard !rows.isEmpty else { return [] }
        do {
            let store = try ReplicaStore(path: replica.table.path, shape: shape, tracking: replica.tracking)
            let restored = try server.restore(rows, on: connection)
            let keys = restored.map(\.key)
            var preferred: [String: Int64] = [:]
            for row in restored where row.rowID != 0 { preferred[ReplicaKey.encode(row.key)] = row.rowID }
            _ = try ReplicaSync(store: store).refresh(keys: keys, on: connection, preferredRowIDs: preferred)
            return try restored.map { row in
                try row.with(rowID: store.rowID(forKey: ReplicaKey.encode(row.key)) ?? row.rowID)
            }
        } catch {
            throw .wrap(error)
        }
    }
}
