import FetchedResultsUI
import Foundation
import PostgreSQLClient
import SQLiteStore
import TerminalUI

/// The queries run from the browser's `:` line, each a tab beside the file's tables.
final class QueryTabs {
    /// The browser whose `:` line and tabs these are (a query tab's own browser: the one it was run from).
    weak var root: TableBrowser?
    /// The queries run before (read when the line first opens).
    var history: QueryHistory?
    /// Where the history is kept (``QueryHistory/standardPath(environment:)``; a test's own file).
    var historyPath = QueryHistory.standardPath()
    /// The queries run, in order: their browsers.
    var tabs: [QueryTab] = []
    /// The first run under way, if one is.
    var running: QueryLoading?
    /// A query tab's last refresh (its own browser's).
    var lastRefresh: QueryRefresh?
    /// When the browser's last write of its own (`d`, `e`, `a`, `u`, Ctrl-R on the result) was
    /// saved, until a run of the query that began after it (``followsOwnWrite(_:)``).
    var ownWriteSaved: Date?
    /// Whether `refresh` follows a write of the browser's own: one saved since the last run that
    /// began after one. Its status message is not said over the write's ("… — u to undo", "Redone: …").
    /// Counted by when the runs began, not one by one: a run under way when the next write is saved
    /// (Ctrl-R pressed while `u`'s run is on) follows the first, and the run after it the second.
    func followsOwnWrite(_ refresh: QueryRefresh) -> Bool {
        guard let saved = ownWriteSaved else { return false }
        if refresh.date.addingTimeInterval(-refresh.seconds) >= saved { ownWriteSaved = nil }
        return true
    }

    /// The server the `:` line's queries run on when the browser shows a copy of one of its
    /// tables (``TableBrowser/queryServer``).
    var server: PostgresTarget?
    /// The server's tables and their columns, for Tab (read once, in the background).
    var serverNames: [String: [String]]?
    /// A tab was added: a list of them kept elsewhere (a server's table list) reads them again.
    var onTabsChanged: (() -> Void)?

    /// A query run from the line: its number (`:1`), its title, its browser.
    struct QueryTab {
        let title: String
        let browser: TableBrowser
    }

    /// ":1 SELECT s.subject, count(*) …": the tab's number and the query on one line, at most 40 characters.
    static func title(number: Int, sql: String) -> String {
        let head = ":\(number) "
        return head + QuerySource.title(of: sql, limit: 40 - head.count)
    }
}

extension TableBrowser {
    /// `:`: the query line, over the screen shown.
    func queryBinding() -> ListKeyBinding {
        var binding = ListKeyBinding(
            .character(":"),
            keys: ":",
            description: "run a query (↑/↓ history, Tab names): its rows in a new tab"
        ) { [unowned self] _ in
            self.queryRoot.beginQuery()
        }
        binding.helpPlacement = .section("Browse")
        return binding
    }

    /// The browser that holds the `:` line and the query tabs.
    var queryRoot: TableBrowser { queries.root ?? self }

    /// The SQLite file a query reads: the file's database (a CSV file's cache), or the file a `--query` reads.
    var queryFile: String { database.querySource?.databasePath ?? database.databasePath }

    /// The PostgreSQL server a query reads, when the browser shows a server's table (its copy)
    /// or a server query's result (nil: ``queryFile``).
    var queryServer: PostgresTarget? { queries.server ?? options.postgres }

    /// Opens the `:` line (with `text`, `error` under it at character `offset`).
    func beginQuery(text: String = "", error: String? = nil, offset: Int? = nil) {
        if queries.running != nil { return }
        if queries.history == nil { queries.history = QueryHistory(path: queries.historyPath) }
        let line = QueryLine(history: queries.history!, completion: queryCompletion(), text: text)
        if let error { line.showError(error, text: text, offset: offset) }
        line.onRun = { [unowned self, unowned line] sql in self.runQuery(sql, from: line) }
        loop.push(line)
        if let server = queryServer, queries.serverNames == nil { readServerNames(server) }
    }

    /// The names Tab completes: the tables of the file queried and their columns (a server's:
    /// as read by ``readServerNames(_:)``, none until then).
    func queryCompletion() -> QueryCompletion {
        if queryServer != nil { return QueryCompletion(tables: queries.serverNames ?? [:]) }
        var tables: [CatalogTable] = database.tables
        if database.querySource != nil {
            tables = (try? DatabaseCatalog(path: queryFile, tracking: TableFileNames.tracking))?.tables ?? []
        }
        var names: [String: [String]] = [:]
        for table in tables where table.name != Store.metadataTable {
            names[table.name] = table.columns.map(\.name)
        }
        return QueryCompletion(tables: names)
    }

