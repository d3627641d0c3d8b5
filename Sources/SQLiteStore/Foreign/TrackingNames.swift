/// What ``Store/installTracking(forTables:)`` calls the history table and the
/// triggers it adds to a foreign database: names in another program's file, so
/// the app that installs them chooses them, and every store that opens the file
/// must be given the same ones to see the tracking.
///
/// The history table is `historyTable`; the triggers of table `T` are
/// `<triggerPrefix>insert_T`, `<triggerPrefix>update_T` and `<triggerPrefix>delete_T`
/// (the prefix is by default the table's name and `_`).
///
///     let names = TrackingNames(historyTable: "books_history")   // triggers "books_history_insert_…"
///     let store = try Store(foreignDatabaseAt: "books.sqlite", model: model, readOnly: false, tracking: names)
///     try store.installTracking(forTables: ["books"])
public struct TrackingNames: Sendable, Hashable {
    /// The table the triggers append to: `(seq, table_name, row_id, op)`.
    public var historyTable: String
    /// The start of every trigger's name; ``Store/removeTracking()`` drops the triggers that have it.
    public var triggerPrefix: String

    /// Names for the history table and triggers; the prefix defaults to `historyTable` and `_`.
    public init(historyTable: String, triggerPrefix: String? = nil) {
        self.historyTable = historyTable
        self.triggerPrefix = triggerPrefix ?? historyTable + "_"
    }

    /// The names a store uses when it is given none: `store_tracking` and `store_tracking_…`.
    public static let standard = TrackingNames(historyTable: "store_tracking")
}
