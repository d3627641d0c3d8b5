import CLIKit
import FetchedResultsScripts
import Foundation
import SQLiteStore

/// `failedbanks update [--url URL] [--db PATH] [--timeout SECONDS] [--quiet]`
///
/// Downloads the current Failed Bank List and imports it into the store by
/// upsert, as `import` does (see ``BankListUpdater``). The address is `--url`,
/// else `$FAILEDBANKS_URL`, else the FDIC's CSV download
/// (``BankListSource/fdicURL``). The request is conditional on the validators of
/// the last successful update, so an unchanged list costs a 304 and changes nothing.
/// The body is asked for uncompressed (`Accept-Encoding: identity`), capped at 32 MB as it arrives
/// (after any decoding), bounded with its decoding by `--timeout`, and parsed from memory; a SQLite
/// database is refused (the FDIC serves CSV). Redirects are followed to http and https addresses only,
/// and from https to https only; after a redirect the address that answered is printed
/// (`update: downloaded from URL (redirected)`). A plain `http:` address gets a warning on
/// standard error (not under `--quiet`). Text from the server (bank names, a page's title, bad
/// rows) is printed with its control characters escaped.
/// The last line says what changed:
///
///     update: 3 new, 1 changed, 571 unchanged — newest: Held Bank (Eastport, ME), closed 14 November 2025
///
/// | status | meaning |
/// |---|---|
/// | 0  | imported, or the list is current (304) |
/// | 64 | usage error (a bad option, a URL that is not http or https) |
/// | 65 | the body is not a failed bank list (an HTML page, a SQLite database, no FDIC header, bad rows), truncated, or too large |
/// | 69 | the network or the server: no connection, a timeout, an HTTP error status, a redirect not followed |
/// | 73, 74, 75, 77 | the store, as for `import` |
///
/// Every failure leaves the store as it was.
///
///     UpdateCommand.run(["--url", "http://127.0.0.1:8080/banklist.csv", "--db", "/tmp/banks.sqlite"])
package enum UpdateCommand {
    static let spec = CommandSpec(
        name: "failedbanks update",
        summary: "Download the current FDIC Failed Bank List and import it into the store (new banks added, "
            + "changed ones updated, by cert). Nothing changes when the list is current or the download fails.",
        usage: "[--url URL] [--db PATH] [--timeout SECONDS] [--quiet]",
        options: [
            OptionSpec(
                "--url",
                value: "URL",
                help: "where to download the list (default: $FAILEDBANKS_URL, else \(BankListSource.fdicURL))"
            ),
            BankCommandOptions.database,
            OptionSpec("--timeout", value: "SECONDS", help: "give up when the whole request takes longer (default 30)"),
            OptionSpec(
                "--quiet",
                value: nil,
                help: "no progress bar, no summary and no warning (errors are still printed)"
            ),
        ],
        maxPositionals: 0,
        epilogue: """
            The FDIC's list: https://www.fdic.gov/bank-failures/failed-bank-list
            Exit status: 0 ok or current, 64 usage, 65 not a complete bank list (or a database), 69 network, HTTP
            error or a redirect not followed,
            73/74/75/77 the store (as for import).
            """
    )

    /// The default `--timeout`.
    static let defaultTimeout = 30.0

    /// Runs the subcommand with `arguments` (after `update`); returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        run(
            arguments,
            environment: FailedBankStore.currentEnvironment(),
            output: { print($0) },
            errorOutput: { writeStandardError($0 + "\n") },
            progressBars: true
        )
    }

    /// The same with the environment given and the lines going to `output` and `errorOutput`, for tests.
    static func run(
        _ arguments: [String],
        environment: [String: String],
        output: (String) -> Void,
        errorOutput: (String) -> Void,
        progressBars: Bool
    ) -> Int32 {
        let program = ProgramName.current
        func fail(_ message: String) { errorOutput("\(program): \(message)") }
        return runCommand(spec: spec, arguments: arguments, help: output, errorOutput: errorOutput) {
            parsed in
            let quiet = parsed.flag("--quiet")
            var timeout = defaultTimeout
            if let text = parsed.value("--timeout") {
                guard let value = Double(text), value > 0, value.isFinite else {
                    throw CommandLineError.usage(
                        "\(program) update: --timeout must be a number of seconds above 0, not '\(text)' (try --help)"
                    )
                }
                timeout = value
            }
            let address = BankListSource.url(option: parsed.value("--url"), environment: environment)
            guard let url = URL(string: address), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host != nil
            else {
                throw CommandLineError.usage("\(program) update: \(UpdateError.badURL(address).reason) (try --help)")
            }

            let storePath = parsed.value("--db") ?? FailedBankStore.defaultPath(environment: environment)
            let store: Store
            do {
                store = try FailedBankStore.open(path: storePath, for: .writing).store
            } catch {
                fail(StoreRefusal(error, path: storePath).message)
                return StoreRefusal(error, path: storePath).status
            }

            if !quiet && scheme == "http" {
                errorOutput(
                    "\(program): warning: \(address) is plain http: the list can be read and altered on the way "
                        + "(an https address is safer)"
                )
            }
            let bar = quiet || !progressBars ? nil : DownloadProgressBar(label: url.host ?? address)
            do {
                let result = try BankListUpdater(store: store).run(url: url, timeout: timeout) { phase in
                    switch phase {
                    case .downloading(let progress): bar?.update(progress)
                    case .importing: bar?.finish()
                    }
                }
                bar?.finish()
                switch result {
                case .current(let url, let redirectedTo):
                    if !quiet {
                        let answered =
                            redirectedTo.map { "\(DisplayText.escapingControls($0)), redirected from \(url)," } ?? url
                        output("update: the list is current (\(answered) answered 304 Not Modified); nothing changed")
                    }
                case .updated(let summary):
                    if !quiet {
                        if let line = summary.redirectLine { output(line) }
                        output(summary.summaryLine)
                    }
                }
                return ExitStatus.ok
            } catch let error as UpdateError {
                bar?.finish()
                if case .badRows(_, let issues, let total) = error {
                    for issue in issues { errorOutput(issue.escapedDescription) }
                    if total > issues.count { errorOutput("… and \(total - issues.count) more") }
                    fail(error.message.split(separator: "\n").last.map(String.init) ?? error.reason)
                } else {
                    fail(error.message)
                }
                return error.exitStatus
            } catch BankImportError.store(_, let error) {
                bar?.finish()
                let refusal = StoreRefusal(error, path: store.path).adding("; nothing was changed")
                fail(refusal.message)
                return refusal.status
            } catch {
                bar?.finish()
                fail("update: \(ErrorReason.text(of: error))")
                return ExitStatus.software
            }
        }
    }
}