    /// A server's tables and their columns (``Catalog/tables(on:)``), read on a thread of its own
    /// and given to the `:` line (the open one, and the next ones); none when the server cannot say.
    func readServerNames(_ server: PostgresTarget) {
        queries.serverNames = [:]
        let give = loop.poster { [weak self] (names: [String: [String]]) in
            guard let self else { return }
            self.queries.serverNames = names
            if let line = self.loop.topView as? QueryLine { line.completion = QueryCompletion(tables: names) }
        }
        let thread = Thread {
            var names: [String: [String]] = [:]
            let tables = (try? PostgresServer.connect(server, warn: { _ in }).tables()) ?? []
            for table in tables where names[table.displayName] == nil {
                names[table.displayName] = table.columns.map(\.name)
            }
            give(names)
        }
        thread.start()
    }

    /// Enter on the line: the query kept in the history, given the launch's `--param` values of the
    /// parameters it names (``QuerySource/lineParameters(_:named:)``), checked — on the file, or on the server
    /// (``queryServer``: read-only, with the statement timeout, as `--query`; off the screen's
    /// thread, ``checkOnServer(_:server:from:)``) — refused: the line says why and where; run with
    /// its progress shown (Esc: the line again, "cancelled"), then its tab opened, live.
    func runQuery(_ sql: String, from line: QueryLine) {
        if let failure = line.history.record(sql) {
            list?.statusLine.showMessage("history not kept: \(failure)", at: loop.clock.now, duration: 8)
        }
        queries.history = line.history
        if let server = queryServer {
            checkOnServer(sql, server: server, from: line)
            return
        }
        let source: QuerySource
        do {
            source = try QuerySource.prepareForLine(sql: sql, file: queryFile, launch: options.parameters)
        } catch {
            let (message, offset) = TableBrowser.queryError(error)
            line.showError(message, text: sql, offset: offset)
            return
        }
        launchQuery(source, sql: sql, from: line)
    }

    /// A server's query checked there (connected, described, explained: ``QuerySource/prepare(sql:server:parameters:key:statementTimeout:warn:)``)
    /// on a thread of its own, the line saying "Checking on the server…" meanwhile (Esc: the check
    /// abandoned, the line kept with its text; the source it makes, if it comes, dropped); then
    /// refused on the line, or launched.
    func checkOnServer(_ sql: String, server: PostgresTarget, from line: QueryLine) {
        let statementTimeout = options.statementTimeout
        let launch = options.parameters
        let check = line.beginChecking("Checking on the server…  Esc stop")
        loop.perform {
            try QuerySource.prepareForLine(sql: sql, server: server, launch: launch, statementTimeout: statementTimeout)
        } then: { [weak self, weak line] result in
            guard let self, let line, line.checking == check, self.loop.contains(line) else { return }
            line.endChecking()
            switch result {
            case .success(let source):
                self.launchQuery(source, sql: sql, from: line)
            case .failure(let error):
                let (message, offset) = TableBrowser.queryError(error, server: server)
                line.showError(message, text: sql, offset: offset)
            }
        }
    }

    /// A checked query's first run, its loading screen in place of the line; refused or failed
    /// there: the line again, saying why.
    func launchQuery(_ source: QuerySource, sql: String, from line: QueryLine) {
        let server = queryServer
        loop.remove(line)
        let title = QueryTabs.title(number: queries.tabs.count + 1, sql: sql)
        source.title = title
        let loading = QueryLoading(source: source, title: title, loop: loop)
        queries.running = loading
        loading.onCancel = { [unowned self] in
            self.queries.running = nil
            self.beginQuery(text: sql, error: "cancelled")
        }
        loading.onFinish = { [unowned self] result in
            self.queries.running = nil
            do {
                try result.get()
                try self.openQueryTab(source, title: title)
            } catch {
                let (message, offset) = TableBrowser.queryError(error, server: server)
                self.beginQuery(text: sql, error: message, offset: offset)
            }
        }
        loading.start()
    }

