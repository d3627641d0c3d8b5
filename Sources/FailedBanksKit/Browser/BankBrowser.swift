import Foundation
import FetchedResults
import FetchedResultsUI
import SQLiteStore
import TerminalUI

/// The failedbanks browser: the list screen (navigation bar, tabs, the
/// sectioned table with its index, the status line) and everything it does.
///
/// It owns a `TerminalRunLoop` over any `Screen` — ncurses in the app, an
/// in-memory screen in tests — with itself at the bottom of the view stack,
/// the detail screen and the help overlay pushed above it. A ticker polls the
/// store for other processes' writes every 200 ms; the controller turns them
/// into batches and the adapter animates them. Each poll also checks that the
/// store's path still names the open file: when another file was renamed over
/// it, the browser reopens the path and shows the new file (a status line says
/// so); when that file cannot be browsed, the browser quits and the launcher
/// prints why, as for any store it refuses at launch (see ``followReplacedStore()``).
///
/// The first frame never waits for the full fetch: when the first tab's results
/// cache is not valid (a first launch, or the store changed), the browser shows
/// the controller's preview of the first page at once ("2025 (…)" headers, the
/// status line says "Loading…"), runs `performFetch()` right after that frame is
/// on the screen, then installs the adapter; keys typed meanwhile are handled
/// afterwards.
///
///     let store = try Store(path: path, model: BrowserModel.model)
///     let browser = try BankBrowser(store: store, options: BrowserOptions(), screen: try CursesScreen())
///     let exit = browser.run()           // .quit, or .signal(SIGTERM) …
public final class BankBrowser: View, TableViewDelegate {
    /// The store browsed (another one when the file at its path was replaced: ``followReplacedStore()``).
    public private(set) var store: Store
    /// The context the controllers fetch through and deletes are saved in.
    public private(set) var context: ObjectContext
    /// The run loop driving the screen (this browser is its bottom view).
    public let loop: TerminalRunLoop
    /// The bank list.
    public let table: TableView
    /// Feeds `table` from the current tab's controller (nil while ``isLoading``).
    public private(set) var adapter: FetchedResultsTableAdapter!
    /// True from a launch without a valid results cache until the first tab's full
    /// fetch is done: the table shows a provisional first page and keys are ignored
    /// (`q` and Ctrl-C still quit).
    public private(set) var isLoading = false
    /// Why the first tab's deferred fetch failed, if it did (the browser then quits
    /// and the launcher reports it as it reports any store error).
    public private(set) var loadError: Error?
    /// The tab showing.
    public private(set) var tab: BankSortTab
    /// The filter applied (`\`), if any, and its text.
    public private(set) var filter: FetchPredicate?
    public private(set) var filterText = ""
    /// Why deleting is disabled, when the store is read-only.
    public private(set) var readOnlyReason: String?
    /// Errors that should never happen (a refused batch, a failed poll), newest last.
    public private(set) var log: [String] = []

    let navigationBar = NavigationBar(title: "Failed Banks")
    let tabBar: TabBar
    let statusLine = StatusLine()
    let searchField = SearchField()
    let filterField = FilterField()
    let options: BrowserOptions
    let cacheDirectory: String?

    var search: BankSearch?
    /// The selection when `/` was pressed (Esc returns there).
    var searchOrigin: ObjectID?
    /// What each undo brings back, newest last (the context's undo stack in step).
    var deletedBanks: [(id: ObjectID, name: String)] = []
    var pollFailures = 0
    /// Tabs whose results cache is still to be filled in the background, so that the
    /// first switch to them reads the cache instead of fetching (see ``warmNextTab()``).
    var tabsToWarm: [BankSortTab] = []
    /// The provisional first page while ``isLoading`` (the table's data source is weak).
    var preview: FetchedPreviewTableSource?
    /// The update `U` started, while it runs (see BankBrowser+Update.swift).
    var backgroundUpdate: BackgroundUpdate?

