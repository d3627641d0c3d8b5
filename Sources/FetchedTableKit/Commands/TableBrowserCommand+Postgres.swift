import CLIKit
import FetchedResults
import FetchedResultsUI
import Foundation
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// `fetchedtable URL|--pg`: the browser over a PostgreSQL server (its table list, or one table).
extension TableBrowserCommand {
    /// `fetchedtable URL|--pg`: the browser (the table list first without `--table`).
    static func browsePostgres(_ options: TableOptions) throws(FetchedTableError) -> Int32 {
        let (server, opening) = try PostgresOpening.open(options, command: "")
        let screen = try TableBrowserCommand.openTerminal()
        let loop = TerminalRunLoop(backend: screen, minimumWidth: 24, minimumHeight: 8)
        let browser = PostgresBrowser(target: server.target, options: options, loop: loop)
        do {
            if let opening { browser.open(opening) } else { try browser.showTableList(of: server) }
        } catch {
            screen.close()
            throw error
        }
        let exit = loop.run()
        browser.stop()
        while loop.pop() != nil {}
        screen.close()
        if let error = browser.error { throw error }
        for line in (browser.log + PostgresNoticeLog.shared.take()).suffix(5) { printError(line) }
        return exit.exitStatus
    }
}
