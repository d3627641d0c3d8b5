import CLIKit
import FetchedResults
import FetchedResultsUI
import Foundation
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// `fetchedtable watch` over a PostgreSQL table: a copy kept current from the server.
extension TableWatchCommand {
    /// `fetchedtable watch URL|--pg`: the snapshot line, then a line per change batch. When the
    /// table's columns change on the server (a column renamed, added, dropped), it is copied again
    /// with its new shape and a new snapshot line follows, as for a SQLite file replaced.
    static func watchPostgres(
        _ opening: PostgresOpening,
        options: TableOptions,
        output: @escaping (String) -> Bool,
        shouldStop: () -> Bool,
        pollInterval: useconds_t
    ) throws(FetchedTableError) -> Int32 {
        PostgresNoticeLog.shared.printAsTheyCome()
        for line in PostgresNoticeLog.shared.take() { writeStandardError("\(ProgramName.current): \(line)\n") }
        var opening = opening
        while true {
            let state = PostgresConnectionState()
            let readerGone = try watchCopy(
                opening,
                options: options,
                state: state,
                output: output,
                shouldStop: shouldStop,
                pollInterval: pollInterval
            )
            guard !readerGone, !shouldStop(), case .tableChanged(let reason) = state.current else {
                return ExitStatus.ok
            }
            writeStandardError("\(ProgramName.current) watch: \(reason): copying it again\n")
            let server = try PostgresServer.connect(opening.server.target, warn: { _ in })
            opening = try PostgresOpening.open(
                server.table(named: opening.table.name.quoted),
                on: server,
                options: options
            )
        }
    }

    /// One copy of the watched table, followed until the reader goes, `shouldStop` says so or
    /// the table's columns change (`state` says so); true when the reader went.
    private static func watchCopy(
        _ opening: PostgresOpening,
        options: TableOptions,
        state: PostgresConnectionState,
        output: @escaping (String) -> Bool,
        shouldStop: () -> Bool,
        pollInterval: useconds_t
    ) throws(FetchedTableError) -> Bool {
        // Ctrl-C while copying (a lock another session holds on the table may keep it waiting)
        // cancels the copy on the server and ends watch, as it does once following.
        guard
            let copy = try PostgresCopy.load(
                opening,
                command: "\(ProgramName.current) watch",
                until: shouldStop,
                interval: pollInterval
            )
        else { return false }
        let (opened, controller) = try copy.fetch(options)
        let watch = ResultsWatch(output: output)
        watch.show(controller)
        let label = options.file
        // Each batch the follower applies wakes the loop at once: no poll interval between a commit and its line.
        let applied = DispatchSemaphore(value: 0)
        copy.replica.follow(
            track: options.track,
            status: { status in
                // Said on stderr, once per change of state: stdout stays JSON Lines.
                guard state.record(status) else { return }
                switch status {
                case .live: writeStandardError("\(ProgramName.current) watch: connected to \(label) again\n")
                case .reconnecting(_, let lastError):
                    writeStandardError(
                        "\(ProgramName.current) watch: reconnecting to \(label): \(PostgresServer.oneLine(lastError))\n"
                    )
                case .refused(_, let reason, let advice):
                    writeStandardError(
                        "\(ProgramName.current) watch: \(label) refuses: \(PostgresServer.oneLine(reason)) — \(advice)\n"
                    )
                case .tableChanged:
                    applied.signal()
                case .untracked(let reason):
                    writeStandardError("\(ProgramName.current) watch: \(reason)\n")
                case .notLive(let reason, _):
                    writeStandardError(
                        "\(ProgramName.current) watch: not live: \(reason), which can change without a write; "
                            + "the table is copied again every few seconds, and a batch is what changed in between\n"
                    )
                }
            },
            applied: { _ in applied.signal() }
        )
        defer { copy.replica.stop(waiting: false) }  // a frozen server must not hold the exit
        _ = try watch.run(until: shouldStop) { () throws(FetchedTableError) -> Int32? in
            if case .tableChanged = state.current { return ExitStatus.ok }
            do {
                try controller.context.processExternalChanges()
            } catch {
                throw TableDatabase.refusal(error, path: opened.database.path)
            }
            _ = applied.wait(timeout: .now() + .microseconds(Int(pollInterval)))
            return nil
        }
        return watch.readerGone
    }
}