    /// The query's result in a browser of its own, over the screen the query was run from,
    /// followed; listed in the table list after the tables (made beneath the table when it was
    /// opened without one: ``placeTableListBeneath()``).
    func openQueryTab(_ source: QuerySource, title: String) throws {
        var options = TableOptions(file: database.path)
        options.query = source.live.sql
        options.animated = self.options.animated
        options.readOnly = true
        // The file's own refusal (--read-only, a CSV file's cache), not another query's.
        let fileRefusal =
            database.querySource.map { $0.fileRefusal ?? (self.options.readOnly ? "opened with --read-only" : nil) }
            ?? database.readOnlyReason
        let result = try TableDatabase.queryResult(source, path: database.path, writeRefusal: fileRefusal)
        let browser = try TableBrowser(database: result, options: options, loop: loop) { configuration in
            configuration.title = title
        }
        browser.queries.root = self
        browser.followQuery()
        queries.tabs.append(QueryTabs.QueryTab(title: title, browser: browser))
        tableList?.items = tableListItems
        placeTableListBeneath()
        queries.onTabsChanged?()
    }

    /// The table list's lines: the tables, then the queries run (``queryTabItems``).
    var tableListItems: [ChoiceListScreen.Item] { listedTables.map(TableBrowser.item(for:)) + queryTabItems }

    /// The queries shown, in the table list's order: `--query`'s own result first (this
    /// browser's, titled by its words), then those run from the `:` line.
    var listedQueries: [QueryTabs.QueryTab] {
        guard queries.root == nil, let source = database.querySource else { return queries.tabs }
        return [QueryTabs.QueryTab(title: source.title, browser: self)] + queries.tabs
    }

    /// The queries shown, a table list's line each (":1 SELECT …", "query · 12 rows"): after the
    /// file's tables, or a server's (``QueryTabs/onTabsChanged``).
    var queryTabItems: [ChoiceListScreen.Item] {
        listedQueries.map { tab in
            let count = tab.browser.list.map { TableBrowser.rowCountText($0.context.countOrZero(tab.browser)) }
            return ChoiceListScreen.Item(title: tab.title, detail: "query · \(count ?? "…")")
        }
    }

    /// Enter on a query's line of the table list: its tab shown again.
    func showQueryTab(_ index: Int) {
        let shown = listedQueries
        guard shown.indices.contains(index), let list = shown[index].browser.list else { return }
        if !loop.contains(list) { loop.push(list) }
    }

    /// What the line says of a query that cannot run, and where (a character of the query):
    /// SQLite's words, "at column N"; a server's (`server`), "at character N" as PostgreSQL counts.
    static func queryError(_ error: Error, server: PostgresTarget? = nil) -> (message: String, offset: Int?) {
        switch error {
        case let refusal as QueryRefusal:
            let place = refusal.offset.map { " (at \(server == nil ? "column" : "character") \($0 + 1))" } ?? ""
            return (refusal.message + place, refusal.offset)
        case let error as SQLiteError:
            return (error.message, nil)
        case let error as PostgresError:
            return (PostgresServer.refusal(error, target: server ?? PostgresTarget(connectionString: nil)).message, nil)
        case let error as FetchedTableError:
            return (error.message, nil)
        default:
            return (FetchedTableError.reason(error), nil)
        }
    }

    /// The table a `.sqlite` save of a query's rows (Ctrl-S) offers: the one table the query
    /// reads and `_query` (`orders_query`), else `query_` and its tab's number (`query_1` for
    /// `:1 …`), `query` for `--query`'s rows.
    static func saveTableName(of source: QuerySource) -> String {
        if source.live.readTables.count == 1, let table = source.live.readTables.first {
            // A server's `public.orders`, `"Order Lines"`: the table's own name, in plain characters.
            let name = String(table.split(separator: ".").last ?? "").filter {
                $0.isASCII && ($0 == "_" || $0.isLetter || $0.isNumber)
            }
            if let first = name.first, !first.isNumber, !name.lowercased().hasPrefix("sqlite_") {
                return name + "_query"
            }
        }
        let number = source.title.hasPrefix(":") ? source.title.dropFirst().prefix(while: \.isNumber) : ""
        return number.isEmpty ? "query" : "query_\(number)"
    }

    /// What the status line keeps saying of a query tab's rows once a re-run brought them up to
    /// date: "refreshed 12:03:41 after a change to orders: 1 updated" (``QuerySource/refreshedText(_:timeZone:)``).
    var queryStatusDetail: String? { queries.lastRefresh.map { QuerySource.refreshedText($0) } }
}

extension ObjectContext {
    /// The rows of `browser`'s open table (0 when they cannot be counted).
    fileprivate func countOrZero(_ browser: TableBrowser) -> Int {
        browser.opened.flatMap { try? count($0.table.name) } ?? 0
    }
}