    /// Builds the browser over `store` on `screen` and fetches the first tab.
    ///
    /// - Parameters:
    ///   - readOnlyReason: set when the store was opened read-only: delete and undo are disabled, and this says why.
    ///   - cacheDirectory: where the controllers keep their results caches (nil: the default).
    public init(store: Store, options: BrowserOptions, screen: Screen, clock: any TerminalUI.Clock = TerminalUI.MonotonicClock(),
                readOnlyReason: String? = nil, cacheDirectory: String? = nil) throws {
        self.store = store
        self.context = ObjectContext(store: store)
        self.options = options
        self.tab = options.sort
        self.readOnlyReason = readOnlyReason
        self.cacheDirectory = cacheDirectory
        self.loop = TerminalRunLoop(screen: screen, clock: clock, minimumWidth: 24, minimumHeight: 8)
        self.table = TableView(rowHeight: TableCell.Style.subtitle.lineCount)
        self.tabBar = TabBar(titles: BankSortTab.allCases.map(\.title), selectedIndex: options.sort.index)

        table.animatesUpdates = options.animated
        table.emptyMessage = "No banks"
        table.delegate = self
        let controller = tab.makeController(context: context, filter: nil, cacheDirectory: cacheDirectory)
        if try controller.performFetchFromCache() {
            install(controller)
        } else if let preview = try? FetchedPreviewTableSource(
                    rows: controller.previewFirstObjects(limit: max(1, screen.height)), context: context,
                    isSectioned: true, cellForObject: BankBrowser.cell(for:),
                    headerTitle: BankBrowser.provisionalHeader(forSectionNamed:)) {
            self.preview = preview
            table.dataSource = preview
            isLoading = true
            loop.afterNextFrame { [unowned self] in self.finishLoading(controller) }
        } else {
            // The preview failed: the fetch says why (or succeeds after all).
            try controller.performFetch()
            install(controller)
        }

        tabBar.onSelect = { [unowned self] index in self.switchTab(to: BankSortTab.allCases[index]) }
        configureSearchField()
        configureFilterField()

        loop.helpBindings = BrowserKeys.bindings
        loop.push(self)
        loop.addTicker(every: 0.2) { [unowned self] _ in self.pollExternalChanges() }
        if let readOnlyReason {
            statusLine.showMessage("Read-only: \(readOnlyReason) — browsing only", at: clock.now, duration: 8)
        }
    }

    /// The adapter for the first tab's fetched controller.
    private func install(_ controller: FetchedResultsController) {
        adapter = FetchedResultsTableAdapter(
            controller: controller, tableView: table,
            cellForObject: BankBrowser.cell(for:),
            headerTitle: BankBrowser.header(for:))
        adapter.animatesChanges = options.animated
        adapter.log = { [unowned self] message in self.log.append(message) }
        tabsToWarm = BankSortTab.allCases.filter { $0 != tab }
    }

    /// After the provisional first frame: the full fetch, then the real table (the
    /// selection stays on the same bank). A failure quits the loop with ``loadError`` set.
    func finishLoading(_ controller: FetchedResultsController) {
        guard isLoading else { return }
        do {
            try controller.performFetch()
        } catch {
            loadError = error
            log.append("performFetch: \(error)")
            loop.quit()
            return
        }
        install(controller)
        preview = nil
        isLoading = false
    }

    /// Runs until `q` or a termination signal.
    public func run() -> TerminalRunLoop.Exit {
        let exit = loop.run()
        // The loop holds its views (this browser among them) and this browser
        // holds the loop: let go of them, so that the controller, the loaded
        // objects and the store's connection are freed when the caller drops
        // the browser (the last connection to close removes -wal and -shm).
        while loop.pop() != nil {}
        return exit
    }

    /// The cell of a bank: its name, and `City, ST` below it. A value that is not text
    /// (a BLOB name a `sqlite3` shell stored) shows as ``DisplayText/of(_:)`` writes it (`x'…'`).
    public static func cell(for bank: ManagedObject) -> TableCell {
        let city = DisplayText.of(bank.value(forKeyPath: "city"))
        let state = DisplayText.of(bank.value(forKeyPath: "state"))
        let detail = city.isEmpty ? state : (state.isEmpty ? city : "\(city), \(state)")
        return TableCell(style: .subtitle, title: DisplayText.of(bank.value(forKeyPath: "name")), detail: detail,
                         accessory: .disclosureIndicator)
    }

