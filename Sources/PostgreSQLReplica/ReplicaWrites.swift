import PostgreSQLClient
import SQLiteStore

/// A browser's writes: deleting rows on the server by primary key, then in
/// the replica; writing deleted rows back (undo). Each side in one transaction.
struct ReplicaWrites {
    let replica: LoadedReplica
    var shape: ReplicaShape { replica.shape }

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
            let names = shape.columns.map(\.name)
            let returning =
                names.map(SQLIdentifier.quote).joined(separator: ", ") + ", "
                + shape.keyColumns.map { "\(SQLIdentifier.quote($0))::text" }.joined(separator: ", ")
            let result = try connection.query(
                "DELETE FROM \(shape.source.quoted) WHERE \(shape.keyCondition) RETURNING \(returning)",
                shape.keyParameters(keys)
            )
            var deleted: [DeletedRow] = []
            for row in 0..<result.rowCount {
                let key = shape.keyColumns.indices.map { result.text(row: row, column: names.count + $0) ?? "" }
                deleted.append(
                    DeletedRow(
                        columns: names,
                        values: names.indices.map { result[row, $0] },
                        rowID: rowIDByKey[key] ?? 0
                    )
                )
            }
            _ = try ReplicaSync(store: store).refresh(keys: keys, on: connection)
            return deleted
        } catch {
            throw .wrap(error)
        }
    }

    func restore(_ rows: [DeletedRow], on connection: PostgresConnection) throws(ReplicaError) {
        if let reason = shape.readOnlyReason { throw .readOnly(reason: reason) }
        guard !rows.isEmpty else { return }
        do {
            let store = try ReplicaStore(path: replica.table.path, shape: shape, tracking: replica.tracking)
            var keys: [[String]] = []
            try connection.transaction {
                for row in rows {
                    let columns = row.columns.map(SQLIdentifier.quote).joined(separator: ", ")
                    let types = row.columns.map { name in
                        shape.columns.first { $0.name == name }?.postgresType ?? "text"
                    }
                    let values = types.indices.map { "$\($0 + 1)::\(types[$0])" }.joined(separator: ", ")
                    let returning = shape.keyColumns.map { "\(SQLIdentifier.quote($0))::text" }.joined(separator: ", ")
                    let result = try connection.query(
                        "INSERT INTO \(shape.source.quoted) (\(columns)) OVERRIDING SYSTEM VALUE VALUES (\(values))"
                            + " RETURNING \(returning)",
                        values: row.values
                    )
                    keys.append(shape.keyColumns.indices.map { result.text(row: 0, column: $0) ?? "" })
                }
            }
            var preferred: [String: Int64] = [:]
            for (key, row) in zip(keys, rows) where row.rowID != 0 { preferred[ReplicaKey.encode(key)] = row.rowID }
            _ = try ReplicaSync(store: store).refresh(keys: keys, on: connection, preferredRowIDs: preferred)
        } catch {
            throw .wrap(error)
        }
    }
}
