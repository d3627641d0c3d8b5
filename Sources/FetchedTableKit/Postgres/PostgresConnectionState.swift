import Foundation
import PostgreSQLReplica

/// Where a replica's follower is with the server: the latest ``ReplicaStatus``, and whether
/// a status is news (lost, refused or changed, or back after being lost). `watch` records on
/// the follower's thread and reads on its own; the browser records on the loop's thread,
/// where the follower posts its statuses.
final class PostgresConnectionState: @unchecked Sendable {
    private let lock = NSLock()
    private var status: ReplicaStatus = .live
    private var wasLost = false

    /// Records `status`; true when it is news: lost, refused or changed, or back after being lost.
    @discardableResult
    func record(_ status: ReplicaStatus) -> Bool {
        lock.withLock {
            defer { self.status = status }
            switch status {
            case .live:
                defer { wasLost = false }
                return wasLost
            case .reconnecting, .refused, .tableChanged:
                wasLost = true
                return true
            }
        }
    }

    /// The latest status.
    var current: ReplicaStatus { lock.withLock { status } }

    /// The status line while the list is not kept current, else nil: `Reconnecting… (12s since
    /// last contact): <the last error>` while the server does not answer; `The server refuses:
    /// <its words> — <what to do>` when it answers no (no reconnect mends that); `… changed on the
    /// server` once the table's columns did (the table is copied again).
    static func statusText(_ status: ReplicaStatus, now: Date = Date()) -> String? {
        switch status {
        case .live:
            return nil
        case .reconnecting(let since, let lastError):
            let seconds = max(0, Int(now.timeIntervalSince(since)))
            let reason = PostgresServer.oneLine(lastError)
            return "Reconnecting… (\(seconds)s since last contact)" + (reason.isEmpty ? "" : ": \(reason)")
        case .refused(_, let reason, let advice):
            return "The server refuses: \(PostgresServer.oneLine(reason)) — \(advice)"
        case .tableChanged(let reason):
            return "Copying again: \(reason)"
        }
    }
}
