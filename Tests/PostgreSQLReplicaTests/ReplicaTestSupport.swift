import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore
import TestSupport
import Testing

/// A fresh cache folder for one test's replica.
func makeCacheDirectory() throws -> String {
    TemporaryDirectory.create("replica-tests").path
}

/// The rows of the replica's table, ordered by `orderBy`.
func replicaRows(_ table: ReplicaTable, orderBy: String) throws -> [[StoreValue]] {
    var options = Database.Options()
    options.readOnly = true
    let database = try Database(path: table.path, options: options)
    return try database.query("SELECT * FROM \(Database.quote(identifier: table.tableName)) ORDER BY \(orderBy)")
}

/// Waits (up to `seconds`) until `condition` holds; false when it never did.
func eventually(seconds: Double = 30, _ condition: () throws -> Bool) rethrows -> Bool {
    let end = Date(timeIntervalSinceNow: seconds)
    while Date() < end {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return try condition()
}

/// What a follower reported, collected from its thread.
final class FollowerLog: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [ReplicaStatus] = []
    private var batches: [ReplicaBatch] = []
    private var times: [UInt64] = []

    func record(_ status: ReplicaStatus) { lock.withLock { statuses.append(status) } }
    func record(_ batch: ReplicaBatch) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.withLock {
            batches.append(batch)
            times.append(now)
        }
    }
    /// When each batch was reported (monotonic nanoseconds).
    var batchTimes: [UInt64] { lock.withLock { times } }
    var allStatuses: [ReplicaStatus] { lock.withLock { statuses } }
    var allBatches: [ReplicaBatch] { lock.withLock { batches } }
    var reconnected: Bool {
        allStatuses.contains { if case .reconnecting = $0 { true } else { false } }
    }
}
