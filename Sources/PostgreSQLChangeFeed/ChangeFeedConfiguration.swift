/// The names and the retention of a change feed: which history table,
/// trigger and function names, which notification channel.
///
/// fetchedtable uses the defaults, `fetchedtable_history` for everything.
public struct ChangeFeedConfiguration: Hashable, Sendable {
    /// The history table's name (in ``schema``); the capture function is
    /// `<historyTable>_capture` and the triggers `<historyTable>_insert`,
    /// `_update`, `_delete` and `_truncate`.
    public var historyTable: String
    /// The schema of the history table and its function; nil puts them in
    /// the tracked table's schema.
    public var schema: String?
    /// The `NOTIFY` channel that wakes readers; the payload is the tracked
    /// table's quoted name.
    public var channel: String
    /// How long history is kept, in seconds (default 7 days). A reader whose
    /// last read is older than this must refetch (``ChangeBatch/needsRefetch``).
    public var retention: Double

    /// The defaults: `fetchedtable_history`, the table's schema, 7 days.
    public init(
        historyTable: String = "fetchedtable_history",
        schema: String? = nil,
        channel: String = "fetchedtable_history",
        retention: Double = 7 * 24 * 3600
    ) {
        self.historyTable = historyTable
        self.schema = schema
        self.channel = channel
        self.retention = retention
    }
}
