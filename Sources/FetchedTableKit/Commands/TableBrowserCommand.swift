import CLIKit
import Foundation
import Glibc
import TerminalUI

/// `fetchedtable FILE [options]`: the interactive browser.
///
/// Every refusal — bad usage, a missing or unreadable file, an unknown table or
/// column, no terminal — is one line on stderr and a `sysexits.h` status before
/// curses touches the terminal.
///
///     exit(TableBrowserCommand.run(["school.sqlite", "--table", "student", "--section", "subject"]))
package enum TableBrowserCommand {
    /// Runs the browser with `arguments`; returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        FetchedTableCommand.run(
            spec: FetchedTableCommand.program.command,
            arguments: arguments,
            help: { print($0) },
            errorOutput: { writeStandardError($0 + "\n") }
        ) { parsed in
            let options = try TableOptions(parsed, queryLine: true)
            if options.postgres != nil && options.query == nil {
                return try TableBrowserCommand.browsePostgres(options)
            }
            if options.query != nil { return try runQueryLoading(options) }
            if options.postgres == nil, try TableFileKind.of(path: options.file).isCached,
                !CSVSource.isCached(path: options.file, missingValues: options.missingValues)
            {
                return try runLoading(options)
            }
            let database = try TableDatabase.open(options: options)
            if let table = try database.soleTable(options.table, command: "") {
                _ = try database.query(for: table, options: options)  // the options checked before curses starts
            }
            let screen = try TableBrowserCommand.openTerminal()
            let browser: TableBrowser
            do {
                browser = try TableBrowser(database: database, options: options, backend: screen)
            } catch {
                screen.close()
                throw error
            }
            // --query: re-run when a table it reads changes; the list sees the result's file change.
            browser.followQuery()
            let exit = browser.run()
            screen.close()
            if let error = browser.loadError { throw TableDatabase.refusal(error, path: options.file) }
            for line in browser.log.suffix(5) { printError(line) }
            return exit.exitStatus
        }
    }

    /// A CSV or JSON file without an up-to-date cache: its first rows and the progress on the terminal
    /// while it loads, then the browser (``CSVLoadingSession``).
    static func runLoading(_ options: TableOptions) throws -> Int32 {
        let screen = try TableBrowserCommand.openTerminal()
        let loop = TerminalRunLoop(backend: screen, minimumWidth: 24, minimumHeight: 8)
        let session = CSVLoadingSession(options: options, loop: loop)
        session.start()
        let exit = loop.run()
        while loop.pop() != nil {}
        screen.close()
        if let notice = session.notice { printError(notice) }
        if let error = session.error { throw TableDatabase.refusal(error, path: options.file) }
        if let error = session.browser?.loadError { throw TableDatabase.refusal(error, path: options.file) }
        for line in (session.browser?.log ?? []).suffix(5) { printError(line) }
        return exit.exitStatus
    }

    /// `--query` of a file or a server: the query checked before curses starts (refused: exit 64
    /// naming why), its first run shown while it goes (``QueryLoading``: the time and the rows so
    /// far), then the browser of its result, followed. Esc during the run stops it (SQLite's
    /// interrupt, the server's `PQcancel`): the message "the query was cancelled" and status 130
    /// (as Ctrl-C's, 128 + SIGINT).
    static func runQueryLoading(_ options: TableOptions) throws -> Int32 {
        let source =
            options.postgres != nil ? try QuerySource.preparePostgres(options) : try TableDatabase.prepareQuery(options)
        let screen = try TableBrowserCommand.openTerminal()
        let loop = TerminalRunLoop(backend: screen, minimumWidth: 24, minimumHeight: 8)
        let place = options.postgres?.label ?? (options.file as NSString).lastPathComponent
        let loading = QueryLoading(source: source, title: place, loop: loop)
        var browser: TableBrowser?
        // A server's: the list of its tables and queries, made beneath the result when the `:` line opens a tab.
        var serverList: PostgresBrowser?
        var failure: Error?
        loading.onCancel = { loop.quit() }
        loading.onFinish = { result in
            do {
                try result.get()
                let opened = try TableBrowser(
                    database: try TableDatabase.queryResult(
                        source,
                        path: options.postgres?.label ?? options.file,
                        writeRefusal: source.fileRefusal ?? (options.readOnly ? "opened with --read-only" : nil)
                    ),
                    options: options,
                    loop: loop
                )
                opened.followQuery()
                // A CSV or JSON file's: the rows appended to it reach its cache, which the query reads.
                if source.fileKind.isCached { opened.startFollowing() }
                if let target = options.postgres {
                    let list = PostgresBrowser(
                        target: target,
                        options: TableBrowser.listedTableOptions(options),
                        loop: loop
                    )
                    list.listQueries(of: opened)
                    serverList = list
                }
                browser = opened
            } catch {
                failure = error
                loop.quit()
            }
        }
        loading.start()
        let exit = loop.run()
        serverList?.stop()
        while loop.pop() != nil {}
        screen.close()
        if loading.isCancelled {
            loading.waitUntilStopped()
            printError("the query was cancelled")
            return TerminalRunLoop.Exit.signal(SIGINT).exitStatus
        }
        if let failure { throw QuerySource.refusal(failure, options: options) }
        if let error = browser?.loadError { throw TableDatabase.refusal(error, path: options.file) }
        for line in ((browser?.log ?? []) + (serverList?.log ?? [])).suffix(5) { printError(line) }
        return exit.exitStatus
    }

    /// The terminal for a browser: refused (``terminalRefusal()``) when standard input or output is
    /// not one or TERM is unset, else curses started on it.
    static func openTerminal() throws(FetchedTableError) -> CursesBackend {
        if let refusal = terminalRefusal() { throw refusal }
        do { return try CursesBackend() } catch {
            throw FetchedTableError(
                "cannot use the terminal: \(FetchedTableError.reason(error))",
                status: ExitStatus.failure
            )
        }
    }

    /// Why the browser cannot take the terminal over, if it cannot.
    static func terminalRefusal() -> FetchedTableError? {
        if isatty(STDIN_FILENO) != 1 || isatty(STDOUT_FILENO) != 1 {
            let which = isatty(STDIN_FILENO) != 1 ? "standard input" : "standard output"
            return FetchedTableError(
                "the browser needs a terminal, but \(which) is not one (use 'fetchedtable list' in scripts)",
                status: ExitStatus.failure
            )
        }
        if (ProcessInfo.processInfo.environment["TERM"] ?? "").isEmpty {
            return FetchedTableError(
                "TERM is not set, so the terminal cannot be used (use 'fetchedtable list' in scripts)",
                status: ExitStatus.failure
            )
        }
        return nil
    }
}
