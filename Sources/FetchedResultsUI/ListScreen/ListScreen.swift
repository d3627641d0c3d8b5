import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI

/// The list screen every app configures: a navigation bar, a tab bar of fetch
/// configurations, the sectioned table with its index, `/` search and `\`
/// filter through the controller, inline delete with undo, a detail screen,
/// the status line, live polling of other processes' changes, and the other
/// tabs' results caches warmed in the background. What its controllers do in the
/// background comes back through the run loop (`TerminalRunLoop.poster(_:)`): the
/// worker wakes the loop, which installs the result before its next frame.
///
/// The app supplies a ``ListScreenConfiguration``: its tabs (each a sort, a
/// section key path and an index, a cell), its detail screen, its own keys.
/// The screen is the table's delegate and sits on a `TerminalRunLoop` (any
/// `Backend`: ncurses in an app, an in-memory one in tests); it pushes itself,
/// sets the loop's help and adds the polling ticker.
///
/// The first frame never waits for the first tab's full fetch: without a valid
/// results cache the screen shows the controller's preview of the first page
/// ("2025 (…)" headers, "Loading…"), starts the full fetch right after that frame
/// is on the terminal — with ``ListScreenConfiguration/fetchesInBackground``, on the
/// store's second connection (`FetchedResultsController.startInBackground(.fetch)`),
/// so that the loop keeps answering while a 10-million-row table is read — then
/// installs the adapter. Until then the provisional page acts on no key: `q` quits, `?` shows
/// the help, Esc leaves a screen pushed over another; other keys wait for the results (in the
/// terminal, or — while the fetch runs in the background — kept by the screen).
///
/// Search as you type runs once per frame, however many keys arrived before it
/// (a paste is one search, not one per character).
///
///     let loop = TerminalRunLoop(backend: try CursesBackend(), minimumWidth: 24, minimumHeight: 8)
///     var configuration = ListScreenConfiguration(title: "Students", tabs: [bySubject])
///     configuration.detailScreen = { student, _ in StudentScreen(student: student) }
///     let list = try ListScreen(context: ObjectContext(store: store), configuration: configuration, loop: loop)
///     let exit = list.run()
public final class ListScreen: View, TableViewDelegate {
    /// What the app configured (``show(context:readOnlyReason:)`` changes its `readOnlyReason`).
    package internal(set) var configuration: ListScreenConfiguration
    /// The context the controllers fetch through and deletes are saved in
    /// (another one after ``show(context:readOnlyReason:)``).
    package internal(set) var context: ObjectContext
    /// The run loop the screen sits on.
    public unowned let loop: TerminalRunLoop
    /// The sectioned table of the current tab's objects, with its index.
    package let table: TableView
    /// Feeds the table from the current tab's controller (nil while ``isLoading``).
    public internal(set) var adapter: FetchedResultsTableAdapter!
    /// True from a launch without a valid results cache until the first tab's full
    /// fetch is done: the table shows a provisional first page and keys are ignored.
    public internal(set) var isLoading = false
    /// Why the first tab's deferred fetch failed, if it did (the screen then quits the loop).
    public internal(set) var loadError: Error?
    /// The index of the tab showing.
    package internal(set) var tabIndex: Int
    /// The filter applied (`\`), if any.
    package internal(set) var filter: FetchPredicate?
    /// The filter's text as typed ("" without a filter).
    package internal(set) var filterText = ""
    /// Errors that should never happen (a refused batch, a failed poll), newest last.
    package internal(set) var log: [String] = []
    /// Tabs whose results cache is still to be filled in the background (see ``warmNextTab()``).
    package internal(set) var tabsToWarm: [Int] = []
    /// Searches run so far (one per frame while typing, however many keys arrived).
    package internal(set) var searchCount = 0

    let navigationBar: NavigationBar
    let tabBar: TabBar
    /// The bottom line: hints, the position, messages (``showMessage(_:duration:style:)``).
    package let statusLine = StatusLine()
    /// The `/` line, while searching.
    package let searchField = SearchField()
    /// The `\` line, while a filter is typed (at most ``ListScreenConfiguration/filterMaximumLength`` characters).
    package let filterField = FilterField()

