import BulkImport
import CLIKit

/// `fetchedtable complete-tables FILE`: the names of FILE's tables and views, one per line,
/// for the shells' completion of `--table` (hidden from help).
///
/// A SQLite file's catalog is read without writing anything; a CSV file's one table is
/// named without loading the file. A file that is neither prints nothing (and its status).
///
///     CompleteTablesCommand.run(["school.sqlite"])   // "student\nsubject\n"
package enum CompleteTablesCommand {
    static let spec = CommandSpec(
        name: "fetchedtable complete-tables",
        summary: "Print the names of FILE's tables and views, one per line (for shell completion).",
        usage: "FILE",
        options: [],
        minPositionals: 1,
        maxPositionals: 1
    )

    /// Runs the subcommand with `arguments` (after `complete-tables`); returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        run(arguments, output: { print($0) }, errorOutput: { writeStandardError($0 + "\n") })
    }

    /// The same with the names and messages going to closures, for tests.
    static func run(_ arguments: [String], output: (String) -> Void, errorOutput: (String) -> Void) -> Int32 {
        FetchedTableCommand.run(spec: spec, arguments: arguments, help: output, errorOutput: errorOutput) { parsed in
            let path = parsed.positionals[0]
            switch try TableFileKind.of(path: path) {
            case .csv:
                output(CSVTableLoader(source: path, options: CSVTableLoader.Options()).tableName)
            case .sqlite:
                let database = try TableDatabase(path: path, kind: .sqlite, databasePath: path, readOnly: true)
                for table in database.tables { output(table.name) }
            }
            return ExitStatus.ok
        }
    }
}
