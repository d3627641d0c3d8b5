import Foundation
import PostgreSQLClient

/// Where a follower is with the server, for a status line.
///
///     replica.follow(track: true) { status in
///         switch status {
///         case .live: statusLine = ""
///         case .reconnecting(let since, let error): statusLine = "Reconnecting… (\(Int(-since.timeIntervalSinceNow)) s): \(error)"
///         case .refused(_, let reason, let advice): statusLine = "The server refuses: \(reason) — \(advice)"
///         case .tableChanged(let reason): copyAgain(reason)
///         case .untracked(let reason): message = reason
///         case .notLive(let reason, let checkedAt): statusLine = "Not live (\(reason)): checked at \(checkedAt)"
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
    /// The server answers, and refuses: a privilege revoked, the credentials no longer
    /// accepted, the table dropped. Reconnecting does not mend it, though the follower keeps
    /// asking (with backoff) in case someone does: `reason` is the server's words, `advice`
    /// what a person can do. `since` is the time of the last answer that was not a refusal.
    case refused(since: Date, reason: String, advice: String)
    /// The table's columns are no longer the replica's (a column renamed, added, dropped or
    /// retyped on the server; `reason` says which): the follower has stopped, and the table
    /// must be copied again with its new shape.
    case tableChanged(reason: String)
    /// Connected and current, but no longer from the change history: the history was
    /// removed while following it (`untrack`, or its triggers dropped or disabled), so the
    /// follower copied the table again and now polls its change counters — and does not
    /// install the history again. `reason` says what happened, for a message.
    case untracked(reason: String)
    /// Connected, but the rows can change without a write any counter sees: `reason` names
    /// what they come from (`the foreign table public.rates`, `the function now()`; see
    /// `Catalog.unfollowableSources(of:on:)`). The follower copies the table again every so
    /// often — at least 5 seconds apart, and at least ten times as long as a copy takes — and
    /// `checkedAt` is when it last did: a list of it is not live, and says since when.
    case notLive(reason: String, checkedAt: Date)

    /// The status after `error` ended a follower's round on `table`: `.refused` for a server that
    /// answered no (no privilege, credentials refused, the table or database gone), else
    /// `.reconnecting` since `lastContact`.
    static func after(_ error: Error, lastContact: Date, table: TableName) -> ReplicaStatus {
        let postgres =
            (error as? PostgresError) ?? { if case .server(let e) = error as? ReplicaError { e } else { nil } }()
        let message = postgres?.description ?? "\(error)"
        guard let postgres else { return .reconnecting(since: lastContact, lastError: message) }
        switch postgres {
        case .authenticationRefused(let words):
            return .refused(
                since: lastContact,
                reason: "the credentials are refused: \(words)",
                advice: "put the right password in ~/.pgpass or PGPASSWORD, then open the table again"
            )
        case .statementFailed(let state, let words, _):
            switch state {
            case "42501":
                return .refused(
                    since: lastContact,
                    reason: words,
                    advice: "the role needs SELECT on \(table) again (GRANT SELECT ON \(table) TO …)"
                )
            case "42P01":
                return .refused(
                    since: lastContact,
                    reason: "\(table) no longer exists on the server (dropped or renamed)",
                    advice: "open it again from the table list"
                )
            case "3D000", "28000", "28P01":
                return .refused(since: lastContact, reason: words, advice: "check the connection string")
            default:
                if state.hasPrefix("57") || state.hasPrefix("08") || state.hasPrefix("53") {
                    return .reconnecting(since: lastContact, lastError: message)
                }
                return .refused(since: lastContact, reason: message, advice: "this list is no longer kept current")
            }
        case .cannotConnect, .connectionLost, .timedOut:
            return .reconnecting(since: lastContact, lastError: message)
        }
    }
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
