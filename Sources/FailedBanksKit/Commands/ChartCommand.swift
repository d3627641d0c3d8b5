import CLIKit
import FetchedResults
import Foundation
import SQLiteStore

/// `failedbanks chart [--db PATH] [--where PREDICATE]`: prints the "Failures by
/// year" chart of the browser (`c`) on standard output: the title, a blank line,
/// one row per year, newest first: the year, a bar scaled so that the largest
/// year fills the width, the count.
///
///     Failures by year
///
///      2010 ████████████████████████████████████████████████████████████████████ 157
///      2009 ████████████████████████████████████████████████████████████▋ 140
///
/// The width is the terminal's (or `$COLUMNS`, else 80); bars are `#` under `NO_COLOR`
/// or in fewer than 60 columns. Exit statuses as for `list`.
///
///     ChartCommand.run(["--db", "/tmp/banks.sqlite", "--where", "state == 'CA'"])
package enum ChartCommand {
    static let spec = CommandSpec(
        name: "failedbanks chart",
        summary: "Print the number of failures per year as a bar chart, newest year first.",
        usage: "[--db PATH] [--where PREDICATE]",
        options: [
            BankCommandOptions.database,
            OptionSpec("--where", value: "PREDICATE", help: "count only the banks that match, e.g. state == \"CA\""),
        ],
        maxPositionals: 0,
        epilogue: "Exit status: 0 ok, 64 usage, 65 a store that is not failedbanks' or is damaged, 66 no store."
    )

    /// Runs the subcommand with `arguments` (after `chart`); returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        run(
            arguments,
            environment: FailedBankStore.currentEnvironment(),
            width: terminalWidth(),
            output: { FileHandle.standardOutput.write(Data($0.utf8)) },
            errorOutput: { writeStandardError($0 + "\n") }
        )
    }

    /// The same with the environment, the width and the output given (text with its newlines), for tests.
    static func run(
        _ arguments: [String],
        environment: [String: String],
        width: Int,
        output: (String) -> Void,
        errorOutput: (String) -> Void
    ) -> Int32 {
        runCommand(spec: spec, arguments: arguments, help: { output($0 + "\n") }, errorOutput: errorOutput) {
            parsed in
            let filter = try ListCommand.predicate(parsed, command: "chart")
            let store: Store
            switch ListCommand.openStore(parsed.value("--db"), for: .reading) {
            case .success(let s): store = s
            case .failure(let refusal):
                errorOutput("\(ProgramName.current): \(refusal.message)")
                return refusal.status
            }
            let controller = FailuresByYear.makeController(context: ObjectContext(store: store), filter: filter)
            do {
                try controller.performFetch()
            } catch StoreError.unknownKeyPath(let keyPath, _) {
                errorOutput("\(ProgramName.current) chart: --where: unknown key path \"\(keyPath)\" (try --help)")
                return ExitStatus.usage
            } catch {
                let refusal = StoreRefusal(error, path: store.path)
                errorOutput("\(ProgramName.current): \(refusal.message)")
                return refusal.status
            }
            let title = FailuresByYear.title(filterText: parsed.value("--where"))
            let lines = FailuresByYear.lines(
                bars: FailuresByYear.bars(of: controller),
                title: title,
                width: width,
                usesBlocks: FailuresByYear.usesBlocks(width: width, environment: environment)
            )
            output(lines.joined(separator: "\n") + "\n")
            return ExitStatus.ok
        }
    }

    /// Standard output's width when it is a terminal, else `$COLUMNS`, else 80.
    static func terminalWidth() -> Int {
        var size = winsize()
        if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let columns = FailedBankStore.currentEnvironment()["COLUMNS"].flatMap(Int.init), columns > 0 {
            return columns
        }
        return 80
    }
}
