import CLIKit

/// The `failedbanks` command: dispatches to a subcommand, or opens the browser.
///
/// The executable is a one-liner around this type, so every path of the
/// command line is testable in-process:
///
///     ProgramName.current = "failedbanks"
///     exit(FailedBanksCommand.main(Array(CommandLine.arguments.dropFirst())))
///
/// `failedbanks import FILE…`, `failedbanks update …`, `failedbanks list …` and `failedbanks watch …`
/// serve scripts and tests; `failedbanks [--db PATH] [--sort …]` with no
/// subcommand opens the interactive browser.
public enum FailedBanksCommand {
    /// The version printed by `--version`.
    public static let version = "1.0.0"

    /// The subcommands, in the order `--help` lists them.
    static let subcommands: [(name: String, summary: String)] = [
        ("import", "import FDIC Failed Bank List CSV files into the store"),
        ("update", "download the FDIC's current list and import it"),
        ("list", "print the banks by section (text, JSON or CSV)"),
        ("chart", "print the failures per year as a bar chart"),
        ("watch", "print the controller's change batches as JSON Lines until interrupted"),
    ]

    /// Runs the command line `arguments` (without the program name) and
    /// returns the exit status (`sysexits.h`).
    ///
    ///     FailedBanksCommand.main(["--version"])          // prints "failedbanks 1.0.0", returns 0
    ///     FailedBanksCommand.main(["list", "--sort", "name"])
    public static func main(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            return BrowserCommand.run([])
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "import":
            return ImportCommand.run(rest)
        case "update":
            return UpdateCommand.run(rest)
        case "list":
            return ListCommand.run(rest)
        case "chart":
            return ChartCommand.run(rest)
        case "watch":
            return WatchCommand.run(rest)
        case "--version", "-V":
            print("\(ProgramName.current) \(version)")
            return ExitStatus.ok
        case "help":
            if let topic = rest.first, subcommands.contains(where: { $0.name == topic }) {
                return main([topic, "--help"])
            }
            return BrowserCommand.run(["--help"])
        default:
            if !first.hasPrefix("-") {
                writeStandardError(
                    "\(ProgramName.current): unknown command '\(first)' (try '\(ProgramName.current) --help')\n"
                )
                return ExitStatus.usage
            }
            return BrowserCommand.run(arguments)
        }
    }
}
