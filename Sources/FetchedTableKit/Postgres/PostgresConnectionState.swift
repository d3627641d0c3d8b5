import Foundation
import PostgreSQLReplica

/// Where a replica's follower is with the server: the latest ``ReplicaStatus``, and whether
/// a status is news (lost, refused or changed, back after being lost, untracked, not live),
/// with the one-time notice of an untracked follower. `watch` records on
/// the follower's thread and reads on its own; the browser records on the loop's thread,
/// where the follower posts its statuses.
final class PostgresConnectionState: @unchecked Sendable {
    private let lock = NSLock()
    private var status: ReplicaStatus = .live
    private var wasLost = false
    private var notice: String?

    /// Records `status`; true when it is news: lost, refused or changed, back after being lost,
    /// no longer tracked, or not live (the first time, or back after being lost).
    @discardableResult
    func record(_ status: ReplicaStatus) -> Bool {
        lock.withLock {
            let previous = self.status
            defer { self.status = status }
            switch status {
            case .live:
                defer { wasLost = false }
                return wasLost
            case .reconnecting, .refused, .tableChanged:
                wasLost = true
                return true
            case .untracked(let reason):
                notice = reason.prefix(1).uppercased() + reason.dropFirst()
                return true
            case .notLive:
                defer { wasLost = false }
                if case .notLive = previous { return wasLost }
                return true
            }
        }
    }

    /// A one-time message of the follower (the history removed under it), once.
    func takeNotice() -> String? {
        lock.withLock {
            defer { notice = nil }
            return notice
        }
    }

    /// The latest status.
    var current: ReplicaStatus { lock.withLock { status } }

    /// `Not live: it reads the function now(); checked 12s ago` while the rows are copied again
    /// every so often instead of followed, else nil.
    static func notLiveText(_ status: ReplicaStatus, now: Date = Date()) -> String? {
        guard case .notLive(let reason, let checkedAt) = status else { return nil }
        return "Not live: \(reason); checked \(max(0, Int(now.timeIntervalSince(checkedAt))))s ago"
    }

    /// The status line while the list is not kept current, else nil: `Reconnecting… (12s since
    /// last contact): <the last error>` while the server does not answer; `The server refuses:
    /// <its words> — <what to do>` when it answers no (no reconnect mends that); `… changed on the
    /// server` once the table's columns did (the table is copied again). An untracked list (polled)
    /// has none, and one that is not live has ``notLiveText(_:now:)``'s.
    static func statusText(_ status: ReplicaStatus, now: Date = Date()) -> String? {
        switch status {
        case .live, .untracked, .notLive:
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

    /// `waiting for a lock on t held by another session (pid 4242: psql, user alice)`: why a
    /// copy of `table` has not started, naming each session in the way as far as the role may
    /// read it (one queued for the lock too, ahead: `pid 4243 queued ahead: …`).
    static func lockWaitText(_ wait: ReplicaLockWait, table: String) -> String {
        let sessions = wait.holders.map { holder in
            let about = [holder.applicationName, holder.user.map { "user \($0)" }].compactMap(\.self)
            return "pid \(holder.pid)\(holder.holdsTheLock ? "" : " queued ahead")"
                + (about.isEmpty ? "" : ": " + about.joined(separator: ", "))
        }
        return "waiting for a lock on \(table) held by another session"
            + (sessions.isEmpty ? "" : " (\(sessions.joined(separator: "; ")))")
    }
}
