import CLIKit
import FetchedResults
import FetchedResultsScripts
import FetchedResultsUI
import Foundation
import Glibc
import SQLiteStore

/// `fetchedtable watch FILE [options]`
///
/// Prints the table's sections as a JSON snapshot line, then one JSON line per change
/// batch, in the formats of every app's `watch` (``ResultsJSONLines``), flushed as each
/// is computed, until interrupted (Ctrl-C or SIGTERM: exit status 0). It polls every
/// 100 ms: without `--track` a change is seen through `PRAGMA data_version` and diffed
/// into a batch by a refetch; with `--track` it is read from `fetchedtable_history`.
/// A change that leaves the results as they were prints nothing. A CSV file is read once (its
/// cache): stderr says once that changes to it are not followed.
///
///     TableWatchCommand.run(["events.sqlite", "--sort", "ts desc", "--section", "day(ts)"])
package enum TableWatchCommand {
    /// Runs the subcommand with `arguments` (after `watch`); returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        WatchProcess.run { output, shouldStop in
            run(arguments, output: output, errorOutput: { writeStandardError($0 + "\n") }, shouldStop: shouldStop)
        }
    }

    /// The same with each line going to `output` (false: the reader is gone), messages to
    /// `errorOutput`, and `shouldStop` asked before each poll; for tests.
    static func run(
        _ arguments: [String],
        output: @escaping (String) -> Bool,
        errorOutput: (String) -> Void,
        shouldStop: () -> Bool,
        pollInterval: useconds_t = 100_000
    ) -> Int32 {
        FetchedTableCommand.run(
            spec: TableOptions.watchSpec,
            arguments: arguments,
            help: { _ = output($0) },
            errorOutput: errorOutput
        ) { parsed in
            let options = try TableOptions(parsed)
            if options.postgres != nil {
                let (_, opening) = try PostgresOpening.open(options, command: "fetchedtable watch")
                guard let opening else { return ExitStatus.usage }
                return try PostgresFaces.watch(
                    opening,
                    options: options,
                    output: output,
                    shouldStop: shouldStop,
                    pollInterval: pollInterval
                )
            }
            let (opened, controller) = try TableFetch.openAndFetch(options, command: "fetchedtable watch")
            var readerGone = !output(ResultsJSONLines.snapshot(controller))
            if opened.database.kind == .csv {
                // Said once: a growing file (a log) would otherwise look followed and quiet.
                errorOutput("\(ProgramName.current) watch: \(TableDatabase.notFollowedNotice(options.file))")
            }
            controller.onChange = { batch in
                // A reset is a refetch diffed against what was shown: a batch like any other.
                guard !readerGone, !batch.isEmpty else { return }
                if !output(ResultsJSONLines.batch(batch)) { readerGone = true }
            }
            try? controller.prepareForChanges()
            while !readerGone && !shouldStop() {
                do {
                    try controller.context.processExternalChanges()
                } catch {
                    throw TableDatabase.refusal(error, path: opened.database.path)
                }
                usleep(pollInterval)
            }
            return ExitStatus.ok
        }
    }
}
