import Foundation
import PostgreSQLChangeFeed
import PostgreSQLClient
import SQLiteStore

/// Taking over the replica file that a session which ended left behind, instead of
/// copying the table again: the newest such file of the same server table
/// (``ReplicaLocation/newestStaleCopy(like:)``) is renamed to this session's name and
/// caught up from the change history after the position it records, in one SQLite
/// transaction — when it can be trusted: its ``ReplicaState`` names the table as it is
/// today (its oid, columns, key, the time zone, the tracking names), and its position was
/// taken under the history installed now, which still reaches back to it. Any other file
/// (another identity, no history then or a history made again since, a position older
/// than the retention, no state, unreadable) is removed, and the table copied: without
/// the history only a read of every row could tell what changed, and the copy's `COPY`
/// reads every row faster than a refetch's cursor.
struct ReplicaAdoption {
    let shape: ReplicaShape
    let path: String
    let tracking: TrackingNames
    /// The table's identity today (``ReplicaState/identity(of:timeZone:tracking:on:)``).
    let identity: String

    /// The replica taken over and caught up, ready to follow; nil when there is none to trust.
    func adopt(on connection: PostgresConnection) throws -> LoadedReplica? {
        try ReplicaLocation.makeFolder((path as NSString).deletingLastPathComponent)  // 0700, or tightened
        guard let stale = ReplicaLocation.newestStaleCopy(like: path), ReplicaLocation.move(stale, to: path) else {
            return nil
        }
        ReplicaLocation.removeStaleCopies(like: path)
        do {
            if let loaded = try caughtUp(on: connection) { return loaded }
        } catch let error as PostgresError {
            ReplicaLocation.removeFiles(path)
            throw error  // the server's failure: the load reports it (and may try again)
        } catch {
            // An unreadable file: copied again.
        }
        ReplicaLocation.removeFiles(path)
        return nil
    }

    /// The replica at `path` brought up to the server's history, when it can be trusted.
    private func caughtUp(on connection: PostgresConnection) throws -> LoadedReplica? {
        guard let feed = shape.feed else { return nil }
        let store = try ReplicaStore(path: path, shape: shape, tracking: tracking)
        guard let state = try ReplicaState.read(from: store.database), state.identity == identity,
            !state.position.installation.isEmpty,
            try feed.installation(on: connection).canRead  // an earlier version's history some roles cannot read
        else { return nil }
        let counters = try Catalog.changeCounters(of: shape.source, on: connection)
        // Under another installation of the history than the file's position (or none), it needs a refetch.
        let batch = try feed.read(after: state.position, on: connection)
        guard !batch.needsRefetch else { return nil }
        if batch.changes.isEmpty {
            try store.database.transaction { try ReplicaState.write(batch.position, to: store.database) }
        } else {
            _ = try ReplicaSync(store: store).refresh(
                keys: batch.changes.map(\.key),
                on: connection,
                position: batch.position
            )
        }
        let count = try store.database.scalar("SELECT count(*) FROM \(Database.quote(identifier: shape.tableName))")
        let table = shape.table(at: path, rowCount: Int(count.int64 ?? 0))
        return LoadedReplica(
            table: table,
            shape: shape,
            position: batch.position,
            counters: counters,
            tracking: tracking
        )
    }
}
