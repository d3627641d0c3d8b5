import CLIKit
import CSVImport
import Glibc
import TestSupport

// banklist-gen: writes a synthetic FDIC Failed Bank List (seeded, reproducible).
//
//     banklist-gen --rows 500 --seed 2024 --output Data/banklist.csv
//     banklist-gen --rows 1000000 --output /tmp/banks-1m.csv

ProgramName.current = "banklist-gen"

let spec = CommandSpec(
    name: "banklist-gen",
    summary:
        "Write a synthetic FDIC Failed Bank List in the FDIC's current CSV format (UTF-8, CRLF). Same seed, same bytes.",
    usage: "[--rows N] [--seed S] [--output FILE]",
    options: [
        OptionSpec("--rows", value: "N", help: "number of banks (default 500)"),
        OptionSpec("--seed", value: "S", help: "seed of the generator (default 2024)"),
        OptionSpec("--output", value: "FILE", help: "where to write (default: standard output)"),
    ]
)

let status = runCommand(spec: spec, arguments: Array(CommandLine.arguments.dropFirst())) { arguments in
    guard let rows = Int(arguments.value("--rows") ?? "500"), rows >= 0 else {
        throw CommandLineError.usage(
            "banklist-gen: --rows needs a non-negative whole number (try 'banklist-gen --help')"
        )
    }
    guard let seed = UInt64(arguments.value("--seed") ?? "2024") else {
        throw CommandLineError.usage(
            "banklist-gen: --seed needs a non-negative whole number (try 'banklist-gen --help')"
        )
    }
    let output = arguments.value("--output") ?? "-"
    do {
        try BankListGenerator(seed: seed).write(rows: rows, to: output)
    } catch let error as CSVError {
        printError("\(error)")
        return ExitStatus.cantCreate
    }
    return ExitStatus.ok
}
exit(status)
