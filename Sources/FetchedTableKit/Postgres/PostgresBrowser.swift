import CLIKit
import FetchedResultsUI
import Foundation
import PostgreSQLClient
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
        let list = ChoiceListScreen(title: server.target.label, items: tables.map(PostgresBrowser.item(for:)), loop: loop)
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
            try open(PostgresOpening.open(tables[index], on: server, options: options))
        } catch {
            tableList?.statusLine.showMessage(error.message, at: loop.clock.now, duration: 8, style: .error)
        }
    }

    /// Opens the table of `opening` over what is shown.
    func open(_ opening: PostgresOpening) throws(FetchedTableError) {
        throw PostgresFaces.notYet
    }
}