    /// A section header: its name and count, "2025 (3)"; "— (2)" for banks
    /// without the key (no details row, no state).
    public static func header(for section: SectionInfo) -> String {
        "\(section.name.isEmpty ? "—" : section.name) (\(section.numberOfObjects))"
    }

    /// A section header before its count is known: "2025 (…)", "— (…)".
    public static func provisionalHeader(forSectionNamed name: String) -> String {
        "\(name.isEmpty ? "—" : name) (…)"
    }

    var now: Double { loop.clock.now }

    // MARK: Drawing

    /// Navigation bar, tabs, the table, and the status line (or the search or filter line).
    public func render(into canvas: inout Canvas, frame: Rect, at time: Double) {
        guard !frame.isEmpty else { return }
        navigationBar.trailingText = readOnlyReason == nil ? nil : "read-only"
        navigationBar.render(into: &canvas, frame: frame.row(0), at: time)
        tabBar.selectedIndex = tab.index
        tabBar.render(into: &canvas, frame: frame.row(1), at: time)
        table.render(into: &canvas, frame: frame.inset(top: 2, bottom: 1), at: time)
        if searchField.isActive {
            searchField.render(into: &canvas, frame: frame, at: time)
        } else if filterField.isActive {
            filterField.render(into: &canvas, frame: frame, at: time)
        } else {
            updateStatusLine()
            statusLine.render(into: &canvas, frame: frame.row(frame.height - 1), at: time)
        }
    }

    /// The status line's left side: the tab, the filter, the search, a hint.
    func updateStatusLine() {
        var parts = [tab.title]
        if filter != nil { parts.append("filter: \(filterText)") }
        if let search, !search.text.isEmpty { parts.append("/\(search.text)") }
        statusLine.hints = parts.joined(separator: " · ") + "   ? help  q quit"
        statusLine.trailingText = isLoading ? "Loading…" : positionText
    }

    /// `123/572` (the selection's position and the number of banks shown).
    var positionText: String {
        let total = adapter.controller.numberOfObjects
        return "\(total == 0 ? 0 : adapter.selectedPosition ?? 0)/\(total)"
    }

    /// True while a batch animates.
    public func needsTick(at time: Double) -> Bool { table.isAnimating(at: time) }

    /// When a status message expires.
    public func nextWakeTime(after time: Double) -> Double? { statusLine.nextWakeTime(after: time) }

    // MARK: Keys

    /// The keys of ``BrowserKeys``: the search or filter line while open, then the
    /// table's own keys, then the browser's; `q`, `?` and F1 fall through to the run loop.
    public func handle(_ event: InputEvent) -> EventResult {
        // The provisional page is not the results: nothing acts on it (q falls through and quits).
        if isLoading { return .ignored }
        if searchField.isActive {
            _ = searchField.handle(event)
            return .handled
        }
        if filterField.isActive {
            _ = filterField.handle(event)
            return .handled
        }
        if case .resize = event { return .ignored }
        if case .mouseClick(_, let y) = event, y == 1 {
            _ = tabBar.handle(event)
            return .handled
        }
        if table.handle(event) { return .handled }
        switch event {
        case .tab, .backTab, .character("1"), .character("2"), .character("3"):
            _ = tabBar.handle(event)
            return .handled
        case .character("/"):
            beginSearch()
            return .handled
        case .character("\\"):
            filterField.activate(text: filterText)
            filterField.trailingText = nil
            return .handled
        case .character("n"):
            findNext(forward: true)
            return .handled
        case .character("N"):
            findNext(forward: false)
            return .handled
        case .character("u"):
            undoDelete()
            return .handled
        case .character("c"):
            showChart()
            return .handled
        case .character("U"):
            startUpdate()
            return .handled
        case .escape, .left:
            return clearSearchAndFilter() ? .handled : .ignored
        default:
            return .ignored   // q quits, ? and F1 open the help: the run loop's fallback
        }
    }

    // MARK: TableViewDelegate

