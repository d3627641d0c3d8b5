import CLIKit
import FetchedResultsUI
import Foundation
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// `list`, `watch` and the browser over a PostgreSQL table.
enum PostgresFaces {
    /// `fetchedtable list URL|--pg`: the rows in the formats of the SQLite face.
    static func list(
        _ opening: PostgresOpening,
        options: TableOptions,
        format: ResultsListWriter.Format,
        output: (String) -> Void
    ) throws(FetchedTableError) -> Int32 {
        throw notYet
    }

    /// `fetchedtable watch URL|--pg`: the snapshot line, then a line per change batch.
    static func watch(
        _ opening: PostgresOpening,
        options: TableOptions,
        output: @escaping (String) -> Bool,
        shouldStop: () -> Bool,
        pollInterval: useconds_t
    ) throws(FetchedTableError) -> Int32 {
        throw notYet
    }

    /// `fetchedtable URL|--pg`: the browser (the table list first without `--table`).
    static func browse(_ options: TableOptions) throws(FetchedTableError) -> Int32 {
        let (server, opening) = try PostgresOpening.open(options, command: "")
        if let refusal = TableBrowserCommand.terminalRefusal() { throw refusal }
        let screen: CursesScreen
        do { screen = try CursesScreen() } catch {
            throw FetchedTableError(
                "cannot use the terminal: \(FetchedTableError.reason(error))",
                status: ExitStatus.failure
            )
        }
        let loop = TerminalRunLoop(screen: screen, minimumWidth: 24, minimumHeight: 8)
        let browser = PostgresBrowser(server: server, options: options, loop: loop)
        do {
            if let opening { try browser.open(opening) } else { try browser.showTableList() }
        } catch {
            screen.close()
            throw error
        }
        let exit = loop.run()
        while loop.pop() != nil {}
        screen.close()
        if let error = browser.error { throw error }
        for line in browser.log.suffix(5) { printError(line) }
        return exit.exitStatus
    }

    static let notYet = FetchedTableError(
        "browsing a PostgreSQL table's rows needs its local copy (PostgreSQLReplica), not in this build",
        status: ExitStatus.software
    )
}
