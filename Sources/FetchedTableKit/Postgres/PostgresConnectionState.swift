import FetchedResults
import Foundation
import PostgreSQLReplica

/// Where a replica's follower is with the server, handed from its thread to the thread
/// that shows it: the latest ``ReplicaStatus``, and whether it was ever lost.
final class PostgresConnectionState: @unchecked Sendable {
    private let lock = NSLock()
    private var status: ReplicaStatus = .live
    private var wasLost = false
    private var needsPrefixes = false

    /// Records `status` (from the follower's thread); true when it is news: lost, or back after being lost.
    @discardableResult
    func record(_ status: ReplicaStatus) -> Bool {
        lock.withLock {
            defer { self.status = status }
            switch status {
            case .live:
                defer { wasLost = false }
                return wasLost
            case .reconnecting:
                wasLost = true
                return true
            }
        }
    }

    /// The latest status.
    var current: ReplicaStatus { lock.withLock { status } }

    /// Records a batch the follower applied to the copy (from its thread).
    func recordApplied(_ batch: ReplicaBatch) {
        let rows = batch.inserted + batch.updated + batch.deleted
        guard batch.isRefetch || rows > FetchedResultsController.keylessChangeLimit else { return }
        lock.withLock { needsPrefixes = true }
    }

    /// Whether the follower has applied a batch that the list places with its sort-key
    /// prefixes (more rows than it places without them).
    var batchNeedsPrefixes: Bool { lock.withLock { needsPrefixes } }

    /// `Reconnecting… (12s since last contact)` while the server cannot be reached, else nil.
    static func statusText(_ status: ReplicaStatus, now: Date = Date()) -> String? {
        guard case .reconnecting(let since, _) = status else { return nil }
        return "Reconnecting… (\(max(0, Int(now.timeIntervalSince(since))))s since last contact)"
    }
}
