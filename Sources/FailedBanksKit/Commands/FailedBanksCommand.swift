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
    package static let version = BuildInfo.version

    /// The program: its subcommands (in the order `--help` lists them), and what its man page says.
    package static let program = ProgramSpec(
        command: BrowserCommand.spec,
        run: BrowserCommand.run,
        subcommands: [
            Subcommand(
                ImportCommand.spec,
                brief: "import FDIC Failed Bank List CSV files into the store",
                run: ImportCommand.run
            ),
            Subcommand(
                UpdateCommand.spec,
                brief: "download the FDIC's current list and import it",
                run: UpdateCommand.run
            ),
            Subcommand(ListCommand.spec, brief: "print the banks by section (text, JSON or CSV)", run: ListCommand.run),
            Subcommand(ChartCommand.spec, brief: "print the failures per year as a bar chart", run: ChartCommand.run),
            Subcommand(
                WatchCommand.spec,
                brief: "print the controller's change batches as JSON Lines until interrupted",
                run: WatchCommand.run
            ),
        ],
        environment: [
            ManualEntry("FAILEDBANKS_DB", "The store when --db is not given."),
            ManualEntry(
                "XDG_DATA_HOME",
                "The folder of the default store, $XDG_DATA_HOME/failedbanks/failedbanks.sqlite (~/.local/share when unset)."
            ),
            ManualEntry("FAILEDBANKS_DATA", "The CSV file imported on first launch instead of the bundled list."),
            ManualEntry("FAILEDBANKS_URL", "Where update downloads the list when --url is not given."),
        ],
        files: [
            ManualEntry(
                "~/.local/share/failedbanks/failedbanks.sqlite",
                "The default store (SQLite), made on first launch from the bundled FDIC list."
            ),
            ManualEntry(
                "/usr/share/fetchedtable-tools/banklist.csv",
                "The FDIC Failed Bank List the package bundles, imported into an empty store."
            ),
        ],
        examples: [
            ManualEntry("failedbanks", "Open the browser on the default store (imported on first launch)."),
            ManualEntry("failedbanks list --sort state --format csv", "Every bank as CSV, by state, then name."),
            ManualEntry(
                "failedbanks list --where \"state == 'TX' AND details.closeYear >= 2020\"",
                "The Texas failures since 2020."
            ),
            ManualEntry("failedbanks update", "Download the FDIC's current list and import what changed."),
            ManualEntry("failedbanks chart", "The failures per year as a bar chart."),
        ],
        exitStatuses: ManualEntry.standardExitStatuses + [
            ManualEntry("69", "update: the download failed (network, server or HTTP error); nothing changed"),
            ManualEntry("75", "the store is locked by another process (try again)"),
        ],
        seeAlso: ["fetchedtable", "mystash"]
    )

    /// Runs the command line `arguments` (without the program name) and
    /// returns the exit status (`sysexits.h`).
    ///
    ///     FailedBanksCommand.main(["--version"])          // prints "failedbanks 1.0.0 (commit …)", returns 0
    ///     FailedBanksCommand.main(["list", "--sort", "name"])
    public static func main(_ arguments: [String]) -> Int32 {
        program.main(arguments)
    }
}
