import CLIKit
import FetchedResults
import FetchedResultsUI
import Foundation
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// `fetchedtable list` over a PostgreSQL table: its rows in the formats of a SQLite file's.
extension TableListCommand {
    /// `fetchedtable list URL|--pg`: the rows in the formats a SQLite file's list prints.
    static func listPostgres(
        _ opening: PostgresOpening,
        options: TableOptions,
        format: ResultsListWriter.Format,
        output: (String) -> Void
    ) throws(FetchedTableError) -> Int32 {
        let copy = try PostgresCopy.load(opening, command: "\(ProgramName.current) list")
        let (opened, controller) = try copy.fetch(options)
        let writer = TableListCommand.makeWriter(opened, chosen: options.columns)
        do {
            try writer.write(controller, format: format, output: output)
        } catch {
            throw TableDatabase.refusal(error, path: options.file)
        }
        return ExitStatus.ok
    }
}
