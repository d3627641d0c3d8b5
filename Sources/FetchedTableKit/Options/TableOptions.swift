import CLIKit
import Foundation

/// What the command line asked of `fetchedtable`, `fetchedtable list` and
/// `fetchedtable watch`, parsed but not yet checked against the file's tables
/// and columns (``TableQuery`` does that once the file is open).
///
///     let parsed = try parseArguments(["school.sqlite", "--sort", "subject, number"], spec: TableOptions.browserSpec)
///     let options = try TableOptions(parsed)
///     options.sort?.keys.count   // 2
package struct TableOptions: Equatable, Sendable {
    /// `FILE` as given; for a PostgreSQL server, its connection string without the password
    /// (or `--pg`), which is what messages name.
    package var file: String
    /// The PostgreSQL server `URL` or `--pg` names (nil: `FILE` is a file).
    package var postgres: PostgresTarget?
    /// `--table NAME`.
    package var table: String?
    /// `--sort 'KEY [desc], …'` (nil: the row id or primary key).
    package var sort: SortSpecification?
    /// `--section KEY`.
    package var section: SectionKeySpecification?
    /// `--title KEY` (nil: the first text column).
    package var title: String?
    /// `--subtitle 'KEY, KEY'` (nil: the two columns after the title's).
    package var subtitle: [String]?
    /// `--columns 'KEY, KEY, …'`: the grid's columns in their order (nil: every column).
    package var columns: [String]?
    /// `--type 'COLUMN=TYPE, …'`: the types given to columns.
    package var columnTypes: [ColumnTypeSpecification] = []
    /// `--where PREDICATE`, as typed.
    package var predicate: String?
    /// `--read-only`.
    package var readOnly = false
    /// `--track`.
    package var track = false
    /// False with `--no-animation`.
    package var animated = true
    /// `list --format` (text when not given).
    package var format: String?
    /// `--na TOKEN,…`: a CSV file's missing-value tokens (nil: the loader's defaults, `NA`, `N/A`, `NULL`,
    /// `null`, `NaN`, `-`; empty: none).
    package var missingValues: [String]?
    /// `--cache-limit SIZE`: the bound of the server tables' copies (1 GB when not given).
    package var cacheLimit = CacheLimit.standard
    /// `--query 'SELECT …'` or `--query @FILE`, as given (``QuerySource`` reads a file's SQL).
    package var query: String?
    /// `--param name=value`, each in order (a later value for the same name wins).
    package var parameters: [String: String] = [:]
    /// `--key 'COLUMN, …'`: the query result's columns that tell its rows apart.
    package var key: [String]?
    /// `--statement-timeout SECONDS`: how long a server's query may run (nil: 60 s).
    package var statementTimeout: Double?

    /// Options for `file` and nothing else.
    package init(file: String) { self.file = file }

    /// The options of a parsed command line (`FILE` or `URL` its first positional, or `--pg`).
    /// `queryLine`: the command has the browser's `:` line, whose queries `--param` gives values
    /// too, so that it may come without `--query`.
    package init(_ parsed: ParsedArguments, queryLine: Bool = false) throws(OptionError) {
        if parsed.flag("--pg") {
            if let given = parsed.positionals.first {
                throw OptionError(
                    "--pg connects through libpq's environment in place of FILE or URL, so not with '\(given)'"
                )
            }
            postgres = PostgresTarget(connectionString: nil)
        } else {
            guard let given = parsed.positionals.first else { throw OptionError("missing FILE or URL (try --help)") }
            if PostgresTarget.isURL(given) { postgres = PostgresTarget(connectionString: given) }
        }
        file = postgres?.label ?? parsed.positionals[0]
        table = parsed.value("--table")
        if let sort = parsed.value("--sort") { self.sort = try SortSpecification(parsing: sort) }
        if let section = parsed.value("--section") { self.section = try SectionKeySpecification(parsing: section) }
        if let title = parsed.value("--title") {
            let words = try OptionText.splitList(title, option: "--title")
            guard words.count == 1 else { throw OptionError("--title: one column, not \"\(title)\"") }
            self.title = TableOptions.unquoted(words[0])
        }
        if let subtitle = parsed.value("--subtitle") {
            self.subtitle = try OptionText.splitList(subtitle, option: "--subtitle").map(TableOptions.unquoted)
        }
        if let columns = parsed.value("--columns") {
            self.columns = try OptionText.splitList(columns, option: "--columns").map(TableOptions.unquoted)
        }
        if let types = parsed.value("--type") { columnTypes = try ColumnTypeSpecification.parse(types) }
        predicate = parsed.value("--where")
        readOnly = parsed.flag("--read-only")
        track = parsed.flag("--track")
        animated = !parsed.flag("--no-animation")
        format = parsed.value("--format")
        if let tokens = parsed.value("--na") {
            if postgres != nil { throw OptionError("--na: missing-value tokens are a CSV file's, not a server's") }
            missingValues = try OptionText.splitList(tokens, option: "--na").map(TableOptions.unquoted)
        }
        if let limit = parsed.value("--cache-limit") { cacheLimit = try CacheLimit(parsing: limit) }
        try parseQuery(parsed, queryLine: queryLine)
        if track && readOnly {
            let place = postgres == nil ? "the file" : "the database"
            throw OptionError("--track installs triggers in \(place), so it cannot go with --read-only")
        }
    }

    /// `--query`, `--param` and `--key`, and what they cannot go with (`--param` goes without
    /// `--query` when there is a `:` line, `queryLine`, to give its queries values).
    private mutating func parseQuery(_ parsed: ParsedArguments, queryLine: Bool) throws(OptionError) {
        query = parsed.value("--query")
        for pair in parsed.values("--param") {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw OptionError("--param: name=value, not '\(pair)'")
            }
            var name = String(pair[..<equals])
            if let sign = name.first, ":@$".contains(sign) { name.removeFirst() }
            parameters[name] = String(pair[pair.index(after: equals)...])
        }
        if let key = parsed.value("--key") {
            let columns = try OptionText.splitList(key, option: "--key").map(TableOptions.unquoted)
            guard !columns.isEmpty else { throw OptionError("--key: no column named; --key 'COLUMN, …'") }
            if let twice = columns.enumerated().first(where: { columns[..<$0.offset].contains($0.element) }) {
                throw OptionError("--key: \(twice.element) is named twice")
            }
            self.key = columns
        }
        guard query != nil else {
            if !parameters.isEmpty && !queryLine {
                throw OptionError("--param gives a value to a --query's parameter; there is no --query")
            }
            if key != nil { throw OptionError("--key names a --query's key columns; there is no --query") }
            if parsed.value("--statement-timeout") != nil {
                throw OptionError("--statement-timeout: a --query's timeout; there is no --query")
            }
            return
        }
        if let given = parsed.value("--statement-timeout") {
            guard let seconds = Double(given), seconds > 0, seconds.isFinite else {
                throw OptionError("--statement-timeout: a number of seconds above 0, not '\(given)'")
            }
            guard postgres != nil else {
                throw OptionError("--statement-timeout: a server's query runs with a timeout; a file's does not")
            }
            statementTimeout = seconds
        }
        if table != nil { throw OptionError("--query: the rows are the query's, so not with --table") }
        if track {
            throw OptionError("--query: a query's tables are followed without triggers, so not with --track")
        }
        if missingValues != nil { throw OptionError("--na: missing-value tokens are a CSV file's, not a query's") }
    }

    /// The options for a table other than the one `--table` names (the table list, after that table was
    /// altered or dropped): the columns of `--sort`, `--section`, `--columns`, `--title`, `--subtitle` and
    /// `--where` were given for that table, so another opens with its defaults. Without `--table`, the
    /// options as they are.
    package func opening(_ table: String) -> TableOptions {
        guard let named = self.table, named != table else { return self }
        var other = self
        other.table = table
        other.sort = nil
        other.section = nil
        other.columns = nil
        other.title = nil
        other.subtitle = nil
        other.predicate = nil
        return other
    }

    static func unquoted(_ name: String) -> String {
        guard name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") else { return name }
        return String(name.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
    }

    // MARK: The command lines

    /// `--pg`: the server of libpq's environment in place of `FILE` or `URL`.
    static let postgresOption = OptionSpec(
        "--pg",
        value: nil,
        help: "in place of FILE or URL: the PostgreSQL server of libpq's environment (PGHOST, PGPORT, PGUSER, "
            + "PGDATABASE, PGSSLMODE…) and ~/.pgpass",
        standsForArgument: true
    )

    /// The options every face takes.
    static let common: [OptionSpec] = [
        postgresOption,
        OptionSpec(
            "--table",
            value: "NAME",
            help: "the table or view (default: the only one; several: a list to choose from)",
            completion: .argumentQuery(subcommand: "complete-tables")
        ),
        OptionSpec("--sort", value: "'KEY [desc], …'", help: "the order (default: the row id or primary key)"),
        OptionSpec(
            "--section",
            value: "KEY",
            help: "sections by a column, or year(col), month(col), day(col), initial(col)"
        ),
        OptionSpec(
            "--columns",
            value: "'KEY, KEY, …'",
            help: "the grid's columns, in this order (default: every column); list prints these"
        ),
        OptionSpec(
            "--title",
            value: "KEY",
            help: "a two-line list instead of the grid: this column first (default: the first text column)"
        ),
        OptionSpec(
            "--subtitle",
            value: "'KEY, KEY'",
            help: "a two-line list instead of the grid: these on the second line (default: the next two columns)"
        ),
        OptionSpec(
            "--type",
            value: "'KEY=TYPE, …'",
            help: "give columns a type: integer, real, text, date, datetime, boolean (a CSV file's cache "
                + "stores them so; a database file is never written)"
        ),
        OptionSpec(
            "--where",
            value: "PREDICATE",
            help: "only rows matching, e.g. \"state == 'TX' AND year >= 2020\" (a column with spaces in double quotes: "
                + "'\"Closing Date\" >= 2020-01-01')"
        ),
        OptionSpec(
            "--na",
            value: "TOKEN,…",
            help: "a CSV file's missing values, NULL in a column of numbers or dates (default NA,N/A,NULL,null,NaN,-; "
                + "'' for none)"
        ),
        OptionSpec(
            "--read-only",
            value: nil,
            help: "never write the file or the server's table (delete and undo are refused)"
        ),
        OptionSpec(
            "--track",
            value: nil,
            help: "install history triggers for incremental live updates ('untrack' removes them)"
        ),
        cacheLimitOption,
    ]

    /// `--query`, `--param`, `--key`.
    static let queryOptions: [OptionSpec] = [
        OptionSpec(
            "--query",
            value: "SQL|@FILE",
            help: "the rows of one read-only SELECT of a SQLite file or a PostgreSQL server (a join, an aggregate) "
                + "instead of a table, kept current as its tables change; @FILE reads it from FILE"
        ),
        OptionSpec(
            "--param",
            value: "NAME=VALUE",
            help: "a value for the query's :NAME (a number when it reads as one, else text), and for the :NAME "
                + "of the queries the browser's : line runs; repeat for each",
            repeatable: true
        ),
        OptionSpec(
            "--key",
            value: "'COLUMN, …'",
            help: "the query's columns that tell its rows apart (checked unique; default: its one table's key, "
                + "else the whole row)"
        ),
        OptionSpec(
            "--statement-timeout",
            value: "SECONDS",
            help: "how long a PostgreSQL server's query may run before it is cancelled (default 60)"
        ),
    ]

    /// The usage of ``queryOptions``, after the options of a table.
    static let queryUsage =
        " [--query SQL|@FILE [--param NAME=VALUE]… [--key 'COLUMN, …'] [--statement-timeout SECONDS]]"

    /// `--cache-limit SIZE`: the bound of the copies of server tables in the cache folder.
    static let cacheLimitOption = OptionSpec(
        "--cache-limit",
        value: "SIZE",
        help: "at most this much of server tables' copies in the cache (default 1G; the least recently used go first)"
    )

    static let epilogue = """
        FILE is a SQLite database or a CSV/TSV file (told apart by content; a CSV file is loaded into a cache
        under $XDG_CACHE_HOME/fetchedtable, reused while the file is unchanged).
        URL is a PostgreSQL server: postgres://[user@]host[:port]/dbname[?param=value…] (or postgresql://),
        its parameters passed to libpq unchanged; a password belongs in ~/.pgpass or PGPASSWORD, never in URL.
        Exit status: 0 ok, 64 usage (an unknown table or column is named with the ones there are),
        65 neither a database nor a CSV file, or damaged, 66 no such file, 69 the server cannot be reached,
        74 read error, 77 the server refused the credentials or a privilege.
        """

    /// `fetchedtable FILE [options]`: the browser.
    package static let browserSpec = CommandSpec(
        name: "fetchedtable",
        summary: "Browse any SQLite table or CSV file as a live, sectioned, indexed list.",
        usage: "FILE|URL|--pg [--table NAME] [--sort 'KEY [desc], …'] [--section KEY] [--columns 'KEY, …'] "
            + "[--title KEY] [--subtitle 'KEY, KEY'] [--type 'KEY=TYPE, …'] "
            + "[--where PREDICATE] [--na TOKEN,…] [--read-only] [--track] [--cache-limit SIZE] [--no-animation]"
            + queryUsage + " | COMMAND …",
        options: common + queryOptions + [
            OptionSpec("--no-animation", value: nil, help: "apply changes without animating them")
        ],
        minPositionals: 0,
        maxPositionals: 1,
        epilogue: epilogue + "\n" + "Press ? in the browser for keys.",
        arguments: .file
    )

    /// `fetchedtable list FILE [options] [--format text|json|csv]`.
    package static let listSpec = CommandSpec(
        name: "fetchedtable list",
        summary: "Print a table's rows in the order and sections the browser shows, as text, JSON or CSV.",
        usage:
            "FILE|URL|--pg [--table NAME] [--sort …] [--section KEY] [--columns …] [--title KEY] [--subtitle …] "
            + "[--type …] [--where PREDICATE] [--na TOKEN,…] [--read-only] [--track] [--cache-limit SIZE] "
            + "[--format text|json|csv]" + queryUsage,
        options: common + queryOptions + [
            OptionSpec(
                "--format",
                value: "FORMAT",
                help: "text (the default), json or csv",
                completion: .values(["text", "json", "csv"])
            )
        ],
        minPositionals: 0,
        maxPositionals: 1,
        epilogue: epilogue,
        arguments: .file
    )

    /// `fetchedtable watch FILE [options]`.
    package static let watchSpec = CommandSpec(
        name: "fetchedtable watch",
        summary:
            "Print a table's sections as a JSON snapshot line, then one JSON line per change batch, until interrupted.",
        usage: "FILE|URL|--pg [--table NAME] [--sort …] [--section KEY] [--columns …] [--title KEY] [--subtitle …] "
            + "[--type …] [--where PREDICATE] [--na TOKEN,…] [--read-only] [--track] [--cache-limit SIZE]" + queryUsage,
        options: common + queryOptions,
        minPositionals: 0,
        maxPositionals: 1,
        epilogue: epilogue,
        arguments: .file
    )

    /// `fetchedtable untrack FILE|URL|--pg [--table NAME]`.
    package static let untrackSpec = CommandSpec(
        name: "fetchedtable untrack",
        summary: "Remove the fetchedtable_history table and the triggers that --track installed.",
        usage: "FILE|URL|--pg [--table NAME]",
        options: [
            postgresOption,
            OptionSpec(
                "--table",
                value: "NAME",
                help: "a server's table whose triggers to remove (default: the only one; a file: every table)"
            ),
        ],
        minPositionals: 0,
        maxPositionals: 1,
        arguments: .file
    )
}
