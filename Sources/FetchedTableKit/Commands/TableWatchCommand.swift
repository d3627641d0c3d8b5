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
/// A change that leaves the results as they were prints nothing. A CSV or JSON file is followed:
/// the rows appended to it (a log) are printed as batches of inserts, and a file changed otherwise is
/// read again and printed as a new snapshot. When another file is renamed over the database's path
/// (`mv new.sqlite db.sqlite`), `watch` says so on stderr and prints a snapshot line of the file now
/// there (or exits with its refusal).
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
            if options.postgres != nil && options.query == nil {
                let (_, opening) = try PostgresOpening.open(options, command: "fetchedtable watch")
                guard let opening else { return ExitStatus.usage }
                return try TableWatchCommand.watchPostgres(
                    opening,
                    options: options,
                    output: output,
                    shouldStop: shouldStop,
                    pollInterval: pollInterval
                )
            }
            let watch = ResultsWatch(output: output)
            /// Opens the table at the path, prints its snapshot line and follows its batches.
            func start() throws -> (OpenedTable, FetchedResultsController) {
                let (opened, controller) = try TableFetch.openAndFetch(options, command: "fetchedtable watch")
                watch.show(controller)
                return (opened, controller)
            }
            var watched: (opened: OpenedTable, controller: FetchedResultsController)? = try start()
            // A CSV or JSON file is followed: the rows appended to it come as batches of inserts (its
            // cache's history; a --query over it runs again); a file changed otherwise is read into a new
            // cache, and a new snapshot follows.
            let readsCache =
                watched?.opened.database.kind.isCached == true
                || watched?.opened.database.querySource?.fileKind.isCached == true
            let follower =
                readsCache
                ? CachedFileFollower(path: options.file, missingValues: options.missingValues) : nil
            // --query: re-run when a table it reads changes; the poll below sees the result's file change.
            // Each run that changed the result says when and from which change, on stderr.
            watched?.opened.database.querySource?.follow(
                { message in writeStandardError("\(ProgramName.current) watch: \(message)\n") },
                refreshed: { refresh in
                    guard !refresh.change.isEmpty else { return }
                    writeStandardError("\(ProgramName.current) watch: \(QuerySource.refreshedText(refresh))\n")
                }
            )
            return try watch.run(until: shouldStop) {
                if let follower, follower.hasChanged() {
                    do {
                        if !(try follower.refresh().wasReused) {
                            // The new cache was renamed over the old one: the old store goes first.
                            watched?.opened.store.prepareForReopening()
                            watched = nil
                            watched = try start()
                        }
                    } catch {
                        if watched == nil { throw TableDatabase.refusal(error, path: options.file) }
                        let message = TableDatabase.refusal(error, path: options.file).message
                        errorOutput("\(ProgramName.current) watch: \(message)")
                    }
                }
                if let store = watched?.opened.store, store.fileAtPath() == .replaced {
                    // Another file was renamed over the path (each poll compares the path's device and
                    // inode with the open file's): a snapshot of the file now there, or its refusal. The
                    // old file goes first: it shares -wal/-shm with the new one by name.
                    errorOutput(
                        "\(ProgramName.current) watch: \(options.file): the file was replaced by another file; reading that one"
                    )
                    store.prepareForReopening()
                    watched = nil
                    watched = try start()
                }
                guard let (opened, controller) = watched else { return ExitStatus.software }
                do {
                    try controller.context.processExternalChanges()
                } catch {
                    throw TableDatabase.refusal(error, path: opened.database.path)
                }
                usleep(pollInterval)
                return nil
            }
        }
    }
}
