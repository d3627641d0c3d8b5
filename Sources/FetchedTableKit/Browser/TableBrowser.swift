import BulkImport
import CLIKit
import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI

/// The `fetchedtable` browser: the generic ``ListScreen`` configured for one
/// table (``TableListTab``: its sort, sections and cell; ``ObjectDetailScreen``
/// of every column; `o` to choose the sort, `S` the section key), and — for a
/// database of several tables without `--table` — a table list first
/// (``ChoiceListScreen``, each table and view with its row count): Enter opens
/// one, Esc from it returns to the list.
///
/// Works on any `Backend` — ncurses in the app, an in-memory screen in tests.
///
///     let database = try TableDatabase.open(options: options)
///     let browser = try TableBrowser(database: database, options: options, backend: try CursesBackend())
///     let exit = browser.run()
package final class TableBrowser {
    /// The file's tables (read again when another program changes the schema).
    package internal(set) var database: TableDatabase
    /// What the command line asked.
    package let options: TableOptions
    /// The run loop driving the screen.
    package let loop: TerminalRunLoop
    /// The table list, when the file has several tables and no `--table` was given.
    package private(set) var tableList: ChoiceListScreen?
    /// The list of the table open (the last one opened).
    package internal(set) var list: ListScreen?
    /// The table open in ``list``.
    package internal(set) var opened: OpenedTable?
    /// Whether a CSV file's column is being re-typed (`t`).
    var isRetyping = false
    /// Whether a table's first frame is its preview, fetched in full right after (see ``ListScreenConfiguration/previewsFirstPage``).
    let previewsFirstPage: Bool
    /// A CSV or JSON file's following: its changes brought into its cache while it is shown.
    var following: FileFollowing?
    /// Changes a table's list configuration before its screen is made (a server table's
    /// copy: deletes and undo go to the server).
    let configure: ((inout ListScreenConfiguration) -> Void)?
    /// The `:` line's history and the queries run from it (``QueryTabs``).
    let queries = QueryTabs()

    /// Builds the browser on `screen`: the table `--table` names (or the only one), else the table list.
    ///
    /// - Throws: ``FetchedTableError`` for an option the table cannot take; the first fetch's error.
    package convenience init(
        database: TableDatabase,
        options: TableOptions,
        backend: Backend,
        clock: any TerminalUI.TimeSource = TerminalUI.MonotonicClock()
    ) throws {
        try self.init(
            database: database,
            options: options,
            loop: TerminalRunLoop(backend: backend, clock: clock, minimumWidth: 24, minimumHeight: 8)
        )
    }

    /// Builds the browser on `loop` (its screens pushed over what it shows already, e.g. a CSV file's loading screen).
    ///
    /// `previewsFirstPage` false fetches the whole table before its first frame (after a
    /// CSV file's loading screen, which was the first page already).
    package init(
        database: TableDatabase,
        options: TableOptions,
        loop: TerminalRunLoop,
        previewsFirstPage: Bool = true,
        configure: ((inout ListScreenConfiguration) -> Void)? = nil
    ) throws {
        self.database = database
        self.options = options
        self.loop = loop
        self.previewsFirstPage = previewsFirstPage
        self.configure = configure
        if let table = try database.soleTable(options.table, command: "") {
            try open(table)
        } else {
            showTableList()
        }
        if database.kind == .sqlite {
            // A poll of the file: another program may change its schema at any time.
            loop.addTicker(every: TableBrowser.schemaCheckInterval) { [weak self] _ in self?.checkSchema() }
        } else {
            startFollowing()
        }
    }

    /// Shows the table list (made the first time, its lines read again after).
    func showTableList() {
        if let tableList {
            tableList.items = tableListItems
            if !loop.contains(tableList) { loop.push(tableList) }
            return
        }
        loop.push(makeTableList())
    }

    /// A file's browser opened at one table (`--table`, a file of one table) has no table list
    /// until a query tab is opened from its `:` line: then the list is made and put beneath
    /// the screens shown, so that Esc from the table returns to it — the file's tables, then
    /// the queries (Enter: the tab again) — as a browser opened without `--table` does.
    ///
    /// A CSV or JSON file's list shows its cache's one table; `--query`'s result's shows the
    /// tables of the file the query reads (``listedFile``), then the query and those run after it.
    /// A server's table or query is listed by ``PostgresBrowser`` instead.
    func placeTableListBeneath() {
        guard tableList == nil, queries.server == nil, options.postgres == nil, queries.root == nil else { return }
        var failure: String?
        if database.querySource != nil {
            do {
                listedFile = try TableDatabase(
                    path: options.file,
                    kind: .sqlite,
                    databasePath: options.file,
                    readOnly: options.readOnly
                )
            } catch {
                failure = "The tables of \(options.file) could not be read: \(error.message)"
            }
        }
        let list = makeTableList()
        loop.pushToBack(list)
        if let failure { list.statusLine.showMessage(failure, at: loop.clock.now, duration: 10, style: .error) }
        // The table open is counted again when Esc returns to the list.
        recountsOpenedTable = true
    }

    /// `--query`'s result's table list: the file the query reads, whose tables it lists (nil
    /// until the list is made, and for any other browser: its own ``database`` is listed).
    private(set) var listedFile: TableDatabase?

    /// The tables the table list shows: the file's, or for `--query`'s result those of the file the query reads.
    var listedTables: [CatalogTable] {
        database.querySource == nil ? database.tables : listedFile?.tables ?? []
    }

    /// A table of the file a `--query` reads, opened from its result's table list: its own
    /// browser over the list (its `:` line this one's, its query tabs listed here).
    private var listedTableBrowser: TableBrowser?

    /// The options a table listed beneath `--query`'s result opens with (`query`): the file's
    /// or the server's, `--read-only`, `--track`, `--no-animation`, `--cache-limit`; none of the
    /// query's or its columns'.
    static func listedTableOptions(_ query: TableOptions) -> TableOptions {
        var options = TableOptions(file: query.file)
        options.postgres = query.postgres
        options.readOnly = query.readOnly
        options.track = query.track
        options.animated = query.animated
        options.cacheLimit = query.cacheLimit
        options.statementTimeout = query.statementTimeout
        return options
    }

    /// Enter on a table of ``listedFile``: that table in a browser of its own, over the list.
    private func openListedTable(_ table: CatalogTable, of file: TableDatabase) throws {
        var options = TableBrowser.listedTableOptions(self.options)
        options.table = table.name
        let browser = try TableBrowser(database: file, options: options, loop: loop)
        browser.queries.root = self
        listedTableBrowser = browser
    }

    /// The table list (``tableList``): Enter opens a table or a query's tab; `:` runs a query.
    private func makeTableList() -> ChoiceListScreen {
        let list = ChoiceListScreen(
            title: (database.path as NSString).lastPathComponent,
            items: tableListItems,
            loop: loop
        )
        list.onChoose = { [unowned self] index in self.openFromList(index) }
        if options.postgres == nil {
            list.onKey = { [unowned self] event in
                guard event == .character(":") else { return false }
                self.beginQuery()
                return true
            }
            list.helpBindings.insert((":", "run a query (↑/↓ history, Tab names): its rows in a new tab"), at: 5)
        }
        tableList = list
        // A poll of the file's row counts, read once each time the list shows again.
        loop.addTicker(every: TableBrowser.recountInterval) { [weak self] _ in self?.recountOnReturn() }
        return list
    }

    // MARK: Schema changes

    /// How often the open table's file is asked whether its schema changed (seconds).
    static let schemaCheckInterval = 0.2

    /// `PRAGMA schema_version` of the file when the open table's columns were read.
    var schemaVersion: Int64?

    /// The open table's file's `PRAGMA schema_version` now (nil when no table is open or the file cannot say).
    var fileSchemaVersion: Int64? { try? opened?.store.database.scalar("PRAGMA schema_version").int64 }

    /// Another program changed the schema (`ALTER TABLE … DROP COLUMN`, `DROP TABLE`): the
    /// open table is read again — reopened with its new columns, or, when it is gone or can
    /// no longer take the options, the table list says so. One `PRAGMA` per tick otherwise.
    func checkSchema() {
        guard let opened, let list, loop.contains(list), let version = fileSchemaVersion, version != schemaVersion
        else { return }
        schemaVersion = version
        var fresh: TableDatabase
        do {
            fresh = try TableDatabase(
                path: database.path,
                kind: database.kind,
                databasePath: database.databasePath,
                readOnly: options.readOnly
            )
            fresh.serverOrder = database.serverOrder
            fresh.columnLabels = database.columnLabels
            fresh.querySource = database.querySource
            if database.querySource != nil { fresh.readOnlyReason = database.readOnlyReason }
        } catch {
            list.statusLine.showMessage("\(error)", at: loop.clock.now, duration: 8, style: .error)
            return
        }
        database = fresh
        let name = opened.table.name
        let table = fresh.catalog.table(named: name)
        if let table, table.columns == opened.table.columns, table.rowIDColumn == opened.table.rowIDColumn,
            table.brokenReason == nil
        {
            return  // an index, a trigger, another table: this one reads as before
        }
        while let top = loop.topView, top !== list { loop.pop() }
        loop.pop()
        self.list = nil
        self.opened = nil
        let message: String
        if let table, table.brokenReason == nil {
            do {
                try open(table)
                self.list?.statusLine.showMessage(
                    "\(name) was changed by another program: its columns were read again",
                    at: loop.clock.now,
                    duration: 8
                )
                return
            } catch {
                message = "\(name) was changed by another program and cannot be opened as asked: \(error)"
            }
        } else if let reason = table?.brokenReason {
            message = "\(name) was changed by another program and cannot be read: \(reason)"
        } else {
            message = "\(name) is gone: another program dropped it"
        }
        showTableList()
        tableList?.statusLine.showMessage(message, at: loop.clock.now, duration: 10, style: .error)
    }

    /// How soon after Esc returns to the table list the row counts are read again (seconds).
    static let recountInterval = 0.1

    /// Whether the tables are to be counted again once the list shows (a table was opened from it).
    var recountsOpenedTable = false

    /// Back in the table list from a table: every line gets the count of now (rows deleted
    /// there, which views over it show too, or written by others meanwhile). The table left
    /// is counted through its store's connection, which sees every commit (the catalog's
    /// may be an `immutable` one).
    func recountOnReturn() {
        guard recountsOpenedTable, let tableList, loop.topView === tableList else { return }
        recountsOpenedTable = false
        var items = tableListItems
        if listedFile == nil, let opened, let list,
            let index = database.tables.firstIndex(where: { $0.name == opened.table.name })
        {
            let count = (try? list.context.count(opened.table.name)).map(TableBrowser.rowCountText)
            items[index].detail = TableBrowser.detail(kind: TableDatabase.kind(of: opened.table), count: count)
        }
        if items != tableList.items { tableList.items = items }
    }

    /// The table list's line for `table`: its name, and "view · 12 rows" (or why it cannot be read).
    static func item(for table: CatalogTable) -> ChoiceListScreen.Item {
        let kind = TableDatabase.kind(of: table)
        if let broken = table.brokenReason {
            return ChoiceListScreen.Item(title: table.name, detail: "broken \(kind): \(broken)")
        }
        let count = (try? table.rowCount()).map(rowCountText)
        return ChoiceListScreen.Item(title: table.name, detail: detail(kind: kind, count: count))
    }

    /// "12 rows", "1 row".
    static func rowCountText(_ count: Int) -> String { "\(count) row\(count == 1 ? "" : "s")" }

    /// "336,776 rows": the title bar's count, its thousands grouped.
    static func groupedRowCountText(_ count: Int) -> String {
        var digits = String(count)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            if digits[digits.startIndex..<index] != "-" { digits.insert(",", at: index) }
        }
        return "\(digits) row\(count == 1 ? "" : "s")"
    }

    /// The title bar of a table: a CSV file's name (its one table is named after it), a
    /// database's table and file ("student — school.sqlite").
    static func title(table: String, path: String, kind: TableFileKind) -> String {
        let file = (path as NSString).lastPathComponent
        return kind.isCached ? file : "\(table) — \(file)"
    }

    /// A table list line's detail: "view · 12 rows", "virtual table · 3 rows", "12 rows", "unreadable".
    static func detail(kind: String, count: String?) -> String {
        let count = count ?? "unreadable"
        return kind == "table" ? count : "\(kind) · \(count)"
    }

    /// Enter in the table list: opens that table over it (a refusal goes on its status line).
    func openFromList(_ index: Int) {
        let tables = listedTables
        if index >= tables.count { return showQueryTab(index - tables.count) }
        do {
            if let listedFile { try openListedTable(tables[index], of: listedFile) } else { try open(tables[index]) }
            recountsOpenedTable = true
        } catch {
            let message = TableDatabase.refusal(error, path: database.path).message
            tableList?.statusLine.showMessage(message, at: loop.clock.now, duration: 8, style: .error)
        }
    }

    /// Opens `table` in a new list screen, pushed on the loop.
    func open(_ table: CatalogTable) throws {
        // `--table`'s column options are that table's: another one (from the table list) opens with its defaults.
        let opened = try database.open(table, options: options.opening(table.name))
        var configuration = ListScreenConfiguration(
            title: TableBrowser.title(table: opened.query.label, path: database.path, kind: database.kind),
            tabs: [TableListTab.make(opened.query)]
        )
        // One tab: the title bar names the file and counts the rows; no tab line.
        configuration.showsTabBar = false
        configuration.navigationTrailingText = { screen in
            screen.adapter.map { TableBrowser.groupedRowCountText($0.controller.numberOfObjects) }
        }
        configuration.animated = options.animated
        configuration.previewsFirstPage = previewsFirstPage
        // A 10-million-row table takes seconds to fetch: the keys (q) are answered meanwhile.
        configuration.fetchesInBackground = true
        // A query's first run is in its order by row id: listed without a read of the table.
        configuration.presortedRows = database.querySource?.firstRunRows
        // Another program's lock (a VACUUM, an import in rollback-journal mode) is waited for off
        // the screen's thread: polls and deletes wait, keys do not.
        configuration.neverWaitsForLocks = true
        configuration.readOnlyReason = opened.readOnlyReason
        // d on a view or a read-only file says why it cannot delete (readOnlyReason), rather than nothing.
        configuration.allowsDelete = true
        // e edits a cell; not a generated column's, which SQLite computes (nor any on a read-only
        // file, a view or a CSV file's cache: readOnlyReason says why).
        configuration.allowsCellEdits = true
        let generated = Set(table.columns.filter(\.isGenerated).map(\.name))
        configuration.cellEditRefusal = { column in
            generated.contains(column.keyPath) ? "\(column.name) is a generated column (SQLite computes it)" : nil
        }
        let keys = opened.query.columns.map(\.name)
        let titleKey = opened.query.titleKey
        let query = opened.query
        configuration.detailScreen = { row, _ in
            ObjectDetailScreen(
                object: row,
                keys: keys,
                labels: query.columnLabels,
                titleKey: titleKey,
                backTitle: query.label
            ) { row, key in
                query.displayText(of: row, key: key)
            }
        }
        configuration.detailDescription = "show every column of the row"
        configuration.indexTitleDescription = "a section's name"
        if let text = opened.query.columns.first(where: { $0.type == .text })?.name ?? keys.first {
            configuration.filterExample = ["\(TableQuery.predicateName(text)) BEGINSWITH 'A'; Esc clears"]
        }
        // --where narrows the tab itself: the \\ filter comes on top of it.
        configuration.tabs[0].predicate = opened.query.predicate
        configuration.keyBindings = [sortBinding(), sectionBinding(), columnSectionBinding(), layoutBinding()]
        configuration.keyBindings.append(addRowBinding(table, titleKey: titleKey))
        configuration.keyBindings.append(queryBinding())
        if let source = database.querySource {
            configuration.statusDetail = { [unowned self] _ in self.queryStatusDetail }
            // Its rows' own table (query_result) means nothing to the person: a name from the query.
            configuration.saveTableName = { _ in TableBrowser.saveTableName(of: source) }
        }
        if database.kind == .sqlite {
            // Another file renamed over the path (the list's polls compare its device and inode
            // with the open file's, `Store.fileAtPath()`): the same table in the file now there.
            configuration.reopenReplacedStore = { [unowned self] _, _ in
                try self.reopenReplaced(tableNamed: table.name)
            }
        }
        configuration.retypeColumn = { [unowned self] column, screen in self.retype(column, on: screen) }
        // [ and ] in the grid: the query keeps the order, so that o shows it.
        configuration.sortByColumn = { [unowned self] column, ascending, tab in
            guard let opened = self.opened else { return }
            let query = opened.query.sorted(
                by: SortSpecification(keys: [.init(column: column.keyPath, ascending: ascending)])
            )
            tab.sortDescriptors = query.sortDescriptors
            self.opened?.query = query
        }
        if let source = database.querySource, let writes = source.writes {
            configureQueryWrites(&configuration, source: source, writes: writes)
        } else if let source = database.querySource, let writes = source.serverWrites {
            configurePostgresQueryWrites(&configuration, source: source, writes: writes)
        }
        configure?(&configuration)
        self.opened = opened
        list = try ListScreen(context: ObjectContext(store: opened.store), configuration: configuration, loop: loop)
        schemaVersion = fileSchemaVersion
    }

    /// Another file was renamed over the file's path while `name` showed (the list noticed and
    /// let go of the old file's store): the table of that name in the file now there — with
    /// the same columns, in the list's order and sections — or, when it has none, why not (the
    /// list then quits, saying so, as it would refuse the file at launch).
    func reopenReplaced(tableNamed name: String) throws -> (store: Store, readOnlyReason: String?) {
        let query = opened?.query
        let columns = opened?.table.columns
        // The list let go of the old store: nothing here may hold it either.
        opened = nil
        let fresh = try TableDatabase(
            path: database.path,
            kind: database.kind,
            databasePath: database.databasePath,
            readOnly: options.readOnly
        )
        guard let table = fresh.catalog.table(named: name), table.brokenReason == nil, table.columns == columns else {
            throw FetchedTableError(
                "\(database.path): the file renamed over it has no table \(name) with the columns shown",
                status: ExitStatus.dataError
            )
        }
        var reopened = try fresh.open(table, options: options)
        if let query { reopened.query = query }
        database = fresh
        opened = reopened
        schemaVersion = fileSchemaVersion
        return (reopened.store, reopened.readOnlyReason)
    }

    /// `o`: choose the sort among the columns, ascending or descending.
    func sortBinding() -> ListKeyBinding {
        var binding = ListKeyBinding(
            .character("o"),
            keys: "o",
            description: "choose the sort (a column, ascending or descending)"
        ) {
            [unowned self] screen in
            guard let opened = self.opened else { return }
            let keys = opened.query.columns.map(\.name)
            let first = opened.query.requestedSort.keys.first
            screen.showSortPicker(
                keys: keys,
                selected: first.flatMap { keys.firstIndex(of: $0.column) } ?? 0,
                ascending: first?.ascending ?? true
            ) { [unowned self] index, ascending, tab in
                let query = opened.query.sorted(
                    by: SortSpecification(keys: [.init(column: keys[index], ascending: ascending)])
                )
                tab.sortDescriptors = query.sortDescriptors
                self.opened?.query = query
            }
        }
        binding.helpPlacement = .section("Browse")
        return binding
    }

    /// `v`: the grid of columns, or the two-line list of the title and subtitle columns.
    func layoutBinding() -> ListKeyBinding {
        var binding = ListKeyBinding(
            .character("v"),
            keys: "v",
            description: "the grid of columns, or the two-line list (title and subtitle)"
        ) { screen in
            screen.showsGrid.toggle()
        }
        binding.helpPlacement = .section("Browse")
        return binding
    }

    /// `S`: choose the section key: none, a column, or a key derived from one.
    func sectionBinding() -> ListKeyBinding {
        var binding = ListKeyBinding(
            .character("S"),
            keys: "S",
            description: "choose the section key (a column, year(…), day(…), initial(…))"
        ) {
            [unowned self] screen in
            guard let opened = self.opened else { return }
            let choices = opened.query.sectionKeyChoices
            let titles = choices.map { $0?.keyPath ?? "none" }
            let selected = choices.firstIndex { $0 == opened.query.section } ?? 0
            screen.showSectionPicker(titles: titles, selected: selected) { [unowned self] index, tab in
                let query = opened.query.sectioned(by: choices[index])
                tab.sortDescriptors = query.sortDescriptors
                tab.sectionNameKeyPath = query.section?.keyPath
                tab.sectionIndexTitleProvider = TableListTab.indexTitle(for: query.section)
                self.opened?.query = query
            }
        }
        binding.helpPlacement = .section("Browse")
        return binding
    }

    /// `t` (or the columns sheet) gave `column` another type: a database file is never written, so
    /// the type says how the values read and which section keys `S` offers; a CSV file's cache
    /// stores the values as the type (all or nothing) on a thread of its own, the status line
    /// telling how far it is, the list refetched when it commits — refused, the column keeps its type.
    func retype(_ column: ListColumn, on screen: ListScreen) {
        guard let opened, let type = column.type, let target = ColumnTypeSpecification.target(of: type),
            let index = opened.query.columns.firstIndex(where: { $0.name == column.keyPath })
        else { return }
        let name = target.rawValue
        guard database.kind == .csv else {
            self.opened?.query.columns[index].type = type
            self.opened?.query.columns[index].typeIsChecked = false
            let file = (database.path as NSString).lastPathComponent
            screen.showMessage("\(column.name) reads as \(name); \(file) is not changed")
            return
        }
        let previous = opened.query.columns[index].type
        guard !isRetyping else {
            setType(of: column.keyPath, to: previous, on: screen)
            screen.showMessage("Another column is being re-typed: try again when it is done", style: .error)
            return
        }
        let job = CSVRetypeJob(
            databasePath: database.databasePath,
            table: opened.table.name,
            column: column.keyPath,
            to: target,
            missingValues: options.missingValues ?? CSVTableLoader.defaultMissingValues
        )
        isRetyping = true
        screen.showMessage("Re-typing \(column.name) as \(name)…", duration: 3600)
        // The thread's progress and end come back through the loop.
        let progress = loop.poster { [weak screen] (fraction: Double) in
            screen?.showMessage("Re-typing \(column.name) as \(name)… \(Int(fraction * 100)) %", duration: 3600)
        }
        let finish = loop.poster { [weak self, weak screen] (outcome: Result<CSVTableRetyping.Outcome, Error>) in
            guard let self else { return }
            self.isRetyping = false
            guard let screen else { return }
            switch outcome {
            case .success(let done):
                self.opened?.query.columns[index].type = type
                self.opened?.query.columns[index].typeIsChecked = true
                screen.showMessage(
                    "\(column.name) is \(name) now: \(done.converted) value\(done.converted == 1 ? "" : "s") stored so"
                )
            case .failure(let error):
                self.setType(of: column.keyPath, to: previous, on: screen)
                screen.showMessage("Cannot make \(column.name) \(name): \(error)", duration: 10, style: .error)
            }
        }
        job.start(progress: progress, finish: finish)
    }

    /// Gives the grid's column of `key` the type `type` again (a re-typing refused).
    private func setType(of key: String, to type: AttributeType, on screen: ListScreen) {
        guard var grid = screen.grid, let index = grid.columns.firstIndex(where: { $0.keyPath == key }) else { return }
        grid.columns[index].type = type
        screen.grid = grid
    }

    /// `s` in the grid: sections by the cursor's column (pressed on the column the list is
    /// sectioned by: no sections); the list shows its top.
    func columnSectionBinding() -> ListKeyBinding {
        var binding = ListKeyBinding(
            .character("s"),
            keys: "s",
            description: "section by the grid's column (again: no sections)"
        ) { [unowned self] screen in
            guard let opened = self.opened else { return }
            guard let column = screen.cursorColumn else {
                screen.showMessage("s sections by the grid's column under the cursor: v shows the grid")
                return
            }
            let section: SectionKeySpecification? =
                opened.query.section?.keyPath == column.keyPath ? nil : SectionKeySpecification(column: column.keyPath)
            let query = opened.query.sectioned(by: section)
            do {
                try screen.reconfigureTab { tab in
                    tab.sortDescriptors = query.sortDescriptors
                    tab.sectionNameKeyPath = query.section?.keyPath
                    tab.sectionIndexTitleProvider = TableListTab.indexTitle(for: query.section)
                    let counted = TableListTab.make(query)
                    tab.headerTitle = counted.headerTitle
                    tab.provisionalHeaderTitle = counted.provisionalHeaderTitle
                }
                self.opened?.query = query
                screen.table.scrollOffset = 0
                screen.table.selectRow(at: IndexPath(row: 0, section: 0))
                screen.showMessage(section == nil ? "No sections" : "Sections by \(column.name)")
            } catch {
                screen.showMessage("Cannot section by \(column.name): \(error)", duration: 8, style: .error)
            }
        }
        binding.helpPlacement = .sharingLine(with: "S")
        return binding
    }

    /// Runs until `q` or a termination signal, then lets go of the views.
    package func run() -> TerminalRunLoop.Exit {
        var exit = loop.run()
        // The open table's first fetch failed because another program changed or dropped the
        // table while it ran: the table list says so, as it does once a fetch is done, and the
        // browser goes on (a failure with the schema as it was ends it, with `loadError`).
        while case .quit = exit, list?.loadError != nil, schemaChangedSinceOpening {
            checkSchema()
            exit = loop.run()
        }
        while loop.pop() != nil {}
        return exit
    }

    /// Whether another program changed the file's schema since the open table's columns were read.
    var schemaChangedSinceOpening: Bool {
        guard let version = fileSchemaVersion else { return false }
        return version != schemaVersion
    }

    /// Errors that should never happen, from the list screen.
    package var log: [String] { list?.log ?? [] }

    /// `--query`: runs the query again whenever another program commits to a table it reads (on the
    /// query's thread); the list reads its result's change as any other program's writes, at once
    /// (a run that changed the result posts the list's look at its store to the loop, rather than
    /// leaving it to the list's next poll), a re-run that fails says why on the status line, and one
    /// that changed the result says when and from which change (``QuerySource/refreshedText(_:timeZone:)``).
    package func followQuery() {
        guard let source = database.querySource else { return }
        let show = loop.poster { [weak self] (message: String) in
            guard let self, let list = self.list else { return }
            list.statusLine.showMessage(message, at: self.loop.clock.now, duration: 8, style: .error)
        }
        let refreshed = loop.poster { [weak self] (refresh: QueryRefresh) in
            guard let self else { return }
            self.queries.lastRefresh = refresh
            let ownWrite = self.queries.followsOwnWrite(refresh)
            // A run that began before the last write may have taken its request: one more, after it.
            if self.queries.ownWriteSaved != nil { self.database.querySource?.live.refresh() }
            // A run that changed nothing (a poll) says nothing; one that did says when and why.
            guard !refresh.change.isEmpty, let list = self.list else { return }
            list.pollExternalChanges()
            // After a write of its own, the write's message stays (the status detail says the refresh).
            if ownWrite { return }
            list.statusLine.showMessage(QuerySource.refreshedText(refresh), at: self.loop.clock.now, duration: 8)
        }
        source.follow({ show($0) }, refreshed: { refreshed($0) })
    }
    /// Why the first fetch failed, if it did.
    package var loadError: Error? { list?.loadError }
}
