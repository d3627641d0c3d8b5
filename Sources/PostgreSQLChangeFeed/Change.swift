/// One changed key of a tracked table, as the history recorded it.
///
/// A change says *which row to read again*, not what it now holds: the
/// reader fetches the keys it got and finds each row changed, new or gone.
/// Reading a change twice is therefore harmless.
public struct Change: Hashable, Sendable {
    /// What the statement did.
    public enum Operation: String, Hashable, Sendable {
        /// The row was inserted.
        case insert = "INSERT"
        /// The row was updated (under its new key, when the key changed).
        case update = "UPDATE"
        /// The row was deleted, or its key changed away from this one.
        case delete = "DELETE"
        /// The table was truncated: every row is gone (``key`` is empty).
        case truncate = "TRUNCATE"
    }

    /// The history row's sequence number: ascending in the order changes
    /// were recorded (not necessarily the order their transactions committed).
    public let sequence: Int64
    /// What happened.
    public let operation: Operation
    /// The primary key's values in PostgreSQL's text form, in key order.
    public let key: [String]
    /// When it was recorded (server clock, ISO, the session's time zone).
    public let time: String
}

/// Where a reader is in the history: the server's transaction snapshot at
/// its last read (which commits it has seen), the server time of that read,
/// and the feed's installation it read under. Keep it between reads; store
/// its three parts to resume later.
public struct ChangeFeedPosition: Hashable, Sendable, Codable {
    /// `pg_current_snapshot()` at the last read, in its text form.
    public let snapshot: String
    /// `now()` at the last read (ISO text).
    public let readAt: String
    /// The feed's installation at the last read (``ChangeFeedInstallation/installation``):
    /// empty when the table's triggers were not all in place. A read under another
    /// installation, or none, must refetch (``ChangeBatch/needsRefetch``): while the
    /// triggers were missing, nothing was recorded.
    public let installation: String

    /// A position from its stored parts (`installation` empty when none was recorded).
    public init(snapshot: String, readAt: String, installation: String = "") {
        self.snapshot = snapshot
        self.readAt = readAt
        self.installation = installation
    }

    private enum CodingKeys: String, CodingKey { case snapshot, readAt, installation }

    /// Decodes a position, one stored before positions had an installation included (then empty).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        snapshot = try container.decode(String.self, forKey: .snapshot)
        readAt = try container.decode(String.self, forKey: .readAt)
        installation = try container.decodeIfPresent(String.self, forKey: .installation) ?? ""
    }
}

/// What one read of the history returned.
public struct ChangeBatch: Hashable, Sendable {
    /// The changes committed since the position read after, by sequence.
    public let changes: [Change]
    /// The position to read after next time.
    public let position: ChangeFeedPosition
    /// True when the reader must refetch the table instead of applying
    /// ``changes``: it fell further behind than the retention (history it never
    /// read may have been pruned), the table was truncated, or the feed is not
    /// the one it read under last time — its triggers were removed (``position``'s
    /// installation is then empty: nothing is recorded now) or made again, so
    /// changes made in between are in no history.
    public let needsRefetch: Bool
}