    /// Enter/→: the detail screen.
    public func didSelectRow(at indexPath: IndexPath) {
        guard !isLoading, let bank = adapter.controller.existingObject(at: indexPath) else { return }
        loop.push(BankDetailScreen(bank: bank))
    }

    /// False (and says why) on a read-only store.
    public func canDeleteRow(at indexPath: IndexPath) -> Bool {
        if isLoading { return false }
        if let readOnlyReason {
            statusLine.showMessage("Delete is disabled: \(readOnlyReason)", at: now, style: .error)
            return false
        }
        return true
    }

    /// The Delete button confirmed: delete through the context and save; the row animates out.
    public func commitDelete(at indexPath: IndexPath) {
        guard readOnlyReason == nil, !isLoading, let bank = adapter.controller.existingObject(at: indexPath) else { return }
        let name = bank.string("name") ?? "the bank"
        let id = bank.objectID
        context.delete(bank)
        do {
            try context.save()
            deletedBanks.append((id, name))
            statusLine.showMessage("Deleted \(name) — u to undo", at: now, duration: 8)
        } catch {
            context.rollback()
            statusLine.showMessage("Could not delete \(name): \(error)", at: now, duration: 8, style: .error)
        }
    }

    // MARK: Undo

    func undoDelete() {
        if let readOnlyReason {
            statusLine.showMessage("Undo is disabled: \(readOnlyReason)", at: now, style: .error)
            return
        }
        guard context.canUndo, let last = deletedBanks.last else {
            statusLine.showMessage("Nothing to undo", at: now)
            return
        }
        do {
            try context.undo()
            deletedBanks.removeLast()
            adapter.select(last.id)
            statusLine.showMessage("Restored \(last.name)", at: now)
        } catch {
            statusLine.showMessage("Could not undo: \(error)", at: now, duration: 8, style: .error)
        }
    }

    // MARK: Tabs and filter

    /// Shows `newTab`'s order and sections; the selection stays on the same bank.
    public func switchTab(to newTab: BankSortTab) {
        guard newTab != tab, !isLoading else { return }
        do {
            let controller = newTab.makeController(context: context, filter: filter, cacheDirectory: cacheDirectory)
            try controller.performFetch()
            tab = newTab
            adapter.swap(to: controller)
            search?.locate(in: controller, generation: adapter.batchCount)
        } catch {
            statusLine.showMessage("Could not sort by \(newTab.title.lowercased()): \(error)", at: now, style: .error)
        }
        tabBar.selectedIndex = tab.index
    }

    /// Applies `predicate` (nil: none) to the current tab.
    func applyFilter(_ predicate: FetchPredicate?, text: String) throws {
        let controller = tab.makeController(context: context, filter: predicate, cacheDirectory: cacheDirectory)
        try controller.performFetch()
        filter = predicate
        filterText = predicate == nil ? "" : text
        adapter.swap(to: controller)
    }

    /// Longest filter the `\` line takes, in characters; typing or pasting more is cut there.
    static let filterMaximumLength = 1000

    func configureFilterField() {
        filterField.maximumLength = BankBrowser.filterMaximumLength
        filterField.onChange = { [unowned self] text in
            _ = self.validateFilter(text)
        }
        filterField.onCommit = { [unowned self] text in
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else {
                try? self.applyFilter(nil, text: "")
                return
            }
            guard let predicate = self.validateFilter(trimmed) else {
                self.filterField.activate(text: text)
                _ = self.validateFilter(text)
                return
            }
            do {
                try self.applyFilter(predicate, text: trimmed)
                self.statusLine.showMessage("\(self.adapter.controller.numberOfObjects) banks match", at: self.now)
            } catch {
                self.filterField.activate(text: text)
                self.filterField.setError("\(error)", at: nil)
            }
        }
        filterField.onCancel = { [unowned self] in
            if self.filter != nil { try? self.applyFilter(nil, text: "") }
        }
    }

