import PostgreSQLChangeFeed
import PostgreSQLClient
import SQLiteStore

/// Bringing rows of the replica up to the server's: re-reading the rows of
/// some keys, or the whole table (a refetch and diff), and applying what
/// differs in one SQLite transaction — one batch for a browser.
struct ReplicaSync {
    /// Keys per `SELECT … WHERE key IN (…)`.
    static let keysPerRead = 10_000

    let store: ReplicaStore
    var shape: ReplicaShape { store.shape }

    /// Reads the rows of `keys` (each a key's texts) from the server and
    /// applies them: rows found are written where they differ, keys not
    /// found are deleted. `preferredRowIDs` gives restored rows their old ids;
    /// `position`, the history's position the keys were read up to, is recorded
    /// with them (``ReplicaState``).
    func refresh(
        keys: [[String]],
        on connection: PostgresConnection,
        preferredRowIDs: [String: Int64] = [:],
        position: ChangeFeedPosition? = nil
    ) throws -> ReplicaBatch {
        var unique: [[String]] = []
        var seen = Set<[String]>()
        for key in keys where seen.insert(key).inserted { unique.append(key) }
        var found: [ServerRow] = []
        let orderKeys = ReplicaOrderKeys(shape.orders)
        var start = 0
        while start < unique.count {
            let chunk = Array(unique[start..<min(start + ReplicaSync.keysPerRead, unique.count)])
            let result = try connection.query(
                "SELECT \(shape.selectList) \(shape.fromClause) WHERE \(shape.keyCondition)",
                shape.keyParameters(chunk)
            )
            found += (0..<result.rowCount).map { ServerRow(result, row: $0, shape: shape, keys: orderKeys) }
            start += chunk.count
        }
        let foundKeys = Set(found.map(\.key))
        let gone = unique.filter { !foundKeys.contains($0) }.map(ReplicaKey.encode)
        var counts = ReplicaStore.Counts()
        var occurrences: [String: Int] = [:]
        try store.database.transaction {
            try store.apply(
                found,
                deleting: gone,
                counts: &counts,
                occurrences: &occurrences,
                preferredRowIDs: preferredRowIDs
            )
            if let position { try ReplicaState.write(position, to: store.database) }
            try store.pruneHistory()
        }
        return ReplicaBatch(
            inserted: counts.inserted,
            updated: counts.updated,
            deleted: counts.deleted,
            isRefetch: false
        )
    }

    /// Reads the whole table in one snapshot and applies the difference;
    /// returns it and the snapshot's position (to read the history after),
    /// which is recorded with the rows (``ReplicaState``).
    func refetch(on connection: PostgresConnection) throws -> (ReplicaBatch, ChangeFeedPosition) {
        var counts = ReplicaStore.Counts()
        var position = ChangeFeedPosition(snapshot: "", readAt: "")
        try connection.transaction(isolation: "REPEATABLE READ, READ ONLY") {
            position = try ReplicaState.position(of: shape, on: connection)
            try connection.execute(
                "DECLARE replica_refetch NO SCROLL CURSOR FOR SELECT \(shape.selectList) \(shape.fromClause)"
                    + shape.keyOrder
            )
            var kept = Set<Int64>()
            var occurrences: [String: Int] = [:]
            let orderKeys = ReplicaOrderKeys(shape.orders)
            try store.database.transaction {
                while true {
                    let page = try connection.execute("FETCH \(ReplicaCopy.pageSize) FROM replica_refetch")
                    if page.rowCount == 0 { break }
                    let rows = (0..<page.rowCount).map { ServerRow(page, row: $0, shape: shape, keys: orderKeys) }
                    kept.formUnion(try store.apply(rows, counts: &counts, occurrences: &occurrences))
                }
                try store.deleteRows(notIn: kept, counts: &counts)
                try ReplicaState.write(position, to: store.database)
                try store.pruneHistory()
            }
        }
        let batch = ReplicaBatch(
            inserted: counts.inserted,
            updated: counts.updated,
            deleted: counts.deleted,
            isRefetch: true
        )
        return (batch, position)
    }
}
