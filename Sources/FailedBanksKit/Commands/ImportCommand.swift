import BulkImport
import CLIKit
import CSVImport
import SQLiteStore

/// `failedbanks import FILE... [--db PATH] [--skip-bad-rows] [--quiet]`
///
/// Imports each file into the store in its own transaction (see
/// ``BankImporter``) and prints one summary line per file on standard output.
/// A file is an FDIC CSV list, or (recognised by its content) one of the
/// original app's SQLite stores, read without being modified:
///
///     imported 569 rows from banklist.csv: 569 added, 0 updated, 0 unchanged, 0 skipped in 0.03 s
///
/// Bad rows are listed on standard error as `FILE:LINE: reason (column "…",
/// value "…")`, at most 20 per file plus a count. A file with bad rows is not
/// imported at all unless `--skip-bad-rows` is given, which imports its good
/// rows. On a terminal, long imports show a progress bar on standard error.
/// `--quiet` drops the progress bar and the summary lines; errors are always
/// printed. Every file is attempted; the exit status is that of the first
/// file that failed:
///
/// | status | meaning |
/// |---|---|
/// | 0  | every file imported (with `--skip-bad-rows`: at least one good row each) |
/// | 64 | usage error |
/// | 65 | bad data: bad rows, missing columns, an empty or header-only file, a record over 16 MiB or a field over 1 MiB (`FILE:LINE: record too long`: `/dev/zero` stops there); a store that is not failedbanks' or is damaged |
/// | 66 | a file is missing or unreadable |
/// | 73 | the store's directory cannot be created |
/// | 74 | the store cannot be read or written (disk full, I/O error) |
/// | 75 | the store is locked by another process past the busy timeout (try again) |
/// | 77 | the store (or its folder) is read-only |
///
/// A store that cannot be used (not a failedbanks store, damaged, newer, read-only, locked, a
/// directory or a FIFO) is refused in one line naming it, `failedbanks: STORE: reason`, and left as it was.
///
///     ImportCommand.run(["Data/banklist.csv", "--db", "/tmp/banks.sqlite"]) // 0
package enum ImportCommand {
    static let spec = CommandSpec(
        name: "failedbanks import",
        summary:
            "Import FDIC Failed Bank List CSV files (or the original FailedBanks app's Core Data store or the tutorial's "
            + "SQLite database, left unmodified) into the store. Banks are matched by cert: new ones are added, "
            + "known ones updated where a value differs. Each file is imported completely or not at all.",
        usage: "FILE... [--db PATH] [--skip-bad-rows] [--quiet]",
        options: [
            BankCommandOptions.database,
            OptionSpec(
                "--skip-bad-rows",
                value: nil,
                help: "import the good rows of a file with bad rows (the bad ones are listed)"
            ),
            OptionSpec("--quiet", value: nil, help: "no progress bar and no summary lines (errors are still printed)"),
        ],
        minPositionals: 1,
        maxPositionals: nil,
        epilogue: """
            Get the current list from https://www.fdic.gov/bank-failures/failed-bank-list ("Download CSV").
            Exit status: 0 ok, 64 usage, 65 bad data or a store that is not failedbanks' or is damaged, 66 missing file,
            73 store not creatable, 74 I/O error or disk full, 75 store locked by another process, 77 store read-only.
            """
    )

    /// Runs the subcommand with `arguments` (after `import`); returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        run(arguments, output: { print($0) }, errorOutput: { writeStandardError($0 + "\n") }, progressBars: true)
    }

    /// The same, with the output lines going to `output` (summaries) and `errorOutput`
    /// (messages, each one line), for tests.
    static func run(
        _ arguments: [String],
        output: (String) -> Void,
        errorOutput: (String) -> Void,
        progressBars: Bool
    ) -> Int32 {
        let program = ProgramName.current
        func fail(_ message: String) { errorOutput("\(program): \(message)") }
        return runCommand(spec: spec, arguments: arguments) { parsed in
            let quiet = parsed.flag("--quiet")
            var options = BankImporter.Options()
            options.skipBadRows = parsed.flag("--skip-bad-rows")

            let store: Store
            let storePath = parsed.value("--db") ?? FailedBankStore.defaultPath()
            do {
                store = try FailedBankStore.open(path: storePath, for: .writing).store
            } catch {
                let refusal = StoreRefusal(error, path: storePath)  // already one; passes through
                fail(refusal.message)
                return refusal.status
            }
            let importer = BankImporter(store: store)

            var status = ExitStatus.ok
            for path in parsed.positionals {
                let bar = quiet || !progressBars ? nil : ImportProgressBar(label: path)
                do {
                    let summary = try importer.importFile(path, options: options, progress: bar?.update)
                    bar?.finish()
                    // Bad rows as `FILE:LINE: …` without the program name, so editors can jump to them.
                    for issue in summary.issues { errorOutput(issue.escapedDescription) }
                    if summary.skipped > summary.issues.count {
                        errorOutput("… and \(summary.skipped - summary.issues.count) more bad rows skipped")
                    }
                    if !quiet { output(summary.summaryLine) }
                } catch BankImportError.store(_, let error) {
                    // The store failed (damaged, locked, full, …): say so naming the store; the file's
                    // transaction was rolled back.
                    bar?.finish()
                    let refusal = StoreRefusal(error, path: store.path).adding("; nothing was imported from \(path)")
                    fail(refusal.message)
                    if status == ExitStatus.ok { status = refusal.status }
                } catch let error as BankImportError {
                    bar?.finish()
                    if case .badRows = error {
                        for message in error.messages { errorOutput(message) }
                    } else {
                        for message in error.messages { fail(message) }
                    }
                    if status == ExitStatus.ok { status = error.exitStatus }
                } catch {
                    bar?.finish()
                    fail("\(path): \(ErrorReason.text(of: error))")
                    if status == ExitStatus.ok { status = ExitStatus.software }
                }
            }
            return status
        }
    }
}
