import CLIKit
import FetchedResults
import FetchedResultsScripts
import FetchedResultsUI
import Foundation
import Glibc
import SQLiteStore

/// `failedbanks list [--db PATH] [--sort date|name|state] [--where PREDICATE] [--format text|json|csv]`
///
/// Prints the banks the way the browser's tab shows them: ordered and
/// sectioned by a ``FetchedResultsController`` (the same request as the tab:
/// `date` = closing date newest first, sections by year; `name` = name
/// case-insensitively, sections by initial, `#` for non-letters; `state` =
/// state, then name), optionally filtered by a predicate in the controller's
/// language (`state == 'TX' AND details.closeDate >= 2020-01-01`).
///
/// JSON: `{"sections":[{"name":"2025","indexTitle":"2025","objects":[{"id":12,"name":"…","city":"…","state":"TX","cert":5520,"closeDate":"2025-06-27"}]}]}`
/// (`id` is the `failed_bank_info` row id; `cert` and `closeDate` are null for a bank without details).
/// CSV: a header `section,id,name,city,state,cert,closeDate`, then one row per bank.
/// Text: a line per section, then one line per bank; control characters in it are
/// escaped (`\0`, `\n`, `\u{1B}`, ``DisplayText/escapingControls(_:)``). A name stored as a
/// BLOB (by a `sqlite3` shell) is shown in every format as its bytes in hex, `x'…'`.
///
/// | status | meaning |
/// |---|---|
/// | 0  | listed (also when nothing matches) |
/// | 64 | usage error, or a predicate that does not parse or names an unknown key path |
/// | 65 | the file is not a failedbanks store, or it is damaged |
/// | 66 | there is no store at the path |
/// | 74 | the store cannot be read |
/// | 75 | the store is locked by another process (try again) |
///
///     ListCommand.run(["--sort", "state", "--where", "state == 'TX'", "--format", "json"])
package enum ListCommand {
    static let spec = CommandSpec(
        name: "failedbanks list",
        summary: "Print the banks in the order and sections of a browser tab, as text, JSON or CSV.",
        usage: "[--db PATH] [--sort date|name|state] [--where PREDICATE] [--format text|json|csv]",
        options: [
            BankCommandOptions.database,
            BankCommandOptions.sort,
            OptionSpec(
                "--where",
                value: "PREDICATE",
                help: "only banks matching, e.g. \"state == 'TX' AND details.closeDate >= 2020-01-01\""
            ),
            OptionSpec(
                "--format",
                value: "FORMAT",
                help: "text (the default), json or csv",
                completion: .values(["text", "json", "csv"])
            ),
        ],
        epilogue: """
            Key paths: name, city, state, details.closeDate, details.closeYear, details.cert, details.fund,
            details.acquiringInstitution, details.updatedDate. Operators: == != < <= > >= BETWEEN IN CONTAINS
            BEGINSWITH ENDSWITH LIKE (with [c] for case-insensitive), AND OR NOT.
            Exit status: 0 ok, 64 usage or bad predicate, 65 not a failedbanks store or damaged, 66 no store, 74 read error,
            75 locked by another process.
            """
    )

    enum Format: String { case text, json, csv }

    /// Runs the subcommand with `arguments` (after `list`); returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        ListProcess.run { output, errorOutput, escapesForTerminal in
            run(arguments, output: output, errorOutput: errorOutput, escapesForTerminal: escapesForTerminal)
        }
    }

    /// The same with the output going to `output` (text with its own newlines) and
    /// messages to `errorOutput` (one line each), for tests.
    /// `--help` goes to `output` and usage errors to `errorOutput` too; `escapesForTerminal` as
    /// ``ResultsListWriter/escapesForTerminal`` (a terminal reads the output).
    static func run(
        _ arguments: [String],
        output: (String) -> Void,
        errorOutput: (String) -> Void,
        escapesForTerminal: Bool = false
    ) -> Int32 {
        runCommand(spec: spec, arguments: arguments, help: { output($0 + "\n") }, errorOutput: errorOutput) {
            parsed in
            guard let format = Format(rawValue: (parsed.value("--format") ?? "text").lowercased()) else {
                throw CommandLineError.usage("failedbanks list: --format must be text, json or csv (try --help)")
            }
            let store: Store
            let controller: FetchedResultsController
            switch try openAndFetch(parsed, command: "list", for: .reading, errorOutput: errorOutput) {
            case .fetched(let s, _, let c): (store, controller) = (s, c)
            case .exit(let status): return status
            }
            do {
                try write(
                    controller,
                    format: format,
                    store: store,
                    escapesForTerminal: escapesForTerminal,
                    output: output
                )
            } catch {
                // A damaged page met while reading the rows (after some were printed).
                let refusal = StoreRefusal(error, path: store.path)
                errorOutput("\(ProgramName.current): \(refusal.message)")
                return refusal.status
            }
            return ExitStatus.ok
        }
    }

    // MARK: Shared with `watch`

    /// The tab named by `--sort` (default `date`).
    static func sortTab(_ parsed: ParsedArguments) throws -> BankSortTab {
        let name = parsed.value("--sort") ?? "date"
        guard let tab = BankSortTab(argument: name) else {
            throw CommandLineError.usage(
                "\(ProgramName.current): --sort must be date, name or state, not '\(name)' (try --help)"
            )
        }
        return tab
    }

    /// The `--where` predicate, or a usage error naming the column.
    static func predicate(_ parsed: ParsedArguments, command: String) throws -> FetchPredicate? {
        guard let text = parsed.value("--where") else { return nil }
        do {
            return try FetchPredicate(text)
        } catch let error as FetchPredicateError {
            throw CommandLineError.usage("\(ProgramName.current) \(command): --where: \(error) (try --help)")
        }
    }

    /// Opens an existing store for `purpose` (``FailedBankStore/Purpose/reading`` or `.watching`);
    /// a refusal carries the sentence and the status.
    static func openStore(_ path: String?, for purpose: FailedBankStore.Purpose) -> Result<Store, StoreRefusal> {
        let resolved = path ?? FailedBankStore.defaultPath()
        do {
            return .success(try FailedBankStore.open(path: resolved, for: purpose, model: BrowserModel.model).store)
        } catch {
            return .failure(error)
        }
    }

    /// The tab's controller, as the browser's tab makes it (no results cache): its request and
    /// sections, whole section names as index titles.
    static func makeController(
        tab: BankSortTab,
        filter: FetchPredicate?,
        context: ObjectContext
    ) -> FetchedResultsController {
        tab.listTab(storePath: nil).makeController(context: context, filter: filter)
    }

    /// What `openAndFetch` ends with: the store, its context and the controller after its first
    /// fetch; or the exit status, the message already written.
    enum Opening {
        case fetched(Store, ObjectContext, FetchedResultsController)
        case exit(Int32)
    }

    /// The common start of `list` and `watch`: `--sort` and `--where` (usage errors are thrown),
    /// the store at `--db` opened for `purpose`, and the first fetch. A refusal, or a `--where`
    /// key path the model lacks (named with `command`), is reported on `errorOutput`.
    static func openAndFetch(
        _ parsed: ParsedArguments,
        command: String,
        for purpose: FailedBankStore.Purpose,
        errorOutput: (String) -> Void
    ) throws -> Opening {
        let tab = try sortTab(parsed)
        let filter = try predicate(parsed, command: command)
        let store: Store
        switch openStore(parsed.value("--db"), for: purpose) {
        case .success(let s): store = s
        case .failure(let refusal):
            errorOutput("\(ProgramName.current): \(refusal.message)")
            return .exit(refusal.status)
        }
        let context = ObjectContext(store: store)
        let controller = makeController(tab: tab, filter: filter, context: context)
        do {
            try controller.performFetch()
        } catch StoreError.unknownKeyPath(let keyPath, _) {
            errorOutput("\(ProgramName.current) \(command): --where: unknown key path \"\(keyPath)\" (try --help)")
            return .exit(ExitStatus.usage)
        } catch {
            let refusal = StoreRefusal(error, path: store.path)
            errorOutput("\(ProgramName.current): \(refusal.message)")
            return .exit(refusal.status)
        }
        return .fetched(store, context, controller)
    }

    /// A JSON string literal (``JSONText/string(_:)``).
    static func json(_ s: String) -> String { JSONText.string(s) }

    // MARK: Writing

    /// The banks as ``ResultsListWriter`` prints them: failedbanks' columns and its text line.
    private static func write(
        _ controller: FetchedResultsController,
        format: Format,
        store: Store,
        escapesForTerminal: Bool,
        output: (String) -> Void
    ) throws {
        var writer = ResultsListWriter(
            columns: ["name", "city", "state", "cert", "closeDate"],
            keyPaths: ["name", "city", "state", "details.cert", "details.closeDate"],
            noun: ("bank", "banks")
        )
        writer.escapesForTerminal = escapesForTerminal
        writer.textLine = { _, values in
            let text = values.map(DisplayText.of)
            var line = "  \(text[0]), \(text[1]), \(text[2])"
            if let d = values[4].string { line += "  closed \(d)" }
            if let c = values[3].int64 { line += "  cert \(c)" }
            return line
        }
        try writer.write(
            controller,
            format: ResultsListWriter.Format(rawValue: format.rawValue) ?? .text,
            output: output
        )
    }
}
