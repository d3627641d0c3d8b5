import FetchedResults
import FetchedResultsScripts
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI

/// The failedbanks browser: the generic ``ListScreen`` configured for banks
/// (``BankListConfiguration``: the Date, Name and State tabs, the bank cell,
/// the detail screen) on a run loop of its own.
///
/// Works on any `Backend` — ncurses in the app, an in-memory screen in tests.
/// The list screen does the rest: the first-screen preview without a valid
/// results cache, search, filter, delete and undo, polling of other processes'
/// writes every 200 ms, the other tabs' caches warmed in the background. Each
/// poll also checks that the store's path still names the open file: when
/// another file was renamed over it, the list shows the file now there (a
/// status line says so); when that file cannot be browsed, the browser quits
/// and the launcher prints why, as for any store it refuses at launch
/// (``ListScreen/followReplacedStore()``, opened by ``reopenReplacedStore(path:model:)``).
/// Its own keys: `c` the failures-by-year chart (BankBrowser+Chart.swift), `U`
/// an update from the FDIC in the background (BankBrowser+Update.swift).
///
///     let store = try Store(path: path, model: BrowserModel.model)
///     let browser = try BankBrowser(store: store, options: BrowserOptions(), backend: try CursesBackend())
///     let exit = browser.run()           // .quit, or .signal(SIGTERM) …
package final class BankBrowser {
    /// What the browser was launched with (`c` and `U` use it).
    package let options: BrowserOptions
    /// The run loop driving the screen (the list screen is its bottom view).
    package let loop: TerminalRunLoop
    /// The list screen (set once at the end of `init`: its key bindings call the browser).
    package private(set) var list: ListScreen!
    /// The update `U` started, while it runs (see BankBrowser+Update.swift).
    var backgroundUpdate: BackgroundUpdate?

    /// Builds the browser over `store` on `screen` and fetches the first tab.
    ///
    /// - Parameters:
    ///   - readOnlyReason: set when the store was opened read-only: delete and undo are disabled, and this says why.
    ///   - cacheDirectory: where the controllers keep their results caches (nil: the default).
    ///
    /// The browser should be the store's only holder (the launcher hands it over),
    /// so that it can let the store go when another file is renamed over its path.
    package init(
        store: Store,
        options: BrowserOptions,
        backend: Backend,
        clock: any TerminalUI.TimeSource = TerminalUI.MonotonicClock(),
        readOnlyReason: String? = nil,
        cacheDirectory: String? = nil
    ) throws {
        self.options = options
        loop = TerminalRunLoop(backend: backend, clock: clock, minimumWidth: 24, minimumHeight: 8)
        var configuration = BankListConfiguration.make(
            options: options,
            storePath: store.path,
            readOnlyReason: readOnlyReason,
            cacheDirectory: cacheDirectory,
            showChart: { [unowned self] _ in self.showChart() },
            startUpdate: { [unowned self] _ in self.startUpdate() }
        )
        configuration.reopenReplacedStore = BankBrowser.reopenReplacedStore(path:model:)
        list = try ListScreen(context: ObjectContext(store: store), configuration: configuration, loop: loop)
    }

    /// Opens the file renamed over the store's path as the launcher would (it may be
    /// read-only), or refuses it with the launcher's words and status (65 for a file
    /// that is not a failedbanks store), noting that it replaced the store file.
    static func reopenReplacedStore(path: String, model: Model) throws -> (store: Store, readOnlyReason: String?) {
        do {
            let opened = try FailedBankStore.open(path: path, for: .browsing, model: model)
            return (opened.store, opened.readOnlyReason)
        } catch {
            throw StoreRefusal(error, path: path).adding(" (it replaced the store file while the browser showed it)")
        }
    }

    /// Runs until `q` or a termination signal (then lets go of the views, so the
    /// store's connection closes when the caller drops the browser).
    package func run() -> TerminalRunLoop.Exit { list.run() }

    /// The cell of a bank: its name, and `City, ST` below it. A value that is not text
    /// (a BLOB name a `sqlite3` shell stored) shows as ``DisplayText/of(_:)`` writes it (`x'…'`).
    package static func cell(for bank: ManagedObject) -> TableCell {
        let city = DisplayText.of(bank[FailedBankInfo.Columns.city.stringValue])
        let state = DisplayText.of(bank[FailedBankInfo.Columns.state.stringValue])
        let detail = city.isEmpty ? state : (state.isEmpty ? city : "\(city), \(state)")
        return TableCell(
            style: .subtitle,
            title: DisplayText.of(bank[FailedBankInfo.Columns.name.stringValue]),
            detail: detail,
            accessory: .disclosureIndicator
        )
    }

    /// Longest filter the `\` line takes, in characters; typing or pasting more is cut there.
    static let filterMaximumLength = 1000

    /// A section header: its name and count, "2025 (3)"; "— (2)" for banks
    /// without the key (no details row, no state).
    package static func header(for section: SectionInfo) -> String {
        "\(section.name.isEmpty ? "—" : section.name) (\(section.numberOfObjects))"
    }

    /// A section header before its count is known: "2025 (…)", "— (…)".
    package static func provisionalHeader(forSectionNamed name: String) -> String {
        "\(name.isEmpty ? "—" : name) (…)"
    }

    // MARK: The list screen's state, by failedbanks' names

    /// The store browsed (another one after the file at its path was replaced).
    package var store: Store { list.store }
    /// The context the controllers fetch through and deletes are saved in.
    package var context: ObjectContext { list.context }
    /// The bank list.
    package var table: TableView { list.table }
    /// Feeds `table` from the current tab's controller (nil while ``isLoading``).
    package var adapter: FetchedResultsTableAdapter! { list.adapter }
    /// True until the first tab's deferred full fetch is done (see ``ListScreen/isLoading``).
    package var isLoading: Bool { list.isLoading }
    /// Why the first tab's deferred fetch failed, if it did.
    package var loadError: Error? { list.loadError }
    /// The tab showing.
    package var tab: BankSortTab { BankSortTab.allCases[list.tabIndex] }
    /// The filter applied (`\`), if any, and its text.
    package var filter: FetchPredicate? { list.filter }
    package var filterText: String { list.filterText }
    /// Why deleting is disabled, when the store is read-only.
    package var readOnlyReason: String? { list.readOnlyReason }
    /// Errors that should never happen (a refused batch, a failed poll), newest last.
    package var log: [String] { list.log }
    /// `123/572`.
    package var positionText: String { list.positionText }
    /// Tabs whose results cache is still to be filled in the background.
    package var tabsToWarm: [BankSortTab] { list.tabsToWarm.map { BankSortTab.allCases[$0] } }

    /// The status line (hints, position, messages).
    package var statusLine: StatusLine { list.statusLine }
    /// The `\` filter line.
    package var filterField: FilterField { list.filterField }
    var now: Double { loop.clock.now }

    /// Applies `predicate` (nil: none) to the current tab, as `\` does.
    package func applyFilter(_ predicate: FetchPredicate?, text: String) throws {
        try list.applyFilter(predicate, text: text)
    }
    /// Shows `newTab`'s order and sections; the selection stays on the same bank.
    package func switchTab(to newTab: BankSortTab) { list.switchTab(to: newTab.index) }
    /// Fills the next other tab's results cache in the background.
    package func warmNextTab() { list.warmNextTab() }
    /// Picks up other processes' writes.
    package func pollExternalChanges() { list.pollExternalChanges() }
    /// One event, as the list screen handles it.
    package func handle(_ event: InputEvent) -> EventResult { list.handle(event) }
}