    /// The search in force (`n`/`N`), if any.
    var search: ListSearch?
    /// Search text typed but not searched yet (searched after the next frame).
    var pendingSearchText: String?
    /// The selection when `/` was pressed (Esc returns there).
    var searchOrigin: ObjectID?
    var pollFailures = 0
    /// The wait for another program's lock under way (``ListScreenConfiguration/neverWaitsForLocks``).
    var lockWait: LockWait?
    /// The delete or undo that met another program's lock, done once the lock is gone.
    var writeWaitingForLock: (() -> Void)?
    /// The selection last seen in each tab, so that switching back finds it.
    var selectionByTab: [Int: ObjectID] = [:]
    /// The provisional first page while ``isLoading`` (the table's data source is weak).
    var preview: FetchedPreviewTableSource?
    /// The first tab's first fetch while it runs in the background: its controller, and the keys
    /// typed meanwhile (but `q`, `?`, F1 and Esc), handled once the results show.
    var loading: (controller: FetchedResultsController, keys: [InputEvent])?
    /// Each tab's grid as the person arranged it (made from the tab's own when first shown).
    var tabGrids: [Int: TabGrid] = [:]
    /// The cell being edited (`e` in a grid), if any.
    var cellEdit: CellEdit?
    /// The changes sent on their way that their store has not answered yet, by row (marked on screen).
    var pendingChanges: [ObjectID: PendingChange] = [:]
    /// What the screen's controllers call on their worker thread when background work of theirs
    /// finishes: it posts ``backgroundWorkFinished()`` to the loop.
    lazy var backgroundWake: @Sendable () -> Void = loop.poster { [weak self] in self?.backgroundWorkFinished() }
    /// Ctrl-S: the `Save as:` line and the save running (``beginSavingView()``).
    let viewSaving = ViewSaving()
    /// The most keys kept while loading (the rest are dropped).
    static let maximumKeysKept = 256

    /// The tab showing.
    public var tab: ListTab { configuration.tabs[tabIndex] }

    /// The store browsed.
    package var store: Store { context.store }

    /// Why deleting is disabled, when the store is read-only.
    package var readOnlyReason: String? { configuration.readOnlyReason }

    /// Builds the screen on `loop` (pushing it) and fetches the first tab, or shows
    /// its preview and fetches after the first frame.
    ///
    /// - Throws: the first tab's fetch error when neither its cache nor its preview can be read.
    public init(context: ObjectContext, configuration: ListScreenConfiguration, loop: TerminalRunLoop) throws {
        var configuration = configuration
        let presortedRows = configuration.presortedRows
        configuration.presortedRows = nil
        self.configuration = configuration
        self.context = context
        self.loop = loop
        self.tabIndex = min(max(0, configuration.initialTab), configuration.tabs.count - 1)
        self.navigationBar = NavigationBar(title: configuration.title)
        self.tabBar = TabBar(titles: configuration.tabs.map(\.title), selectedIndex: tabIndex)
        self.table = TableView(rowHeight: configuration.tabs[tabIndex].rowHeight)
        table.animatesUpdates = configuration.animated
        table.emptyMessage = tab.emptyMessage ?? "No \(tab.noun.plural)"
        table.delegate = self
        applyTabLayout()

        let controller = makeController(for: tab, filter: nil)
        if let presortedRows, try controller.performFetch(presorted: presortedRows) {
            install(controller)
        } else if try controller.performFetchFromCache() {
            install(controller)
        } else if configuration.previewsFirstPage,
            let preview = try? FetchedPreviewTableSource(
                rows: controller.previewFirstObjects(limit: max(1, loop.backend.height)),
                context: context,
                isSectioned: tab.sectionNameKeyPath != nil,
                cellForObject: cellMaker(),
                headerTitle: tab.provisionalHeaderTitle
            )
        {
            self.preview = preview
            table.dataSource = preview
            isLoading = true
            loop.afterNextFrame { [weak self] in self?.finishLoading(controller) }
        } else {
            // No preview wanted, or it failed: the fetch (which says why it fails, if it does).
            try controller.performFetch()
            install(controller)
        }

        tabBar.onSelect = { [unowned self] index in self.switchTab(to: index) }
        configureSearchField()
        configureFilterField()

        loop.helpBindings = configuration.helpBindings ?? ListScreenKeys.bindings(for: configuration)
        applyLockPolicy()
        loop.push(self)
        addTicker(every: configuration.pollInterval) { screen in
            // A poll of the store for other processes' writes (not for a result of this screen's
            // work, which comes back by itself). Hidden screens (popped, or not pushed again yet) do not poll.
            if screen.loop.contains(screen) { screen.pollExternalChanges() }
            return true
        }
        if let readOnlyReason = configuration.readOnlyReason {
            statusLine.showMessage("Read-only: \(readOnlyReason) — browsing only", at: now, duration: 8)
        }
    }

    deinit { lockWait?.stop() }

    /// The adapter for the first tab's fetched controller (and for a new store's, in `show(context:)`).
    func install(_ controller: FetchedResultsController) {
        adapter = FetchedResultsTableAdapter(
            controller: controller,
            tableView: table,
            cellForObject: cellMaker(),
            headerTitle: tab.headerTitle
        )
        adapter.animatesChanges = configuration.animated
        adapter.log = { [unowned self] message in self.log.append(message) }
        tabsToWarm = configuration.tabs.indices.filter { $0 != tabIndex && configuration.tabs[$0].cacheName != nil }
    }

    /// After the provisional first frame: starts the full fetch in the background (or,
    /// without a second connection, runs it here), then shows the real table — when the
    /// background fetch is done, its worker posts ``backgroundWorkFinished()`` to the loop.
    func finishLoading(_ controller: FetchedResultsController) {
        guard isLoading else { return }
        do {
            if configuration.fetchesInBackground, controller.startInBackground(.fetch) == .started {
                loading = (controller, [])
                return
            }
            try controller.performFetch()
        } catch {
            failLoading(error)
            return
        }
        endLoading(controller)
    }

