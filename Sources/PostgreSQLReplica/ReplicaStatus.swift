import Foundation

/// Where a follower is with the server, for a status line.
///
///     replica.follow(track: true) { status in
///         switch status {
///         case .live: statusLine = ""
///         case .reconnecting(let since, _): statusLine = "Reconnecting… (\(Int(-since.timeIntervalSinceNow)) s)"
///         }
///     }
public enum ReplicaStatus: Hashable, Sendable {
    /// Connected, and the replica is as current as the last change signal.
    case live
    /// The connection broke or the server does not answer: what the replica
    /// holds stays browsable, and the follower reconnects with backoff, then
    /// catches up. `since` is the time of the last contact; `lastError` the
    /// reason, without any password.
    case reconnecting(since: Date, lastError: String)
}

/// What one applied batch changed in the replica: one SQLite transaction,
/// which a browser following the file reads as one batch.
public struct ReplicaBatch: Hashable, Sendable {
    /// Rows inserted into the replica.
    public let inserted: Int
    /// Rows written again (changed on the server, or named by the history).
    public let updated: Int
    /// Rows deleted from the replica.
    public let deleted: Int
    /// True when the batch came from a refetch and diff of the whole table
    /// (no history, a truncate, or a reader behind the retention).
    public let isRefetch: Bool

    /// Whether it changed nothing.
    public var isEmpty: Bool { inserted == 0 && updated == 0 && deleted == 0 }
}
