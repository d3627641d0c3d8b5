import CLIKit
import SQLiteStore

/// The `fetchedtable` command: dispatches to `list`, `watch` or `untrack`, or opens the browser.
///
/// The executable is a one-liner around this type, so every path of the command
/// line is testable in-process:
///
///     ProgramName.current = "fetchedtable"
///     exit(FetchedTableCommand.main(Array(CommandLine.arguments.dropFirst())))
public enum FetchedTableCommand {
    /// The version printed by `--version`.
    public static let version = "1.0.0"

    /// Runs the command line `arguments` (without the program name) and returns the exit status (`sysexits.h`).
    ///
    ///     FetchedTableCommand.main(["list", "school.sqlite", "--table", "student", "--format", "json"])
    public static func main(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            writeStandardError(
                "\(TableOptions.browserSpec.name): missing FILE (usage: \(TableOptions.browserSpec.name) "
                    + "\(TableOptions.browserSpec.usage))\n"
            )
            return ExitStatus.usage
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "list": return TableListCommand.run(rest)
        case "watch": return TableWatchCommand.run(rest)
        case "untrack": return UntrackCommand.run(rest)
        case "--version", "-V":
            print("\(ProgramName.current) \(version)")
            return ExitStatus.ok
        case "help":
            if let topic = rest.first, ["list", "watch", "untrack"].contains(topic) { return main([topic, "--help"]) }
            return main(["--help"])
        default:
            return TableBrowserCommand.run(arguments)
        }
    }

    /// CLIKit's `runCommand` with this command's errors: an ``OptionError`` is a usage error
    /// (`list: --sort: …`, 64), a ``FetchedTableError`` says `fetchedtable: message` with its status.
    ///
    /// Once `body` is done and its connections are closed, a `-shm` that reading a WAL file
    /// made beside it (there was a `-wal` but no `-shm`) is removed again when nothing else
    /// has the file open: a session leaves the files as it found them.
    static func run(
        spec: CommandSpec,
        arguments: [String],
        help: (String) -> Void,
        errorOutput: (String) -> Void,
        _ body: (ParsedArguments) throws -> Int32
    ) -> Int32 {
        var files: ForeignDatabaseFiles?
        defer { files?.removeSharedMemoryMadeSince() }
        return runCommand(
            spec: spec,
            arguments: arguments,
            help: help,
            errorOutput: errorOutput,
            failure: { error in
                switch error {
                case let error as OptionError: ("\(spec.name): \(error.message)", ExitStatus.usage)
                case let error as FetchedTableError: ("\(ProgramName.current): \(error.message)", error.status)
                default: nil
                }
            },
            { parsed in
                if let file = try? TableOptions(parsed).file { files = ForeignDatabaseFiles(path: file) }
                return try body(parsed)
            }
        )
    }
}
