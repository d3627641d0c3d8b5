import CLIKit
import Glibc

/// `failedbanks` with no subcommand: the interactive browser.
///
/// Parses the options, opens (and on first launch fills) the store, then
/// hands the terminal to `BankBrowser`. Every failure before curses starts is
/// one line on stderr and a `sysexits.h` status; the store file is never
/// touched when it is refused.
///
///     exit(BrowserCommand.run(["--db", "banks.sqlite", "--sort", "name"]))
package enum BrowserCommand {
    static let spec = CommandSpec(
        name: "failedbanks",
        summary: "Browse the FDIC Failed Bank List: by closing date (sections by year), by name or by state.",
        usage: "[--db PATH] [--sort date|name|state] [--no-animation] | COMMAND …",
        options: [
            BankCommandOptions.database,
            OptionSpec(
                "--sort",
                value: "ORDER",
                help: "the first tab: date (default), name or state",
                completion: .values(BankSortTab.allCases.map(\.rawValue))
            ),
            OptionSpec("--no-animation", value: nil, help: "apply changes without animating them"),
        ],
        maxPositionals: 0,
        epilogue: """
            On first launch (store missing or empty) the bundled Data/banklist.csv is
            imported ($FAILEDBANKS_DATA names another file). Press ? in the browser for keys.
            """
    )

    /// Runs the browser with `arguments` and returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        runCommand(spec: FailedBanksCommand.program.command, arguments: arguments) { parsed in
            var options = BrowserOptions()
            if let sort = parsed.value("--sort") {
                guard let tab = BankSortTab(argument: sort) else {
                    writeStandardError("\(ProgramName.current): --sort must be date, name or state (got '\(sort)')\n")
                    return ExitStatus.usage
                }
                options.sort = tab
            }
            options.animated = !parsed.flag("--no-animation")
            options.databasePath = parsed.value("--db")
            return BrowserLauncher(options: options).run()
        }
    }
}
