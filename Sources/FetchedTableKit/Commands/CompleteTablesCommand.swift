import BulkImport
import CLIKit
import PostgreSQLClient

/// `fetchedtable complete-tables FILE|URL|--pg`: the names of the tables and views, one per
/// line, for the shells' completion of `--table` (hidden from help).
///
/// A SQLite file's catalog is read without writing anything; a CSV file's one table is
/// named without loading the file; a PostgreSQL server (`postgres://…`, or `--pg` and libpq's
/// environment) lists the tables and views of its search path as `--table` takes them,
/// waiting ``serverTimeout`` seconds at most (Tab must not hang). A file that is neither,
/// or a server that cannot be reached, prints nothing (and its status).
///
///     CompleteTablesCommand.run(["school.sqlite"])   // "student\nsubject\n"
///     CompleteTablesCommand.run(["--pg"])            // "events\nother.events\n"
package enum CompleteTablesCommand {
    static let spec = CommandSpec(
        name: "fetchedtable complete-tables",
        summary: "Print the names of FILE's tables and views, one per line (for shell completion).",
        usage: "FILE|URL|--pg",
        options: [TableOptions.postgresOption],
        minPositionals: 0,
        maxPositionals: 1
    )

    /// Seconds a server may take to connect and to list its tables.
    static let serverTimeout = 3.0

    /// Runs the subcommand with `arguments` (after `complete-tables`); returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        run(arguments, output: { print($0) }, errorOutput: { writeStandardError($0 + "\n") })
    }

    /// The same with the names and messages going to closures, for tests.
    static func run(_ arguments: [String], output: (String) -> Void, errorOutput: (String) -> Void) -> Int32 {
        FetchedTableCommand.run(spec: spec, arguments: arguments, help: output, errorOutput: errorOutput) { parsed in
            if parsed.flag("--pg") || parsed.positionals.first.map(PostgresTarget.isURL) == true {
                if parsed.flag("--pg") && !parsed.positionals.isEmpty {
                    throw FetchedTableError.usage("--pg connects through libpq's environment; give no FILE or URL")
                }
                let target = PostgresTarget(connectionString: parsed.positionals.first)
                for name in try serverTables(target) { output(name) }
                return ExitStatus.ok
            }
            guard let path = parsed.positionals.first else {
                throw FetchedTableError.usage("give a FILE, a URL or --pg")
            }
            switch try TableFileKind.of(path: path) {
            case .csv, .json:
                output(CSVTableLoader(source: path, options: CSVTableLoader.Options()).tableName)
            case .sqlite:
                let database = try TableDatabase(path: path, kind: .sqlite, databasePath: path, readOnly: true)
                for table in database.tables { output(table.name) }
            }
            return ExitStatus.ok
        }
    }

    /// The server's tables and views as `--table` takes them (schema-qualified where needed).
    static func serverTables(_ target: PostgresTarget) throws(FetchedTableError) -> [String] {
        do {
            let connection = try PostgresConnection(
                target.connectionString,
                applicationName: PostgresServer.applicationName,
                timeout: serverTimeout
            )
            connection.statementTimeout = serverTimeout
            return try Catalog.tables(on: connection).map(\.displayName)
        } catch {
            throw PostgresServer.refusal(error, target: target)
        }
    }
}
