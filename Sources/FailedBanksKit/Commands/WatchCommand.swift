import CLIKit
import FetchedResults
import FetchedResultsScripts
import FetchedResultsUI
import Foundation
import Glibc
import SQLiteStore

/// `failedbanks watch [--db PATH] [--sort date|name|state] [--where PREDICATE]`
///
/// Prints a ``FetchedResultsController``'s results and then each of its change
/// batches as JSON Lines, flushed as soon as each is computed, until
/// interrupted (Ctrl-C or SIGTERM: exit status 0). It polls the store every
/// 100 ms, so it sees changes made by any process — another `failedbanks`, or
/// the `sqlite3` shell (the store's triggers record them) — within 500 ms.
///
/// First line: `{"type":"snapshot","sections":[{"name":"2025","ids":[12,7]}]}`.
/// Then one line per batch, in the controller's order (rule 3 of FetchedResults.docc/ChangeBatches.md) (section changes, then
/// object changes; old coordinates for deletes and move sources, new ones
/// for inserts and move destinations, both for updates):
///
///     {"type":"batch","sections":[{"change":"delete","index":3},{"change":"insert","index":0,"name":"2026"}],
///      "objects":[{"change":"delete","id":17,"from":[2,4]},{"change":"insert","id":99,"to":[0,0]},
///                 {"change":"move","id":5,"from":[1,2],"to":[0,1]},{"change":"update","id":7,"from":[3,0],"to":[3,0]}],
///      "counts":[1,12]}
///
/// (one line; `counts` are the row counts of every section after the batch).
/// A change that leaves the results as they were (a bank outside `--where`) prints nothing.
/// When the store reports a reset (a bulk import, a pruned history), the results are fetched again
/// and diffed against what was printed: a batch like any other (nothing when nothing visible changed).
/// A new snapshot line follows only when another file is renamed over the store's path (`mv other.sqlite store.sqlite`;
/// each poll compares the path's device and inode with the open file's): `watch` says so on
/// stderr, reopens the path and prints the new file's snapshot; when the new file is not a
/// failedbanks store, it prints why and exits with the status of that refusal (65 not a store
/// or damaged, …). A store deleted without a replacement goes on being read until a file appears.
///
///     WatchCommand.run(["--db", "/tmp/banks.sqlite", "--sort", "state"])
package enum WatchCommand {
    static let spec = CommandSpec(
        name: "failedbanks watch",
        summary:
            "Print the banks' sections as a JSON snapshot line, then one JSON line per change batch, until interrupted.",
        usage: "[--db PATH] [--sort date|name|state] [--where PREDICATE]",
        options: [
            BankCommandOptions.database,
            BankCommandOptions.sort,
            OptionSpec(
                "--where",
                value: "PREDICATE",
                help: "only banks matching, e.g. \"state == 'TX'\" (see 'failedbanks list --help')"
            ),
        ],
        epilogue: """
            Changes by any process are seen within 500 ms. Stop with Ctrl-C (exit status 0).
            Exit status: 0 interrupted, 64 usage or bad predicate, 65 not a failedbanks store or damaged, 66 no store,
            74 read error, 75 locked by another process.
            """
    )

    /// Runs the subcommand with `arguments` (after `watch`); returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        WatchProcess.run { output, shouldStop in
            run(arguments, output: output, errorOutput: { writeStandardError($0 + "\n") }, shouldStop: shouldStop)
        }
    }

    /// The same with each JSON line going to `output` (which returns false when the
    /// reader is gone), messages to `errorOutput` (usage errors too), and `shouldStop` polled
    /// every tick, just before the store is polled; for tests. `--help` is one call to `output`.
    static func run(
        _ arguments: [String],
        output: @escaping (String) -> Bool,
        errorOutput: (String) -> Void,
        shouldStop: () -> Bool,
        pollInterval: useconds_t = 100_000
    ) -> Int32 {
        runCommand(
            spec: spec,
            arguments: arguments,
            help: { _ = output($0) },
            errorOutput: errorOutput
        ) { parsed in
            var watched: Watched?
            let watch = ResultsWatch(output: output)
            /// Opens the store at the path, prints the snapshot line and follows the controller's batches.
            func start() throws -> Int32? {
                switch try ListCommand.openAndFetch(parsed, command: "watch", for: .watching, errorOutput: errorOutput)
                {
                case .fetched(let store, let context, let controller):
                    watched = Watched(store: store, context: context, controller: controller)
                    watch.show(controller)
                    return nil
                case .exit(let status):
                    return status
                }
            }
            if let status = try start() { return status }
            return try watch.run(until: shouldStop) {
                var replaced = false
                if let old = watched?.store, old.fileAtPath() == .replaced {
                    errorOutput(
                        "\(ProgramName.current) watch: \(old.path): the store file was replaced by another file; reading that one"
                    )
                    old.prepareForReopening()
                    replaced = true
                }
                if replaced {
                    // Another file was renamed over the path: a reset onto the file now there (a new
                    // snapshot line), or its refusal. The old store is released first: it shares
                    // -wal/-shm with the new file by name.
                    watched = nil
                    if let status = try start() { return status }
                }
                guard let context = watched?.context else { return ExitStatus.software }
                do {
                    try context.processExternalChanges()
                } catch {
                    let refusal = StoreRefusal(error, path: context.store.path)
                    errorOutput("\(ProgramName.current): \(refusal.message)")
                    return refusal.status
                }
                usleep(pollInterval)
                return nil
            }
        }
    }

    /// The store, context and controller being watched (released together when the file at the path is replaced).
    private struct Watched {
        var store: Store
        var context: ObjectContext
        var controller: FetchedResultsController
    }
}
