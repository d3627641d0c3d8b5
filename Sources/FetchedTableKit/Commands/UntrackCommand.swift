import CLIKit
import SQLiteStore

/// `fetchedtable untrack FILE`: removes the `fetchedtable_history` table and the
/// triggers `--track` installed (``Store/removeTracking()``); the file is otherwise
/// left as it was. A file without them is left untouched (status 0).
///
/// `fetchedtable untrack URL|--pg [--table NAME]`: removes what `--track` made for that
/// server table — its triggers and history rows, and the `fetchedtable_history` table and
/// its functions once no other table uses them (``PostgresServer/removeTracking(on:)``).
/// Sessions following the table with `--track` are woken, copy it again and poll it from
/// then on: they do not install the triggers again.
///
///     UntrackCommand.run(["events.sqlite"])
///     UntrackCommand.run(["--pg", "--table", "events"])
package enum UntrackCommand {
    /// Runs the subcommand with `arguments` (after `untrack`); returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        run(arguments, output: { print($0) }, errorOutput: { writeStandardError($0 + "\n") })
    }

    /// The same with the output and messages going to closures, for tests.
    static func run(_ arguments: [String], output: (String) -> Void, errorOutput: (String) -> Void) -> Int32 {
        FetchedTableCommand.run(
            spec: TableOptions.untrackSpec,
            arguments: arguments,
            help: output,
            errorOutput: errorOutput
        ) { parsed in
            let options = try TableOptions(parsed)
            if let target = options.postgres {
                let server = try PostgresServer.connect(target)
                guard let table = try server.soleTable(options.table, command: "fetchedtable untrack") else {
                    return ExitStatus.usage
                }
                let untracked = try server.removeTracking(on: table).map(\.displayName).joined(separator: ", ")
                let view = table.kind == .view
                output(
                    "untrack: \(view ? "the tables of \(table.displayName) (\(untracked)) have" : "\(untracked) has") "
                        + "no fetchedtable_history triggers now; fetchedtable sessions following \(view ? "them" : "it") "
                        + "copy again and poll from now on (they do not install the triggers again)"
                )
                return ExitStatus.ok
            }
            let path = options.file
            guard try TableFileKind.of(path: path) == .sqlite else {
                throw FetchedTableError.data("\(path): not a SQLite database (a CSV file has no triggers to remove)")
            }
            do {
                let store = try Store(
                    foreignDatabaseAt: path,
                    model: Model(version: 1, applicationID: 0, entities: []),
                    readOnly: false,
                    tracking: TableFileNames.tracking
                )
                try store.removeTracking()
            } catch {
                throw TableDatabase.refusal(error, path: path)
            }
            output("untrack: \(path) has no fetchedtable_history table or triggers now")
            return ExitStatus.ok
        }
    }
}
