import CLIKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `failedbanks` with no subcommand: the interactive browser.
///
/// Parses the options, opens (and on first launch fills) the store, then
/// hands the terminal to `BankBrowser`. Every failure before curses starts is
/// one line on stderr and a `sysexits.h` status; the store file is never
/// touched when it is refused.
///
///     exit(BrowserCommand.run(["--db", "banks.sqlite", "--sort", "name"]))
public enum BrowserCommand {
    static let spec = CommandSpec(
        name: "failedbanks",
        summary: "Browse the FDIC Failed Bank List: by closing date (sections by year), by name or by state.",
        usage: "[--db PATH] [--sort date|name|state] [--no-animation] | import|update|list|chart|watch …",
        options: [
            OptionSpec(
                "--db",
                value: "PATH",
                help: "the store (default: $FAILEDBANKS_DB, then the XDG data directory)"
            ),
            OptionSpec("--sort", value: "ORDER", help: "the first tab: date (default), name or state"),
            OptionSpec("--no-animation", value: nil, help: "apply changes without animating them"),
            OptionSpec("--version", value: nil, help: "print the version and exit"),
        ],
        maxPositionals: 0,
        epilogue: """
            commands:
              import FILE…   import FDIC Failed Bank List CSV files into the store
              update         download the FDIC's current list and import it
              list           print the banks by section (text, JSON or CSV)
              chart          print the failures per year as a bar chart
              watch          print the controller's change batches as JSON Lines
            Run 'failedbanks COMMAND --help' for a command's options.

            On first launch (store missing or empty) the bundled Data/banklist.csv is
            imported ($FAILEDBANKS_DATA names another file). Press ? in the browser for keys.
            """
    )

    /// Runs the browser with `arguments` and returns the exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        runCommand(spec: spec, arguments: arguments) { parsed in
            if parsed.flag("--version") {
                print("\(ProgramName.current) \(FailedBanksCommand.version)")
                return ExitStatus.ok
            }
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
