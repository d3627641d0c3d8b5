/// The names and the retention of a change feed: which history table,
/// trigger and function names, which notification channel.
///
/// The defaults name everything `changefeed_history`; an app that wants its own
/// names gives a history table, and the channel takes its name too.
///
///     let configuration = ChangeFeedConfiguration(historyTable: "books_history")
///     let feed = ChangeFeed(table: TableName(schema: "public", name: "books"), keyColumns: ["id"],
///                           configuration: configuration)   // triggers "books_history_insert", …
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

    /// A history table (default `changefeed_history`) in `schema` (default: the table's),
    /// a channel (default: the history table's name) and a retention (default 7 days).
    public init(
        historyTable: String = "changefeed_history",
        schema: String? = nil,
        channel: String? = nil,
        retention: Double = 7 * 24 * 3600
    ) {
        self.historyTable = historyTable
        self.schema = schema
        self.channel = channel ?? historyTable
        self.retention = retention
    }
}
