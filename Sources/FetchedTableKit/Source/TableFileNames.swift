import PostgreSQLChangeFeed
import SQLiteStore

/// The names fetchedtable gives what it adds to a browsed file or reads from it: a
/// contract with the files `--track` changed (and with other programs that read them),
/// so they stay as they are.
///
///     try Store(foreignDatabaseAt: path, model: model, readOnly: false, tracking: TableFileNames.tracking)
enum TableFileNames {
    /// `fetchedtable_history` and its triggers `fetchedtable_history_insert_<table>`, `…_update_…`, `…_delete_…`.
    static let tracking = TrackingNames(historyTable: "fetchedtable_history")
    /// A server table's change history (`--track`, `untrack`): the table `fetchedtable_history`, its
    /// function `fetchedtable_history_capture`, triggers `fetchedtable_history_insert`, … and channel.
    static let changeFeed = ChangeFeedConfiguration(historyTable: "fetchedtable_history")
    /// The row number of a view's rows (their id): `fetchedtable_position`.
    static let positionColumn = "fetchedtable_position"
}