    /// The background first fetch finished: installs it — the real table, then the keys kept
    /// meanwhile — or quits with its error.
    func installLoaded() {
        guard let (controller, keys) = loading else { return }
        do {
            guard case .fetched? = try controller.pollBackgroundWork() else { return }
            loading = nil
            endLoading(controller)
            for key in keys { loop.dispatch(key) }
        } catch {
            loading = nil
            failLoading(error)
        }
    }

    /// Background work of one of the screen's controllers finished (posted to the loop by its
    /// worker thread, ``backgroundWake``): the first fetch is installed, a refetch's batch
    /// delivered (work that was cancelled starts again).
    func backgroundWorkFinished() {
        if loading != nil {
            installLoaded()
            return
        }
        guard !isLoading, let adapter else { return }
        do {
            try adapter.controller.pollBackgroundWork()
        } catch let error where isLockedOut(error) {
            waitForLock(forWriting: false)
        } catch {
            log.append("background work: \(error)")
            statusLine.showMessage("Cannot read changes: \(error)", at: now, style: .error)
        }
    }

    /// A controller for `tab` in `context` (the screen's by default) with `filter`, whose
    /// background work comes back to the screen through the loop (``backgroundWake``).
    func makeController(
        for tab: ListTab,
        context: ObjectContext? = nil,
        filter: FetchPredicate?
    ) -> FetchedResultsController {
        let controller = tab.makeController(
            context: context ?? self.context,
            filter: filter,
            cacheDirectory: configuration.cacheDirectory
        )
        controller.onBackgroundWorkFinished = backgroundWake
        return controller
    }

    /// The first tab's controller is fetched: the real table replaces the provisional
    /// page (the selection stays on the same object).
    private func endLoading(_ controller: FetchedResultsController) {
        install(controller)
        preview = nil
        isLoading = false
    }

    /// The first fetch failed: the loop quits with ``loadError`` set.
    private func failLoading(_ error: Error) {
        loadError = error
        log.append("performFetch: \(error)")
        loop.quit()
    }

    /// Adds a ticker of this screen to the loop: `body` gets the screen and says whether the
    /// ticker goes on; it removes itself when `body` says no, or once the screen is gone.
    func addTicker(every interval: Double, _ body: @escaping (ListScreen) -> Bool) {
        var id: TerminalRunLoop.TickerID?
        id = loop.addTicker(every: interval) { [weak self, unowned loop] _ in
            if let self, body(self) { return }
            if let id { loop.removeTicker(id) }
        }
    }

    /// Runs the loop until `q` or a termination signal, then empties its view stack
    /// (the loop holds this screen, and the screen its controllers and the store's
    /// objects: letting go frees them when the caller drops the screen).
    public func run() -> TerminalRunLoop.Exit {
        let exit = loop.run()
        while loop.pop() != nil {}
        return exit
    }

    /// Posts a message on the status line (an app's command reporting back).
    ///
    ///     screen.showMessage("Updated 3 books")
    public func showMessage(_ text: String, duration: Double = 4, style: StatusLine.MessageStyle = .info) {
        statusLine.showMessage(text, at: now, duration: duration, style: style)
    }

    var now: Double { loop.clock.now }

    // MARK: Drawing

    /// Navigation bar, tabs, the table, and the status line (or the search or filter line).
    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        let trailing = configuration.navigationTrailingText?(self)
        navigationBar.trailingText =
            configuration.readOnlyReason == nil ? trailing : trailing.map { "read-only · \($0)" } ?? "read-only"
        navigationBar.render(into: &canvas, frame: frame.row(0), at: time)
        if configuration.showsTabBar {
            tabBar.selectedIndex = tabIndex
            tabBar.render(into: &canvas, frame: frame.row(1), at: time)
        }
        table.render(into: &canvas, frame: frame.inset(top: configuration.showsTabBar ? 2 : 1, bottom: 1), at: time)
        renderCellEditor(into: &canvas, frame: frame, at: time)
        if searchField.isActive {
            searchField.render(into: &canvas, frame: frame, at: time)
        } else if filterField.isActive {
            filterField.render(into: &canvas, frame: frame, at: time)
        } else if viewSaving.field.isActive {
            viewSaving.field.render(into: &canvas, frame: frame, at: time)
        } else {
            updateStatusLine()
            statusLine.render(into: &canvas, frame: frame.row(frame.height - 1), at: time)
        }
    }

    /// True while a batch animates.
    public func needsTick(at time: Double) -> Bool { table.isAnimating(at: time) }

    /// When a status message expires.
    public func nextWakeTime(after time: Double) -> Double? { statusLine.nextWakeTime(after: time) }

    // MARK: TableViewDelegate

    /// Enter/→: the app's detail screen.
    public func didSelectRow(at indexPath: IndexPath) {
        // existingObject: a row another process deleted, not yet polled, opens nothing (no trap).
        guard !isLoading, let factory = configuration.detailScreen,
            let object = adapter.controller.existingObject(at: indexPath)
        else { return }
        if let screen = factory(object, self) { loop.push(screen) }
    }
}
