import CLIKit
import FetchedResultsUI
import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import TerminalUI

/// The browser over a PostgreSQL server: without `--table`, the table list (each table
/// and view of the search path with its row count — counted when small, the planner's
/// estimate `~1.2M` when large); Enter opens one, Esc from it returns to the list.
final class PostgresBrowser {
    /// The server.
    let server: PostgresServer
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

    /// A browser of `server` on `loop`.
    init(server: PostgresServer, options: TableOptions, loop: TerminalRunLoop) {
        self.server = server
        self.options = options
        self.loop = loop
    }

    /// Pushes the table list (read from the server now).
    func showTableList() throws(FetchedTableError) {
        tables = try server.tables()
        let list = ChoiceListScreen(
            title: server.target.label,
            items: tables.map(PostgresBrowser.item(for:)),
            loop: loop
        )
        list.onChoose = { [unowned self] index in self.openFromList(index) }
        tableList = list
        loop.push(list)
    }

    /// The table list's line for `table`: its name, and "12 rows", "view · ~1.2M rows".
    static func item(for table: TableDescription) -> ChoiceListScreen.Item {
        ChoiceListScreen.Item(title: table.displayName, detail: PostgresServer.detail(of: table))
    }

    /// Enter in the table list: opens that table over it (a refusal goes on its status line).
    func openFromList(_ index: Int) {
        do {
            open(try PostgresOpening.open(tables[index], on: server, options: options))
        } catch {
            tableList?.statusLine.showMessage(error.message, at: loop.clock.now, duration: 8, style: .error)
        }
    }

    /// The table open: its copy, and the browser over the copy.
    private(set) var copy: PostgresCopy?
    private(set) var browser: TableBrowser?
    /// The rows of each delete, newest last, for `u` (restored on the server).
    private var deleted: [(name: String, rows: [DeletedRow])] = []
    private let connectionState = PostgresConnectionState()

    /// The copy under way.
    private var loading: PostgresLoading?

    /// Opens the table of `opening` over what is shown: its first rows at once, copied on a
    /// thread of its own, then browsed through the copy, kept current until the browser quits.
    /// A copy that fails quits (opened from the command line) or says why in the table list.
    func open(_ opening: PostgresOpening) {
        let loading = PostgresLoading(opening, options: options, loop: loop) { [unowned self] result, screen in
            self.loading = nil
            do throws(FetchedTableError) {
                try self.show(result.get(), opening: opening)
                self.loop.remove(screen)
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
        loading.start()
    }

    /// The browser over `copy`, pushed.
    func show(_ copy: PostgresCopy, opening: PostgresOpening) throws(FetchedTableError) {
        self.copy?.replica.stop()
        let replicaReason = copy.table.readOnlyReason
        let reason = opening.readOnlyReason ?? replicaReason
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
                    try self.deleteOnServer(row.objectID.rowID, actionName: actionName)
                }
                configuration.keyBindings.append(self.undoBinding())
            }
        } catch let error as FetchedTableError {
            throw error
        } catch {
            throw TableDatabase.refusal(error, path: options.file)
        }
        self.copy = copy
        self.browser = browser
        deleted = []
        let state = connectionState
        copy.replica.follow(track: options.track) { status in state.record(status) }
        loop.addTicker(every: 0.25) { [weak self] _ in self?.showConnectionState() }
    }

    /// `d` confirmed: the row deleted on the server (one transaction), then from the copy,
    /// which the list reads as one batch. A refusal (a constraint, a lost connection) is thrown:
    /// the list says so and the row stays.
    func deleteOnServer(_ rowID: Int64, actionName: String) throws {
        guard let copy else { return }
        let rows = try copy.replica.delete(rowIDs: [rowID])
        guard !rows.isEmpty else { throw FetchedTableError("another client deleted it first", status: 1) }
        deleted.append((actionName, rows))
    }

    /// `u`: the last delete's rows written back to the server (one transaction), then to the copy.
    func undoBinding() -> ListKeyBinding {
        var binding = ListKeyBinding(.character("u"), keys: "u", description: "undo the last delete (on the server)") {
            [unowned self] screen in
            guard let copy = self.copy else { return }
            if let reason = screen.configuration.readOnlyReason {
                screen.showMessage("Undo is disabled: \(reason)", style: .error)
                return
            }
            guard let last = self.deleted.popLast() else {
                screen.showMessage("Nothing to undo")
                return
            }
            do {
                try copy.replica.restore(last.rows)
                screen.showMessage("Undone: \(last.name)")
            } catch {
                self.deleted.append(last)
                screen.showMessage("Could not undo: \(error)", duration: 8, style: .error)
            }
        }
        binding.helpPlacement = .section("Change")
        return binding
    }

    /// While the server cannot be reached: `Reconnecting… (Ns since last contact)` in the status line.
    func showConnectionState() {
        guard let list = browser?.list else { return }
        if let text = PostgresConnectionState.statusText(connectionState.current) {
            list.showMessage(text, duration: 0.5, style: .error)
            reconnecting = true
        } else if reconnecting {
            reconnecting = false
            list.showMessage("Connected again", duration: 3)
        }
    }
    private var reconnecting = false

    /// Stops following the server (the browser quit).
    func stop() { copy?.replica.stop() }
}
