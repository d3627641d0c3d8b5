import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI

/// Everything an app tells a ``ListScreen``: its title, its tabs, its detail
/// screen, its own keys, and how deletes and undos read.
///
/// The rest — the navigation bar, the tab bar, the sectioned table with its
/// index, `/` search, `\` filter, inline delete with undo, the status line,
/// live polling, the background warming of the other tabs' caches — is the
/// screen's.
///
///     var configuration = ListScreenConfiguration(title: "Books", tabs: [byDate, byName, byState])
///     configuration.detailScreen = { book, _ in BookDetailScreen(book: book) }
///     configuration.keyBindings = [chartBinding]
///     configuration.filterExample = "state == \"CA\""
///     let screen = try ListScreen(context: context, configuration: configuration, loop: loop)
public struct ListScreenConfiguration {
    /// The navigation bar's title.
    public var title: String
    /// The tabs, in tab bar order (at least one).
    public var tabs: [ListTab]
    /// The tab shown first.
    public var initialTab = 0
    /// Whether the tab bar is drawn under the navigation bar. A screen of one tab may
    /// leave it out (its name says nothing the title does not): the table starts on
    /// the second line.
    public var showsTabBar = true
    /// False for `--no-animation`.
    public var animated = true
    /// Whether a launch without a valid results cache first shows the controller's
    /// preview of the first page ("Loading…") and fetches after that frame (true), or
    /// fetches before the first frame (false: small stores, whose fetch is quick and
    /// whose first frame should already have the counts).
    public var previewsFirstPage = true
    /// Whether the full fetch after the preview runs on the store's second connection
    /// (`FetchedResultsController.startInBackground(.fetch)`), the run loop
    /// answering meanwhile (`q` quits at once): for tables whose fetch takes seconds.
    /// When it ends, its worker posts to the run loop, which shows the results before its
    /// next frame; a screen driven frame by frame (a test calling `draw()`) runs the posts
    /// itself (`TerminalRunLoop.runPosted(waitingUpTo:)`), or keeps the default, false: the
    /// fetch runs on the loop's thread right after the first frame.
    ///
    ///     configuration.fetchesInBackground = true   // a table of millions of rows
    public var fetchesInBackground = false
    /// Whether the screen's thread never waits for another program's lock (a rollback-journal
    /// file another program holds locked: a `VACUUM`, a big import). Its connection then gives
    /// up at once (`PRAGMA busy_timeout = 0`); a poll or a save that meets the lock is not
    /// retried on the screen's thread: a connection of its own waits for the lock off it
    /// (``ListScreen/lockWaitMessage`` in the status line meanwhile), then the poll runs, and
    /// the delete or undo that met it is done. Keys are answered all along. Rows never read
    /// before show blank until the lock goes. Default false (the connection waits up to its
    /// busy timeout, five seconds).
    ///
    ///     configuration.neverWaitsForLocks = true   // another program's file
    public var neverWaitsForLocks = false
    /// The first tab's rows already in its order (a copy that sorted them as it wrote them):
    /// the first fetch installs them instead of running its query, when they fit its request
    /// (`FetchedResultsController.performFetch(presorted:)`); the screen lets go of them then.
    package var presortedRows: PresortedRows?
    /// Set when the store is read-only: delete and undo are refused with this reason.
    public var readOnlyReason: String?
    /// Where the controllers keep their results caches (nil: the default).
    public var cacheDirectory: String?
    /// The screen Enter (or →) pushes for an object; nil: Enter does nothing.
    public var detailScreen: ((ManagedObject, ListScreen) -> View?)?
    /// The app's own keys (shown in the help under "Commands").
    public var keyBindings: [ListKeyBinding] = []
    /// The help overlay's lines, when the app words them itself (nil:
    /// ``ListScreenKeys/bindings(for:)``, plus ``extraHelp``).
    public var helpBindings: [(keys: String, description: String)]?
    /// More help lines, after the list's own (e.g. the keys of the app's forms;
    /// a line with empty keys is a title).
    public var extraHelp: [(keys: String, description: String)] = []
    /// Whether `d` deletes (false: the Delete button never shows).
    public var allowsDelete = true
    /// Deletes an object and saves with the action name (nil: `context.delete`
    /// then `save(actionName:)`). An app whose deletes go through its own store
    /// type supplies this; it must save through the screen's context so `u` undoes it.
    public var delete: ((ManagedObject, _ actionName: String) throws -> Void)?
    /// Whether `e` edits the cell under a grid's column cursor in the selected row (default
    /// false): the line editor over the cell holding its value (Ctrl-U clears it, Enter saves,
    /// Ctrl-N saves NULL, Esc cancels); the text is converted to the column's type (a whole
    /// number, a number, yes/no, a date; a refusal keeps the editor open and says why), saved
    /// through the screen's context named for undo ("Edited price of “Dune”"), `u` undoes it and
    /// Ctrl-R redoes it. A store's refusal (NOT NULL, CHECK, UNIQUE, a foreign key) is named on
    /// the status line.
    ///
    ///     configuration.allowsCellEdits = true
    public var allowsCellEdits = false
    /// Why a grid column cannot be edited (`e`), nil when it can: what the app knows of its
    /// columns that the model does not say (a generated column, a view's). The screen itself
    /// refuses on a read-only store, for a column whose value is computed (a key path that is not
    /// one of the entity's attributes) and for binary data.
    ///
    ///     configuration.cellEditRefusal = { column in
    ///         generated.contains(column.keyPath) ? "\(column.name) is a generated column" : nil
    ///     }
    public var cellEditRefusal: ((ListColumn) -> String?)?
    /// Sends a cell edit (`e`) elsewhere instead of saving it through the screen's context — to a
    /// server, on a thread of the app's: given the row, the attribute, the new value, the value the
    /// cell showed when the edit began (for the app to refuse a write over another session's
    /// change) and the action name. The status line then says `Saving <action name>…` (the cell
    /// marked until the store answers: ``cellEditIsAnsweredLater``), and the app says the outcome
    /// (and does its own undo). A thrown error keeps the editor open and is said on the status
    /// line. Nil (the default): the context saves it.
    ///
    ///     configuration.saveCell = { row, key, value, shown, actionName in
    ///         server.send(row.objectID, key, value, unless: shown) { screen.showMessage("\(actionName) — u to undo") }
    ///     }
    public var saveCell:
        (
            (_ row: ManagedObject, _ key: String, _ value: StoreValue, _ shown: StoreValue, _ actionName: String) throws
                -> Void
        )?
    /// The table a `.sqlite` save of the view (Ctrl-S) makes, for rows whose own table's name
    /// means nothing to the person (a query's result): asked on the status line after the file,
    /// this name offered (with `_2`, `_3`… when the file has a table of that name already) and
    /// editable. A name the file has a table or view of already, or that is not a plain SQL name
    /// (letters, digits and `_`, not starting with a digit or `sqlite_`), is refused saying so.
    /// Nil (the default): the tab's table's own name, a table of that name replaced after a yes.
    ///
    ///     configuration.saveTableName = { _ in "orders_query" }
    public var saveTableName: ((ListScreen) -> String)?
    /// Why `d` cannot delete although the store is writable (a server role without DELETE, a
    /// delete whose undo could not be done), nil when it can: `d` says `Delete is disabled: …`,
    /// while edits and additions go on. ``readOnlyReason`` refuses every change.
    ///
    ///     configuration.deleteRefusal = mayDelete ? nil : "the role may not delete from items"
    public var deleteRefusal: String?
    /// Whether ``saveCell`` only sends the edit on its way (to a server, on a thread of the
    /// app's): the cell then shows the value sent, dim and marked `↻`, until the app says the
    /// store answered (``ListScreen/cellSaveAnswered(row:key:refusal:)``: a refusal opens the
    /// editor again with the text typed). False (the default): `saveCell` has saved it when it returns.
    ///
    ///     configuration.cellEditIsAnsweredLater = true   // edits go to a server
    public var cellEditIsAnsweredLater = false
    /// Whether ``delete`` only sends the delete on its way (to a server, on a thread of
    /// the app's): the status line then says `Deleting <name>…` rather than that it is
    /// deleted, the row stays, dim and marked `↻`, until the store has the change, and the app
    /// says the outcome (and ``ListScreen/deleteAnswered(row:)``: the mark goes).
    public var deleteIsAnsweredLater = false
    /// The action name a delete is saved with (the undo stack's label).
    public var deleteActionName: (_ objectName: String) -> String = { name in "Deleted \(name)" }
    /// The status message after `u`, from what the context undid.
    public var undoMessage: (UndoneAction) -> String = { undone in
        undone.discardedUnsavedChanges ? "Discarded unsaved changes" : "Undone: \(undone.name ?? "the last change")"
    }
    /// The navigation bar's right side (nil: nothing); on a read-only store after "read-only · " (or that alone).
    public var navigationTrailingText: ((ListScreen) -> String?)?
    /// Said on the status line after the tab's name (nil: nothing): what the rows are as of now —
    /// a live query's "refreshed 12:03:41 after a change to orders: 1 updated".
    public var statusDetail: ((ListScreen) -> String?)?
    /// The end of the status line's left side.
    public var statusHints = "? help  q quit"
    /// An example filter for the help, one line per element (["state == \"CA\"", "AND …; Esc clears"]).
    public var filterExample = ["name BEGINSWITH \"A\"; Esc clears"]
    /// What the index titles are, for the help ("a year, a letter, a state").
    public var indexTitleDescription = "a letter"
    /// What Enter shows, for the help ("show the book's details").
    public var detailDescription = "show the details"
    /// Longest filter text, in characters (nil: unlimited); a longer one is refused
    /// with "the filter is too long" rather than the parser's complaint about the cut.
    public var filterMaximumLength: Int? = 1000
    /// Called on each poll before other processes' changes are read; returning
    /// false skips the rest of that poll (e.g. the app noticed that another file
    /// was renamed over the store's path and is switching to it with
    /// ``ListScreen/show(context:readOnlyReason:)``).
    public var willPoll: ((ListScreen) -> Bool)?
    /// Opens the file now at the store's path after another file was renamed over
    /// it (`mv other.sqlite store.sqlite`): given the path and the old store's model,
    /// the new store and why it is read-only (nil: writable), or an error when that
    /// file cannot be browsed. Set, each poll checks the path (one `stat`,
    /// `Store.fileAtPath()`) and follows a replacement with
    /// ``ListScreen/followReplacedStore()``; the error quits the screen with
    /// ``ListScreen/loadError`` set to it. Nil: the screen goes on showing the old,
    /// unlinked file.
    ///
    ///     configuration.reopenReplacedStore = { path, model in
    ///         (try Store(path: path, model: model), nil)
    ///     }
    public var reopenReplacedStore:
        ((_ path: String, _ model: Model) throws -> (store: Store, readOnlyReason: String?))?
    /// `[`/`]` in a grid: orders `tab` by `column` (`ascending` or not). Nil: the screen's own
    /// order — the column alone, after the section key when the tab has sections. An app that
    /// keeps its own idea of the order (fetchedtable's `o`) keeps it here.
    ///
    ///     configuration.sortByColumn = { column, ascending, tab in
    ///         tab.sortDescriptors = [FetchSort(column.keyPath, ascending: ascending), FetchSort("name")]
    ///     }
    public var sortByColumn: ((_ column: ListColumn, _ ascending: Bool, _ tab: inout ListTab) -> Void)?
    /// Called after the person gave a grid column another type (`t`, or the columns sheet `C`):
    /// the column as it is now. Nil: the type only says how the values read and line up. An app
    /// whose data can follow (fetchedtable converts a CSV file's cache) does so here.
    public var retypeColumn: ((_ column: ListColumn, _ screen: ListScreen) -> Void)?
    /// How often other processes' changes are looked for, in seconds.
    public var pollInterval = 0.2

    /// A configuration with `title` and `tabs`; everything else has its default.
    public init(title: String, tabs: [ListTab]) {
        precondition(!tabs.isEmpty, "a list screen needs at least one tab")
        self.title = title
        self.tabs = tabs
    }
}
