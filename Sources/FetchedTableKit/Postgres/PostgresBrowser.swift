import CLIKit
import FetchedResults
import FetchedResultsUI
import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore
import TerminalUI

/// The browser over a PostgreSQL server: without `--table`, the table list (each table
/// and view of the search path with its row count — counted when small, the planner's
/// estimate `~1.2M` when large); Enter opens one, Esc from it returns to the list. Over a
/// server's `--query` (``listQueries(of:)``), the list of its tables and queries made beneath
/// the result when the `:` line first opens a tab.
final class PostgresBrowser {
    /// The server's address.
    let target: PostgresTarget
    /// What the command line asked.
    let options: TableOptions
    /// The run loop driving the screen.
    let loop: TerminalRunLoop
    /// The table list, once shown.
    private(set) var tableList: ChoiceListScreen?
    /// The tables it lists.
    private(set) var tables: [TableDescription] = []
    /// Why the browser quit (shown once the terminal is the shell's again).
    var error: FetchedTableError?
    /// Status messages of the tables opened, for stderr at the end.
    var log: [String] = []

    /// A browser of `target`'s server on `loop`.
    init(target: PostgresTarget, options: TableOptions, loop: TerminalRunLoop) {
        self.target = target
        self.options = options
        self.loop = loop
    }

    /// Pushes the table list (read from `server` now).
    func showTableList(of server: PostgresServer) throws(FetchedTableError) {
        tables = try server.tables()
        loop.push(makeTableList())
    }

    /// The browser of a server's `--query` result, whose `:` line's tabs this browser lists
    /// after the server's tables (the result's own first); the tables opened from the list
    /// run their `:` line's queries there too.
    private(set) var queryRoot: TableBrowser?

    /// `--query`'s result (`root`): its table list — the server's tables, then `root`'s query
    /// and those run from its `:` line — made beneath it when the first of those opens, so that
    /// Esc returns to it as from a table; Enter opens a table or shows a query again.
    func listQueries(of root: TableBrowser) {
        queryRoot = root
        root.queries.onTabsChanged = { [unowned self] in self.queryTabsChanged() }
    }

    /// A query tab opened: the table list reads its lines again, or is made (``placeTableListBeneath()``).
    private func queryTabsChanged() {
        if let tableList { tableList.items = listItems } else { placeTableListBeneath() }
    }

    /// The browser whose query tabs the list shows: the `--query` result's, or the table open's.
    private var queriesShown: TableBrowser? { queryRoot ?? browser }

    /// The table list (``tableList``) of ``tables``, then the queries run.
    private func makeTableList() -> ChoiceListScreen {
        let list = ChoiceListScreen(title: target.label, items: listItems, loop: loop)
        list.onChoose = { [unowned self] index in self.openFromList(index) }
        tableList = list
        return list
    }

