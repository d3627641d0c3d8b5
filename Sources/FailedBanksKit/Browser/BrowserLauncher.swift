import BulkImport
import CLIKit
import Glibc
import SQLiteStore
import TerminalUI

/// Everything between the parsed command line and the first frame: the
/// store (opened, refused, or opened read-only), the first-launch import, the
/// terminal. Every failure here is one line on stderr and a `sysexits.h`
/// status, before curses touches the terminal; a refused store file is left
/// exactly as it was.
///
///     exit(BrowserLauncher(options: options).run())
struct BrowserLauncher {
    var options: BrowserOptions
    var environment: [String: String] = BundledData.currentEnvironment()

    /// A launch that cannot go on (no terminal, a failed first import), as the sentence and
    /// status the user gets. (A store that cannot be used is a ``StoreRefusal``.)
    struct Refusal: Error {
        var message: String
        var status: Int32
    }

    func run() -> Int32 {
        let path = options.databasePath ?? FailedBankStore.defaultPath(environment: environment)
        do {
            // An existing file is checked first (a bad one is refused even without a terminal);
            // a missing one is created only once we know there is a terminal to show it on.
            var opened: (store: Store, readOnlyReason: String?)?
            if fileExists(path) { opened = try openStore(at: path) }
            if let refusal = terminalRefusal() {
                printError(refusal.message)
                return refusal.status
            }
            if opened == nil { opened = try openStore(at: path) }
            guard let (store, readOnlyReason) = opened else { return ExitStatus.software }
            opened = nil
            if readOnlyReason == nil { try importBundledDataIfEmpty(store) }
            // Handed over: the browser must be the store's only owner, to let it go when
            // another file is renamed over the path (ListScreen.followReplacedStore()).
            return runBrowser(store: consume store, readOnlyReason: readOnlyReason)
        } catch let refusal as Refusal {
            printError(refusal.message)
            return refusal.status
        } catch {
            let refusal = StoreRefusal(error, path: path)  // a StoreRefusal passes through unchanged
            printError(refusal.message)
            return refusal.status
        }
    }

    // MARK: The terminal

    /// Why the browser cannot take the terminal over, if it cannot.
    func terminalRefusal() -> Refusal? {
        if isatty(STDIN_FILENO) != 1 || isatty(STDOUT_FILENO) != 1 {
            let which = isatty(STDIN_FILENO) != 1 ? "standard input" : "standard output"
            return Refusal(
                message: "the browser needs a terminal, but \(which) is not one (use 'failedbanks list' in scripts)",
                status: ExitStatus.failure
            )
        }
        if (environment["TERM"] ?? "").isEmpty {
            return Refusal(
                message: "TERM is not set, so the terminal cannot be used (use 'failedbanks list' in scripts)",
                status: ExitStatus.failure
            )
        }
        return nil
    }

    func runBrowser(store: consuming Store, readOnlyReason: String?) -> Int32 {
        let path = store.path
        let screen: CursesBackend
        do {
            screen = try CursesBackend()
        } catch {
            printError("cannot use the terminal: \(ErrorReason.text(of: error))")
            return ExitStatus.failure
        }
        let browser: BankBrowser
        do {
            browser = try BankBrowser(
                store: consume store,
                options: options,
                backend: screen,
                readOnlyReason: readOnlyReason,
                cacheDirectory: environment["FAILEDBANKS_CACHE"]
            )
        } catch {
            screen.close()
            let refusal = StoreRefusal(error, path: path)
            printError(refusal.message)
            return refusal.status
        }
        let exit = browser.run()
        screen.close()
        if let error = browser.loadError {
            // The first fetch, deferred until after the first frame, failed: as if it had failed before it.
            let refusal = StoreRefusal(error, path: path)
            printError(refusal.message)
            return refusal.status
        }
        for line in browser.log.suffix(5) { printError(line) }
        return exit.exitStatus
    }

    // MARK: The store

    /// Opens the store for writing, or read-only (with the reason) when the
    /// file or its directory cannot be written. Waits while another process
    /// holds the write lock. Throws a ``StoreRefusal`` for a file that is not
    /// ours (see ``FailedBankStore/open(path:for:model:waiting:)``).
    func openStore(at path: String) throws(StoreRefusal) -> (Store, String?) {
        let opened = try FailedBankStore.open(
            path: path,
            for: .browsing,
            model: BrowserModel.model,
            waiting: { printError($0) }
        )
        return (opened.store, opened.readOnlyReason)
    }

    // MARK: First launch

    /// Imports the bundled `Data/banklist.csv` into an empty store, with
    /// progress on stderr (curses has not started yet).
    func importBundledDataIfEmpty(_ store: Store) throws {
        let table = store.model.entity(named: FailedBankModel.info)?.tableName ?? "failed_bank_info"
        // EXISTS, not count(*): O(1) on a million banks.
        guard (try store.database.scalar("SELECT EXISTS (SELECT 1 FROM \(table))").int64 ?? 0) == 0 else { return }
        guard let csv = BundledData.bankListPath(environment: environment) else {
            printError(
                "the store is empty and no bundled Data/banklist.csv was found (set FAILEDBANKS_DATA, or run 'failedbanks import FILE')"
            )
            return
        }
        writeStandardError("\(ProgramName.current): first launch: importing \(csv) into \(store.path)…\n")
        let bar = ImportProgressBar(label: "banklist.csv")
        do {
            let summary = try BankImporter(store: store).importFile(csv, progress: bar.update)
            bar.finish()
            writeStandardError("\(ProgramName.current): \(summary.summaryLine)\n")
        } catch BankImportError.store(let csvPath, let error) {
            bar.finish()
            throw StoreRefusal(error, path: store.path).adding("; nothing was imported from \(csvPath)")
        } catch let error as BankImportError {
            bar.finish()
            throw Refusal(message: error.messages.joined(separator: "; "), status: error.exitStatus)
        }
    }

    // MARK: Files

    func fileExists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }
}
