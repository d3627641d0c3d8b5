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
    /// `FILE`.
    package var file: String
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

    /// Options for `file` and nothing else.
    package init(file: String) { self.file = file }

    /// The options of a parsed command line (`FILE` its first positional).
    package init(_ parsed: ParsedArguments) throws(OptionError) {
        guard let file = parsed.positionals.first else { throw OptionError("missing FILE (try --help)") }
        self.file = file
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
        predicate = parsed.value("--where")
        readOnly = parsed.flag("--read-only")
        track = parsed.flag("--track")
        animated = !parsed.flag("--no-animation")
        format = parsed.value("--format")
        if track && readOnly {
            throw OptionError("--track installs triggers in the file, so it cannot go with --read-only")
        }
    }

    static func unquoted(_ name: String) -> String {
        guard name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") else { return name }
        return String(name.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
    }

    // MARK: The command lines

    /// The options every face takes.
    static let common: [OptionSpec] = [
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
        OptionSpec("--title", value: "KEY", help: "the cell's first line (default: the first text column)"),
        OptionSpec("--subtitle", value: "'KEY, KEY'", help: "the cell's second line (default: the next two columns)"),
        OptionSpec("--where", value: "PREDICATE", help: "only rows matching, e.g. \"state == 'TX' AND year >= 2020\""),
        OptionSpec("--read-only", value: nil, help: "never write the file (delete and undo are refused)"),
        OptionSpec(
            "--track",
            value: nil,
            help: "install history triggers for incremental live updates ('untrack' removes them)"
        ),
    ]

    static let epilogue = """
        FILE is a SQLite database or a CSV/TSV file (told apart by content; a CSV file is loaded into a cache
        under $XDG_CACHE_HOME/fetchedtable, reused while the file is unchanged).
        Exit status: 0 ok, 64 usage (an unknown table or column is named with the ones there are),
        65 neither a database nor a CSV file, or damaged, 66 no such file, 74 read error.
        """

    /// `fetchedtable FILE [options]`: the browser.
    package static let browserSpec = CommandSpec(
        name: "fetchedtable",
        summary: "Browse any SQLite table or CSV file as a live, sectioned, indexed list.",
        usage: "FILE [--table NAME] [--sort 'KEY [desc], …'] [--section KEY] [--title KEY] [--subtitle 'KEY, KEY'] "
            + "[--where PREDICATE] [--read-only] [--track] [--no-animation] | COMMAND …",
        options: common + [
            OptionSpec("--no-animation", value: nil, help: "apply changes without animating them")
        ],
        minPositionals: 0,
        maxPositionals: 1,
        epilogue: epilogue + "\n" + "Press ? in the browser for keys."
    )

    /// `fetchedtable list FILE [options] [--format text|json|csv]`.
    package static let listSpec = CommandSpec(
        name: "fetchedtable list",
        summary: "Print a table's rows in the order and sections the browser shows, as text, JSON or CSV.",
        usage:
            "FILE [--table NAME] [--sort …] [--section KEY] [--title KEY] [--subtitle …] [--where PREDICATE] [--format text|json|csv]",
        options: common + [
            OptionSpec(
                "--format",
                value: "FORMAT",
                help: "text (the default), json or csv",
                completion: .values(["text", "json", "csv"])
            )
        ],
        minPositionals: 1,
        maxPositionals: 1,
        epilogue: epilogue
    )

    /// `fetchedtable watch FILE [options]`.
    package static let watchSpec = CommandSpec(
        name: "fetchedtable watch",
        summary:
            "Print a table's sections as a JSON snapshot line, then one JSON line per change batch, until interrupted.",
        usage: "FILE [--table NAME] [--sort …] [--section KEY] [--where PREDICATE] [--track]",
        options: common,
        minPositionals: 1,
        maxPositionals: 1,
        epilogue: epilogue
    )

    /// `fetchedtable untrack FILE`.
    package static let untrackSpec = CommandSpec(
        name: "fetchedtable untrack",
        summary: "Remove the fetchedtable_history table and the triggers that --track installed.",
        usage: "FILE",
        options: [],
        minPositionals: 1,
        maxPositionals: 1
    )
}