    /// A query tab opened over a table opened with `--table` or a `--query` result (there is no table list yet): the
    /// table list put beneath the screens shown at once, its query lines first, so that Esc from
    /// the table returns to it as without `--table`; the server's tables are read on a connection
    /// of their own, off the screen's thread, and listed before the queries when they come (when
    /// the server cannot say, the list's status line says why).
    private func placeTableListBeneath() {
        guard tableList == nil else { return }
        tables = []
        let list = makeTableList()
        loop.pushToBack(list)
        let target = self.target
        loop.perform {
            () throws(FetchedTableError) -> [TableDescription] in
            try PostgresServer.connect(target, warn: { _ in }).tables()  // warned at the start
        } then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let tables):
                self.tables = tables
                list.items = self.listItems
            case .failure(let error):
                list.statusLine.showMessage(
                    "The server's tables could not be read: \(error.message)",
                    at: self.loop.clock.now,
                    duration: 10,
                    style: .error
                )
            }
        }
    }

    /// The table list's line for `table`: its name, and "12 rows", "view · ~1.2M rows".
    static func item(for table: TableDescription) -> ChoiceListScreen.Item {
        ChoiceListScreen.Item(title: table.displayName, detail: PostgresServer.detail(of: table))
    }

    /// The table list's lines: the server's tables, then the `:` line's queries run over the
    /// table open (``TableBrowser/queryTabItems``), as a file's list shows them.
    var listItems: [ChoiceListScreen.Item] {
        tables.map(PostgresBrowser.item(for:)) + (queriesShown?.queryTabItems ?? [])
    }

    /// Enter in the table list: a query's line: its tab shown again; a table's: that table checked (and tracked with `--track`) on a connection
    /// of its own, on the requests' thread, then opened over the list; meanwhile the list says
    /// `Opening …` and answers keys. A refusal goes on its status line.
    func openFromList(_ index: Int) {
        guard let list = tableList else { return }
        if index >= tables.count {
            queriesShown?.showQueryTab(index - tables.count)
            return
        }
        let table = tables[index]
        if let stopping {
            // Opened once the copy Esc left has stopped: both would build the same file.
            list.statusLine.showMessage(
                "Opening \(table.displayName) once the copy of \(stopping.opening.table.displayName) has stopped…",
                at: loop.clock.now,
                duration: 30
            )
            openOnceStopped = index
            return
        }
        if let waiting = requests.inFlight.first {
            list.statusLine.showMessage(
                "The server has not answered \(waiting) yet",
                at: loop.clock.now,
                duration: 4,
                style: .error
            )
            return
        }
        list.statusLine.showMessage("Opening \(table.displayName)…", at: loop.clock.now, duration: 30)
        let target = self.target
        let options = self.options
        requests.run(
            "the opening of \(table.displayName)",
            {
                let server = try PostgresServer.connect(target, warn: { _ in })  // warned at the start
                server.connection.statementTimeout = PostgresServer.defaultConnectTimeout
                return try PostgresOpening.open(table, on: server, options: options)
            },
            then: { [weak self] result in
                guard let self else { return }
                switch result {
                case .success(let opening):
                    list.statusLine.showMessage(
                        opening.notices.last ?? "",
                        at: self.loop.clock.now,
                        duration: opening.notices.isEmpty ? 0 : 8
                    )
                    self.log += opening.notices
                    self.open(opening, fromList: true)
                case .failure(let error):
                    let message = (error as? FetchedTableError)?.message ?? FetchedTableError.reason(error)
                    list.statusLine.showMessage(message, at: self.loop.clock.now, duration: 8, style: .error)
                }
            }
        )
    }

    /// The table open: its copy, and the browser over the copy.
    private(set) var copy: PostgresCopy?
    private(set) var browser: TableBrowser?
    /// The changes made on the server, newest last, for `u`; those `u` undid, for Ctrl-R.
    var changes = PostgresChanges()
    /// A row added on the server that the list has not read yet: selected once it has.
    var pendingSelection: Int64?
    private let connectionState = PostgresConnectionState()
    /// Deletes, edits, added rows, undos on their way to the server.
    lazy var requests = PostgresRequests(loop: loop)

    /// The copy under way.
    private var loading: PostgresLoading?
    /// A copy Esc left, until its thread has ended: no table opens meanwhile (its file is the one a new copy makes).
    private var stopping: PostgresLoading?
    /// The line of the list Enter chose while ``stopping``: opened once it has stopped.
    private var openOnceStopped: Int?

    /// Opens the table of `opening` over what is shown: its first rows at once, copied on a
    /// thread of its own, then browsed through the copy, kept current until the browser quits.
    /// A copy that fails quits (opened from the command line) or says why in the table list.
    /// Opened from the list (`fromList`), Esc while it copies returns to the list and stops the
    /// copy (``abandon(_:)``); opened at launch (`--table`), Esc quits.
    func open(_ opening: PostgresOpening, fromList: Bool = false) {
        let loading = PostgresLoading(opening, options: options, loop: loop) { [unowned self] result, screen in
            self.loading = nil
            do throws(FetchedTableError) {
                try self.show(result.get(), opening: opening)
                // The keys typed while copying go to the list.
                screen.handOver(to: self.loop)
            } catch {
                self.loop.remove(screen)
                if let tableList = self.tableList, self.loop.contains(tableList) {
                    tableList.statusLine.showMessage(error.message, at: self.loop.clock.now, duration: 8, style: .error)
                } else {
                    self.error = error
                    self.loop.quit()
                }
            }
        }
        self.loading = loading
        if fromList {
            loading.screen.onEscape = { [unowned self, unowned loading] in self.abandon(loading) }
        } else if tableList == nil && browser == nil {
            // `--table`: nothing to go back to; Esc quits as `q` does (``stop()`` cancels the copy).
            loading.screen.onEscape = { [unowned self] in self.loop.quit() }
        }
        loading.start()
    }

    /// Esc while a table opened from the list is copied: the list shown again at once, the copy
    /// stopped (cancelled on the server; ``PostgresLoading/cancel()``) and never shown; Enter
    /// meanwhile opens its table once the copy's thread has ended.
    private func abandon(_ loading: PostgresLoading) {
        self.loading = nil
        stopping = loading
        loading.onStopped = { [unowned self] in
            self.stopping = nil
            if let index = self.openOnceStopped {
                self.openOnceStopped = nil
                self.openFromList(index)
            }
        }
        loading.cancel()
        tableList?.statusLine.showMessage(
            "Stopped opening \(loading.opening.table.displayName)",
            at: loop.clock.now,
            duration: 4
        )
    }

    /// The browser over `copy`, pushed (over the list of the same table before its columns changed, which goes).
    func show(_ copy: PostgresCopy, opening: PostgresOpening) throws(FetchedTableError) {
        self.copy?.replica.stop()
        if let old = browser?.list, loop.contains(old), self.copy?.table.source == copy.table.source {
            loop.remove(old)
        }
        var copy = copy
        // The first fetch's only: the browser keeps its configuration closure, which must not keep them.
        let presorted = PresortedHandOver(copy.presortedRows)
        copy.presortedRows = nil
        let replicaReason = copy.table.readOnlyReason
        let reason = opening.readOnlyReason ?? replicaReason
        let refusals = opening.writeRefusals
        let columns = copy.table.columns
        let browser: TableBrowser
        do {
            browser = try TableBrowser(
                database: copy.database(options),
                options: copy.localOptions(options),
                loop: loop,
                previewsFirstPage: false
            ) { [unowned self] configuration in
                configuration.title = opening.table.displayName
                configuration.readOnlyReason = reason
                configuration.delete = { [unowned self] row, actionName in
                    try self.startDelete(row, actionName: actionName)
                }
                configuration.deleteIsAnsweredLater = true
                configuration.deleteRefusal = refusals.delete
                // e and a write the server's table (the copy follows), never the copy itself.
                self.configureEdits(&configuration, table: opening.table, refusals: refusals)
                configuration.keyBindings.removeAll { $0.events.contains(.character("a")) }
                configuration.keyBindings.append(
                    self.addRowBinding(opening, columns: columns, refusal: refusals.insert)
                )
                configuration.keyBindings.append(self.undoBinding())
                configuration.keyBindings.append(self.redoBinding())
                configuration.presortedRows = presorted.take()
                self.defersPreparationForChanges(&configuration)
            }
        } catch let error as FetchedTableError {
            throw error
        } catch {
            throw TableDatabase.refusal(error, path: options.file)
        }
        // The `:` line queries the server, not the copy; its tabs are listed after the server's
        // tables, those run over the table open before kept.
        browser.queries.server = copy.target
        if let queryRoot {
            // Over a `--query` result: its `:` line and its tabs.
            browser.queries.root = queryRoot
        } else {
            if let old = self.browser {
                browser.queries.tabs = old.queries.tabs
                for tab in old.queries.tabs { tab.browser.queries.root = browser }
            }
            browser.queries.onTabsChanged = { [unowned self] in self.queryTabsChanged() }
        }
        self.copy = copy
        self.browser = browser
        changes = PostgresChanges()
        // The follower's thread posts what the browser shows: the server's reachability, and
        // the batches it applied (from the first large one, the list's polls wait for the prefixes).
        let showStatus = loop.poster { [weak self] (status: ReplicaStatus) in self?.showConnectionState(status) }
        let noteApplied = loop.poster { [weak self] (batch: ReplicaBatch) in self?.noteApplied(batch) }
        copy.replica.follow(track: options.track, status: { status in showStatus(status) }) { batch in
            noteApplied(batch)
        }
    }

    /// What is handed to the first fetch once, then let go of.
    private final class PresortedHandOver {
        private var rows: PresortedRows?
        init(_ rows: PresortedRows?) { self.rows = rows }
        func take() -> PresortedRows? {
            defer { rows = nil }
            return rows
        }
    }

    /// The copy's list builds the sort-key prefixes change sets need (24 bytes a row) only once
    /// the server has sent a change: a batch of a few rows is placed without them (and starts
    /// their build in the background); from the first larger batch the follower applied, polls
    /// wait (keys answered) until they are built, so that the pass over the rows does not run
    /// on the screen's thread.
    private func defersPreparationForChanges(_ configuration: inout ListScreenConfiguration) {
        for index in configuration.tabs.indices { configuration.tabs[index].defersPreparationForChanges = true }
        configuration.willPoll = { [unowned self] screen in
            if let rowID = self.pendingSelection, let adapter = screen.adapter,
                adapter.select(ObjectID(entity: screen.tab.entity, rowID: rowID))
            {
                self.pendingSelection = nil
            }
            guard self.batchNeedsPrefixes, let controller = screen.adapter?.controller else { return true }
            controller.defersPreparationForChanges = false
            controller.startInBackground(.prepareForChanges)
            return !controller.backgroundWork.contains(.prepareForChanges)
        }
    }

    /// `d` confirmed: the row deleted on the server (one transaction) on the writing thread,
    /// then from the copy, which the list reads as one batch — the row stays on screen
    /// until the server has said yes. A refusal (a constraint, a lost connection) is said in
    /// the status line and the row stays. While an earlier write awaits its answer, refused.
    func startDelete(_ row: ManagedObject, actionName: String) throws {
        guard let copy else { return }
        let name = browser?.list?.tab.objectName(row) ?? "the row"
        if let waiting = requests.inFlight.first {
            throw FetchedTableError("the server has not answered \(waiting) yet", status: 1)
        }
        let id = row.objectID
        let replica = copy.replica
        requests.run("the delete of \(name)", { try replica.delete(rowIDs: [id.rowID]) }) { [weak self] result in
            self?.browser?.list?.deleteAnswered(row: id)
            self?.finishDelete(result, name: name, actionName: actionName, copy: copy)
        }
    }

    /// The server's answer to a delete, in the status line.
    private func finishDelete(
        _ result: Result<[DeletedRow], any Error>,
        name: String,
        actionName: String,
        copy: PostgresCopy
    ) {
        switch result {
        case .success(let rows) where rows.isEmpty:
            show("Could not delete \(name): another client deleted it first", error: true)
        case .success(let rows):
            changes.did(actionName, .deleted(rows))
            show("\(actionName) — u to undo", error: false)
        case .failure(let error):
            show("Could not delete \(name): \(PostgresBrowser.reason(error, copy: copy))", error: true)
        }
    }

    /// `u`: the last change made on the server undone there (one transaction) on the writing
    /// thread, then in the copy — a delete's rows written back, an added row deleted, an edited
    /// cell given its value back (only over the value the edit wrote: another session's later
    /// value is a conflict, kept); said in the status line once the server answers.
    func undoBinding() -> ListKeyBinding {
        var binding = ListKeyBinding(.character("u"), keys: "u", description: "undo the last change (on the server)") {
            [unowned self] screen in
            self.step(.undo, on: screen)
        }
        binding.helpPlacement = .section("Change")
        return binding
    }

    /// Ctrl-R: the change `u` last undid made again on the server, as `u` undoes.
    func redoBinding() -> ListKeyBinding {
        var binding = ListKeyBinding(.control("r"), keys: "Ctrl-R", description: "redo what u undid (on the server)") {
            [unowned self] screen in
            self.step(.redo, on: screen)
        }
        binding.helpPlacement = .section("Change")
        return binding
    }

    /// `u` or Ctrl-R: the newest change of that stack inverted on the server, off the UI thread.
    private func step(_ direction: PostgresChanges.Direction, on screen: ListScreen) {
        guard let copy = self.copy else { return }
        let verb = direction == .undo ? "undo" : "redo"
        if let reason = screen.configuration.readOnlyReason {
            screen.showMessage(
                "\(verb.prefix(1).uppercased() + verb.dropFirst()) is disabled: \(reason)",
                style: .error
            )
            return
        }
        if let waiting = self.requests.inFlight.first {
            screen.showMessage("Could not \(verb): the server has not answered \(waiting) yet", style: .error)
            return
        }
        guard let last = changes.take(direction) else {
            screen.showMessage("Nothing to \(verb)")
            return
        }
        screen.showMessage("\(direction == .undo ? "Undoing" : "Redoing"): \(last.name)…", duration: 8)
        let replica = copy.replica
        let change = last.change
        requests.run("the \(verb) of \(last.name)", { try change.inverted(on: replica) }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let inverse):
                self.changes.stepped(direction, last.name, inverse)
                self.show("\(direction == .undo ? "Undone" : "Redone"): \(last.name)", error: false)
                if let rowID = inverse.rowIDs.first { self.select(rowID) }
            case .failure(let error):
                // Another session's change is kept, and so is theirs on the next u: this one is dropped.
                if case ReplicaError.conflict = error {} else { self.changes.putBack(direction, last) }
                self.show("Could not \(verb): \(PostgresBrowser.reason(error, copy: copy))", error: true)
            }
        }
    }

    /// A write's failure as the user reads it in the status line: the server's words on one
    /// line (not naming the server, which the title does), no password.
    static func reason(_ error: any Error, copy: PostgresCopy) -> String {
        switch error {
        case ReplicaError.server(let error): PostgresServer.oneLine(copy.target.redacted(refusalText(error)))
        case let error as ReplicaError: PostgresCopy.refusal(error, target: copy.target).message
        case let error as FetchedTableError: error.message
        default: copy.target.redacted(FetchedTableError.reason(error))
        }
    }

    /// The server's refusal of a write: what kind of refusal its SQLSTATE says — `not a value of
    /// its type`, `NOT NULL`, `CHECK`, `UNIQUE`, `FOREIGN KEY`, `no privilege`, `the server's disk
    /// is full`, `another transaction got in the way; try again` — first (a long message is cut at
    /// the screen's edge), then the server's message, which names the constraint or the file; the
    /// bare code when the kind is none of those.
    static func refusalText(_ error: PostgresError) -> String {
        guard case .statementFailed(let state, let message, _) = error else { return error.description }
        let kinds = [
            "22P02": "not a value of its type", "22003": "a number out of range", "22007": "not a date or time",
            "22008": "a date or time out of range", "22001": "too long for the column", "23502": "NOT NULL",
            "23514": "CHECK", "23505": "UNIQUE", "23503": "FOREIGN KEY", "42501": "no privilege",
            "53100": "the server's disk is full", "53200": "the server is out of memory",
            "40001": "another transaction got in the way; try again",
            "40P01": "a deadlock with another transaction; try again",
        ]
        guard let kind = kinds[state] else { return error.description }
        return "\(kind) — \(message)"
    }

    /// `text` in the open table's status line (an error for 8 seconds).
    private func show(_ text: String, error: Bool) {
        guard let list = browser?.list else { return }
        list.showMessage(text, duration: 8, style: error ? .error : .info)
    }

    /// The follower's news (posted by its thread): while the list is not kept current, why, in
    /// the status line — `Reconnecting… (Ns since last contact): <the last error>` while the
    /// server does not answer, the seconds counted on the screen's clock; `The server refuses: …
    /// — <what to do>` while it answers no — and `Connected again` once it answers; while the
    /// rows cannot be followed, `Not live: …; checked Ns ago` when no other message shows (on
    /// the same clock); the history removed under the follower, once. A table whose columns
    /// changed on the server is copied again.
    func showConnectionState(_ status: ReplicaStatus) {
        if case .tableChanged(let reason) = status {
            connectionState.record(status)
            stopReconnectingClock()
            reopenChangedTable(reason: reason)
            return
        }
        let wasOutOfReach = PostgresConnectionState.statusText(connectionState.current) != nil
        guard connectionState.record(status) else { return }
        stopReconnectingClock()
        if let notice = connectionState.takeNotice() {
            browser?.list?.showMessage(notice, duration: 8)
            return
        }
        if case .notLive = status {
            if wasOutOfReach { browser?.list?.showMessage("Connected again", duration: 3) }
            showNotLive()
            // A clock on the screen (the seconds since the last copy), not a poll: the follower posts each copy.
            reconnectingClock = loop.addTicker(every: 0.5) { [weak self] _ in self?.showNotLive() }
            return
        }
        guard PostgresConnectionState.statusText(status) != nil else {
            browser?.list?.showMessage("Connected again", duration: 3)
            return
        }
        let showTime = { [weak self] in
            guard let list = self?.browser?.list, let text = PostgresConnectionState.statusText(status) else { return }
            list.showMessage(text, duration: 1, style: .error)
        }
        showTime()
        // A clock on the screen (the seconds since the server last answered), not a poll.
        reconnectingClock = loop.addTicker(every: 0.5) { _ in showTime() }
    }
    /// Counts the seconds of `Reconnecting…` while the server is out of reach, or of `Not live: …`.
    private var reconnectingClock: TerminalRunLoop.TickerID?

    /// `Not live: …; checked Ns ago` of the latest status (the follower records each copy's
    /// time), unless another message shows.
    private func showNotLive() {
        guard let list = browser?.list, let text = PostgresConnectionState.notLiveText(connectionState.current)
        else { return }
        let showing = list.statusLine.message(at: loop.clock.now)?.text
        if showing == nil || showing?.hasPrefix("Not live: ") == true { list.showMessage(text, duration: 1) }
    }

    private func stopReconnectingClock() {
        if let clock = reconnectingClock { loop.removeTicker(clock) }
        reconnectingClock = nil
    }

    /// A batch the follower applied to the copy: from the first one the list places with its
    /// sort-key prefixes (more rows than it places without them), its polls wait for them.
    private func noteApplied(_ batch: ReplicaBatch) {
        let rows = batch.inserted + batch.updated + batch.deleted
        if batch.isRefetch || rows > FetchedResultsController.keylessChangeLimit { batchNeedsPrefixes = true }
    }
    /// Whether the follower has applied a batch that needs the list's sort-key prefixes.
    private var batchNeedsPrefixes = false
    /// The table whose columns changed, while it is being opened again.
    private var reopening: String?

    /// The open table's columns changed on the server (a column renamed, added, dropped): it is
    /// checked against the options again and copied again with its new shape, as a table opened
    /// from the list; the old list stays, saying so, until the new one is shown — or says why not.
    private func reopenChangedTable(reason: String) {
        guard reopening == nil, let current = copy, let list = browser?.list else { return }
        let name = current.table.source.description
        reopening = name
        current.replica.stop(waiting: false)
        list.showMessage("\(reason): copying it again…", duration: 30)
        let target = self.target
        let options = self.options
        let tableName = current.table.source
        requests.run(
            "the new columns of \(name)",
            {
                let server = try PostgresServer.connect(target, warn: { _ in })
                server.connection.statementTimeout = PostgresServer.defaultConnectTimeout
                let table = try server.table(named: tableName.quoted)
                return try PostgresOpening.open(table, on: server, options: options)
            },
            then: { [weak self] result in
                guard let self else { return }
                self.reopening = nil
                switch result {
                case .success(let opening):
                    self.connectionState.record(.live)
                    self.open(opening)
                case .failure(let error):
                    let message = (error as? FetchedTableError)?.message ?? FetchedTableError.reason(error)
                    self.showConnectionState(
                        .refused(
                            since: Date(),
                            reason: "\(reason), and \(message)",
                            advice: "reopen it with other options"
                        )
                    )
                }
            }
        )
    }

    /// Stops following the server (the browser quit), without waiting for a server that does not
    /// answer; a copy under way (or one Esc left) is cancelled on the server first and waited for,
    /// two seconds at most, so that no statement of the program's outlives it.
    func stop() {
        for copying in [loading, stopping].compactMap(\.self) { copying.stopBeforeExit(waitingUpTo: 2) }
        copy?.replica.stop(waiting: false)
    }
}
