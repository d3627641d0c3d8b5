import CLIKit
import PostgreSQLClient
import SQLiteStore

/// The `fetchedtable` command: dispatches to `list`, `watch` or `untrack`, or opens the browser.
///
/// The executable is a one-liner around this type, so every path of the command
/// line is testable in-process:
///
///     ProgramName.current = "fetchedtable"
///     exit(FetchedTableCommand.main(Array(CommandLine.arguments.dropFirst())))
public enum FetchedTableCommand {
    /// The version printed by `--version`.
    package static let version = BuildInfo.version

    /// Runs the command line `arguments` (without the program name) and returns the exit status (`sysexits.h`).
    ///
    ///     FetchedTableCommand.main(["list", "school.sqlite", "--table", "student", "--format", "json"])
    public static func main(_ arguments: [String]) -> Int32 {
        program.main(arguments)
    }

    /// The program: its subcommands (in the order `--help` lists them), and what its man page says.
    package static let program = ProgramSpec(
        command: TableOptions.browserSpec,
        run: runBrowser,
        subcommands: [
            Subcommand(
                TableOptions.listSpec,
                brief: "print the rows by section (text, JSON or CSV)",
                run: TableListCommand.run
            ),
            Subcommand(
                TableOptions.watchSpec,
                brief: "print the change batches as JSON Lines",
                run: TableWatchCommand.run
            ),
            Subcommand(
                TableOptions.untrackSpec,
                brief: "remove the triggers and history --track installed",
                run: UntrackCommand.run
            ),
            Subcommand(
                CacheCommand.spec,
                brief: "list or remove the local copies of PostgreSQL tables",
                run: CacheCommand.run
            ),
            Subcommand(
                CompleteTablesCommand.spec,
                brief: "print FILE's tables (for shell completion)",
                hidden: true,
                run: CompleteTablesCommand.run
            ),
        ],
        environment: [
            ManualEntry(
                "XDG_CACHE_HOME",
                "The folder of the CSV files' cache databases, $XDG_CACHE_HOME/fetchedtable (~/.cache when unset)."
            ),
            ManualEntry("NO_COLOR", "No colours."),
            ManualEntry(
                "PGHOST, PGPORT, PGUSER, PGDATABASE, PGSSLMODE, PGPASSWORD…",
                "libpq's own variables: with --pg they name the server; with a URL they fill in what it leaves out."
            ),
        ],
        files: [
            ManualEntry(
                "~/.cache/fetchedtable/",
                "A cache database per CSV file opened, reused while the file's size and time are unchanged."
            ),
            ManualEntry("~/.pgpass", "libpq's password file: where a PostgreSQL password belongs (never in the URL)."),
            ManualEntry(
                "~/.cache/fetchedtable/postgres/",
                "A copy of each PostgreSQL table a session opens, within --cache-limit; fetchedtable cache lists them."
            ),
        ],
        examples: [
            ManualEntry(
                "fetchedtable school.sqlite --table student --section subject",
                "Students in sections by subject."
            ),
            ManualEntry(
                "fetchedtable banklist.csv --section 'year(\"Closing Date\")'",
                "A CSV file, sections by year."
            ),
            ManualEntry(
                "fetchedtable list events.sqlite --where \"kind == 'error'\" --format json",
                "The matching rows as JSON, by section."
            ),
            ManualEntry("fetchedtable watch events.sqlite --track", "The changes other programs make, as JSON Lines."),
            ManualEntry(
                "fetchedtable postgres://alice@db.example/shop --table orders --section 'day(placed_at)'",
                "A PostgreSQL table, live, sections by day."
            ),
            ManualEntry("PGDATABASE=shop fetchedtable list --pg --table orders", "The server of libpq's environment."),
        ],
        seeAlso: ["failedbanks", "mystash"]
    )

    /// `fetchedtable` with no subcommand: the browser, which needs a FILE, a URL or `--pg`.
    @Sendable static func runBrowser(_ arguments: [String]) -> Int32 {
        guard !arguments.isEmpty else {
            writeStandardError(
                "\(TableOptions.browserSpec.name): missing FILE or URL (usage: \(TableOptions.browserSpec.name) "
                    + "\(TableOptions.browserSpec.usage))\n"
            )
            return ExitStatus.usage
        }
        return TableBrowserCommand.run(arguments)
    }

    /// `message` without any password an operand of `arguments` holds — a URL's or a
    /// keyword/value string's (`password=…`), whether or not it was taken for a connection string —
    /// nor any `password=` pair or URL password of its own.
    static func redactingPasswords(in message: String, arguments: [String]) -> String {
        var text = ConnectionString.removingPasswords(from: message, connectionString: nil)
        for argument in arguments where argument.contains("=") || argument.contains("@") {
            text = ConnectionString.removingPasswords(from: text, connectionString: argument)
        }
        return text
    }

    /// CLIKit's `runCommand` with this command's errors: an ``OptionError`` is a usage error
    /// (`list: --sort: …`, 64), a ``FetchedTableError`` says `fetchedtable: message` with its status.
    ///
    /// Once `body` is done and its connections are closed, a `-shm` that reading a WAL file
    /// made beside it (there was a `-wal` but no `-shm`) is removed again when nothing else
    /// has the file open: a session leaves the files as it found them.
    static func run(
        spec: CommandSpec,
        arguments: [String],
        help: (String) -> Void,
        errorOutput: (String) -> Void,
        _ body: (ParsedArguments) throws -> Int32
    ) -> Int32 {
        var files: ForeignDatabaseFiles?
        defer { files?.removeSharedMemoryMadeSince() }
        return runCommand(
            spec: spec,
            arguments: arguments,
            help: help,
            errorOutput: { errorOutput(redactingPasswords(in: $0, arguments: arguments)) },
            failure: { error in
                switch error {
                case let error as OptionError: ("\(spec.name): \(error.message)", ExitStatus.usage)
                case let error as FetchedTableError: ("\(ProgramName.current): \(error.message)", error.status)
                default: nil
                }
            },
            { parsed in
                if let options = try? TableOptions(parsed), options.postgres == nil {
                    files = ForeignDatabaseFiles(path: options.file)
                }
                return try body(parsed)
            }
        )
    }
}
