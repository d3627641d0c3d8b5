import CLIKit
import FetchedResults
import FetchedResultsUI
import Foundation
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// `list`, `watch` and the browser over a PostgreSQL table.
enum PostgresFaces {
    /// `fetchedtable list URL|--pg`: the rows in the formats of the SQLite face.
    static func list(
        _ opening: PostgresOpening,
        options: TableOptions,
        format: ResultsListWriter.Format,
        output: (String) -> Void
    ) throws(FetchedTableError) -> Int32 {
        let copy = try PostgresCopy.load(opening)
        let (opened, controller) = try copy.fetch(options)
        let writer = TableListCommand.makeWriter(opened, chosen: options.columns)
        do {
            try writer.write(controller, format: format, output: output)
        } catch {
            throw TableDatabase.refusal(error, path: options.file)
        }
        return ExitStatus.ok
    }

    /// `fetchedtable watch URL|--pg`: the snapshot line, then a line per change batch.
    static func watch(
        _ opening: PostgresOpening,
        options: TableOptions,
        output: @escaping (String) -> Bool,
        shouldStop: () -> Bool,
        pollInterval: useconds_t
    ) throws(FetchedTableError) -> Int32 {
        PostgresNoticeLog.shared.printAsTheyCome()
        for line in PostgresNoticeLog.shared.take() { writeStandardError("\(ProgramName.current): \(line)\n") }
        let copy = try PostgresCopy.load(opening)
        let (opened, controller) = try copy.fetch(options)
        var readerGone = !output(ResultsJSONLines.snapshot(controller))
        controller.onChange = { batch in
            guard !readerGone, !batch.isEmpty else { return }
            if !output(ResultsJSONLines.batch(batch)) { readerGone = true }
        }
        try? controller.prepareForChanges()
        let label = options.file
        let state = PostgresConnectionState()
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
                }
            },
            applied: { _ in applied.signal() }
        )
        defer { copy.replica.stop(waiting: false) }  // a frozen server must not hold the exit
        while !readerGone && !shouldStop() {
            do {
                try controller.context.processExternalChanges()
            } catch {
                throw TableDatabase.refusal(error, path: opened.database.path)
            }
            _ = applied.wait(timeout: .now() + .microseconds(Int(pollInterval)))
        }
        return ExitStatus.ok
    }

    /// `fetchedtable URL|--pg`: the browser (the table list first without `--table`).
    static func browse(_ options: TableOptions) throws(FetchedTableError) -> Int32 {
        let (server, opening) = try PostgresOpening.open(options, command: "")
        if let refusal = TableBrowserCommand.terminalRefusal() { throw refusal }
        let screen: CursesBackend
        do { screen = try CursesBackend() } catch {
            throw FetchedTableError(
                "cannot use the terminal: \(FetchedTableError.reason(error))",
                status: ExitStatus.failure
            )
        }
        let loop = TerminalRunLoop(screen: screen, minimumWidth: 24, minimumHeight: 8)
        let browser = PostgresBrowser(server: server, options: options, loop: loop)
        do {
            if let opening { browser.open(opening) } else { try browser.showTableList() }
        } catch {
            screen.close()
            throw error
        }
        let exit = loop.run()
        browser.stop()
        while loop.pop() != nil {}
        screen.close()
        if let error = browser.error { throw error }
        for line in (browser.log + PostgresNoticeLog.shared.take()).suffix(5) { printError(line) }
        return exit.exitStatus
    }

}
