import PostgreSQLClient
import SQLiteStore

/// A browser's writes: deleting rows on the server by primary key, then in
/// the replica; writing deleted rows back (undo). Each side in one transaction.
///
/// A delete goes through only when its undo can be done: the rows' values came back from
/// the server exactly (valid UTF-8: a `SQL_ASCII` database may hold other bytes), and
/// ``undoRefusal(of:on:)`` finds nothing in the way. Undo writes back every column but the
/// generated ones, identity columns with `OVERRIDING SYSTEM VALUE`, each value in the
/// server's own text cast to the column's type.
struct ReplicaWrites {
    let replica: LoadedReplica
    /// Seconds a delete waits for a lock another transaction holds before it says whose it is.
    var lockTimeout: Double = 6
    var shape: ReplicaShape { replica.shape }

    func delete(rowIDs: [Int64], on connection: PostgresConnection) throws(ReplicaError) -> [DeletedRow] {
        if let reason = shape.readOnlyReason { throw .readOnly(reason: reason) }
        do {
            if let refusal = try ReplicaWrites.undoRefusal(of: shape.description, on: connection) {
                throw ReplicaError.readOnly(reason: refusal)
            }
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
                + shape.keyTexts.joined(separator: ", ")
            let deleted = try lockHolders(of: keys, on: connection) { () throws -> [DeletedRow] in
                try connection.execute("SET LOCAL lock_timeout = \(Int(lockTimeout * 1000))")
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
                        rowID: rowIDByKey[key] ?? 0,
                        serverTexts: names.indices.map { result.text(row: row, column: $0) }
                    )
                }
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
                    let returning = shape.keyTexts.joined(separator: ", ")
                    let result = try connection.query(
                        "INSERT INTO \(shape.source.quoted) (\(columns)) OVERRIDING SYSTEM VALUE VALUES (\(values))"
                            + " RETURNING \(returning)",
                        written.map { row.text(at: $0) }
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