    /// Parses `text` and checks its key paths against the model; shows the
    /// error (with its position) in the filter line, or clears it.
    @discardableResult
    func validateFilter(_ text: String) -> FetchPredicate? {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            filterField.clearError()
            return nil
        }
        do {
            let predicate = try FetchPredicate(text)
            _ = try store.model.sqlSource(root: FailedBankModel.info, keyPaths: predicate.keyPaths)
            filterField.clearError()
            return predicate
        } catch let error as FetchPredicateError {
            if text.count >= BankBrowser.filterMaximumLength {
                // Cut at the field's length: the parser's complaint (an unterminated string, a
                // missing operand) is about the cut, not about what was typed.
                filterField.setError("the filter is too long: at most \(BankBrowser.filterMaximumLength) characters",
                                     at: BankBrowser.filterMaximumLength - 1)
            } else {
                filterField.setError("\(error)", at: error.position > 0 ? error.position - 1 : nil)
            }
        } catch StoreError.unknownKeyPath(let keyPath, _) {
            let offset = text.range(of: keyPath).map { text.distance(from: text.startIndex, to: $0.lowerBound) }
            filterField.setError("unknown key path \"\(keyPath)\"\(offset.map { " (column \($0 + 1))" } ?? "")", at: offset)
        } catch {
            filterField.setError("\(error)", at: nil)
        }
        return nil
    }

    /// Esc in the list: drops the search, then the filter. Returns whether anything was cleared.
    func clearSearchAndFilter() -> Bool {
        if search != nil {
            search = nil
            return true
        }
        if filter != nil {
            do { try applyFilter(nil, text: "") } catch {
                statusLine.showMessage("\(error)", at: now, style: .error)
            }
            return true
        }
        return false
    }

    // MARK: Search

    func configureSearchField() {
        searchField.onChange = { [unowned self] text in self.searchAsYouType(text) }
        searchField.onCommit = { [unowned self] text in
            if text.isEmpty { self.search = nil }
            self.searchField.trailingText = nil
        }
        searchField.onCancel = { [unowned self] in
            self.search = nil
            if let origin = self.searchOrigin { self.adapter.select(origin) }
            self.searchField.trailingText = nil
        }
    }

    func beginSearch() {
        searchOrigin = adapter.selectedObjectID
        searchField.activate()
        searchField.trailingText = nil
        search = nil
    }

    /// Each edit: the first match at or after where the search began.
    func searchAsYouType(_ text: String) {
        guard !text.isEmpty else {
            search = nil
            searchField.trailingText = nil
            if let origin = searchOrigin { adapter.select(origin) }
            return
        }
        var newSearch = BankSearch(text: text)
        // Incremental: a text that extends one without matches has none either (no query;
        // n/N query again). Edits arrive once per burst of input (TerminalUI's InputBurst).
        let extendsNoMatch = search.map { $0.matchingIDs.isEmpty && text.hasPrefix($0.text) } ?? false
        if !extendsNoMatch {
            do { try newSearch.refresh(in: store) } catch {
                searchField.trailingText = "error"
                return
            }
        }
        let controller = adapter.controller
        newSearch.locate(in: controller, generation: adapter.batchCount)
        search = newSearch
        let flat = FlatIndex(controller)
        let start = searchOrigin.flatMap { controller.indexPath(for: $0) }.map { flat.position(of: $0) } ?? 0
        if let found = newSearch.match(in: controller, from: start, forward: true) {
            table.selectRow(at: flat.indexPath(at: found))
            searchField.trailingText = newSearch.ordinalText(at: found)
        } else {
            searchField.trailingText = "no match"
        }
    }

    /// `n` / `N`: the next or previous match after the selection, wrapping.
    func findNext(forward: Bool) {
        guard var current = search, !current.text.isEmpty else {
            statusLine.showMessage("No search: press / to search by name", at: now)
            return
        }
        do { try current.refresh(in: store) } catch {
            statusLine.showMessage("Search failed: \(error)", at: now, style: .error)
            return
        }
        let controller = adapter.controller
        current.locate(in: controller, generation: adapter.batchCount)
        search = current
        let flat = FlatIndex(controller)
        let here = table.selection.map { flat.position(of: $0) } ?? (forward ? -1 : 0)
        guard flat.total > 0,
              let found = current.match(in: controller, from: here + (forward ? 1 : -1), forward: forward) else {
            statusLine.showMessage("No bank name contains \"\(current.text)\"", at: now)
            return
        }
        table.selectRow(at: flat.indexPath(at: found))
        var message = "/\(current.text)"
        if let ordinal = current.ordinalText(at: found) { message += ": \(ordinal)" }
        if forward, found <= here { message += " (wrapped to the top)" }
        if !forward, found >= here { message += " (wrapped to the bottom)" }
        statusLine.showMessage(message, at: now)
    }

    // MARK: Live changes

    /// Picks up other processes' writes (the controller animates them through the adapter),
    /// and a file renamed over the store's path.
    func pollExternalChanges() {
        guard !isLoading else { return }
        if store.fileAtPath() == .replaced {
            followReplacedStore()
            return
        }
        warmNextTab()
        do {
            try context.processExternalChanges()
            pollFailures = 0
        } catch {
            pollFailures += 1
            // A busy store is retried on the next tick; say so only when it persists.
            if pollFailures == 10 {
                log.append("processExternalChanges: \(error)")
                statusLine.showMessage("Cannot read changes: \(error)", at: now, style: .error)
            }
        }
    }

    /// Another file was renamed over the store's path (`mv other.sqlite store.sqlite`): the old
    /// file, unlinked, is no longer what the user means. Shows the file now at the path, on the
    /// same tab and filter, from the top (a status message says so); undo, search and a pushed
    /// detail screen belong to the old file and are dropped. When the new file cannot be opened
    /// (not a failedbanks store, newer, damaged), the browser quits with ``loadError`` set to the
    /// refusal, which the launcher prints as it does at launch: nothing of the old file is shown
    /// or written after its replacement.
    ///
    /// The old store is released before the path is opened again: the two files would share the
    /// `-wal` and `-shm` files named after the path (``Store/prepareForReopening()``).
    func followReplacedStore() {
        let path = store.path
        let model = store.model
        store.prepareForReopening()
        while let top = loop.topView, top !== self { _ = loop.pop() }
        search = nil
        searchOrigin = nil
        deletedBanks = []
        tabsToWarm = []
        do {
            // Stand-ins while the old store goes: the adapter always has a controller.
            let placeholder = try Store(path: ":memory:", model: model)
            context = ObjectContext(store: placeholder)
            let empty = FetchedResultsController(fetchRequest: tab.fetchRequest(filter: nil), context: context,
                                                 sectionNameKeyPath: tab.sectionNameKeyPath)
            try empty.performFetch()
            adapter.swap(to: empty)
            store = placeholder
            let opened = try FailedBankStore.open(path: path, for: .browsing, model: model)
            store = opened.store
            context = ObjectContext(store: store)
            readOnlyReason = opened.readOnlyReason
            let controller = tab.makeController(context: context, filter: filter, cacheDirectory: cacheDirectory)
            try controller.performFetch()
            adapter.swap(to: controller)
            table.scrollOffset = 0
            table.selectRow(at: IndexPath(row: 0, section: 0))
            tabsToWarm = BankSortTab.allCases.filter { $0 != tab }
            statusLine.showMessage("The store file was replaced: showing the file now at \(path)", at: now, duration: 8)
        } catch {
            let refusal = StoreRefusal(error, path: path)
            loadError = refusal.adding(" (it replaced the store file while the browser showed it)")
            log.append("reopening the replaced store: \(refusal.message)")
            loop.quit()
        }
    }

    /// Fills the next other tab's results cache on the store's second connection
    /// (one at a time; retried on the next tick while that connection is busy).
    /// Called from the 200 ms ticker once the first tab has loaded.
    func warmNextTab() {
        while let next = tabsToWarm.first {
            if next == tab { tabsToWarm.removeFirst(); continue }
            switch next.makeController(context: context, filter: nil, cacheDirectory: cacheDirectory).warmCacheInBackground() {
            case .busy: return
            case .started: tabsToWarm.removeFirst(); return
            case .alreadyValid, .notApplicable: tabsToWarm.removeFirst()
            }
        }
    }
}

