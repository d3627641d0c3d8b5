import PostgreSQLClient

/// What went wrong copying, following or writing a replica. Messages carry
/// no password (PostgreSQLClient's `PostgresError` has none).
public enum ReplicaError: Error, Sendable, CustomStringConvertible {
    /// The server said no, or could not be reached.
    case server(PostgresError)
    /// No table or view of that name; `existing` lists the ones the search path has.
    case noSuchTable(name: String, existing: [String])
    /// The replica file could not be written (its path and SQLite's message).
    case cache(path: String, message: String)
    /// Rows of this table cannot be deleted or restored, and why
    /// (a view; no primary key).
    case readOnly(reason: String)
    /// `--track` could not install the change feed (no right to create a
    /// table or triggers): the server's words.
    case trackingRefused(message: String)
    /// ``PostgresReplica/load(progress:status:)`` has not run yet.
    case notLoaded
    /// A write waited for a lock another transaction holds (a row it updated or locked `FOR
    /// UPDATE`, the table it locked) and gave up; `holders` names the sessions that hold it
    /// (process, role, application, state and for how long), empty when none could be seen.
    /// Nothing was written.
    case locked(holders: [String], waited: Double)
    /// A write found the row not as it was shown: another session changed or deleted it
    /// since. Nothing was written; the replica holds the server's row as it is now.
    case conflict(reason: String)

    /// The sentence a person reads.
    public var description: String {
        switch self {
        case .server(let error): error.description
        case .noSuchTable(let name, let existing):
            "no table or view \"\(name)\""
                + (existing.isEmpty ? "; there are none" : "; there are: " + existing.joined(separator: ", "))
        case .cache(let path, let message): "cannot write the replica \(path): \(message)"
        case .readOnly(let reason): "rows cannot be deleted: \(reason)"
        case .trackingRefused(let message): "cannot install the change history: \(message)"
        case .notLoaded: "the table has not been copied yet"
        case .locked(let holders, let waited):
            "it waited \(Int(waited.rounded())) s for a lock held by "
                + (holders.isEmpty ? "another transaction" : holders.joined(separator: "; "))
                + " — it can go through once that transaction ends"
        case .conflict(let reason): reason
        }
    }
}
