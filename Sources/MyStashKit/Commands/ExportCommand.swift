import CLIKit
import Foundation
import Glibc

/// `mystash export FILE --format csv [--yes]`: every note and password in
/// plaintext, as a Bitwarden CSV (which `mystash import` and other managers read).
///
/// The file is created with mode 0600 and never overwritten; on a terminal
/// the command asks first, and a script must say `--yes`. Cells that would
/// start a spreadsheet formula are escaped (`FormulaEscaping`).
///
///     ExportCommand.run(["/tmp/out.csv", "--format", "csv", "--yes", "--passphrase-fd", "3"])
enum ExportCommand {
    static let spec = CommandSpec(
        name: "mystash export",
        summary: "Write every note and password in plaintext to a new CSV file (mode 0600).",
        usage: "FILE --format csv [--yes] [--db PATH] [--passphrase-fd N]",
        options: [
            OptionSpec("--format", value: "FORMAT", help: "csv (Bitwarden's columns)", completion: .values(["csv"])),
            OptionSpec("--yes", value: nil, help: "do not ask for confirmation (for scripts)"),
        ] + StashUnlocker.options,
        minPositionals: 1,
        maxPositionals: 1,
        epilogue: """
            The export is plaintext: keep it safe and delete it when done.
            A name, URL or notes cell that begins with =, +, -, @, a tab or a carriage return is
            written with a ' in front, so that a spreadsheet opening the file does not run it as a
            formula; 'mystash import' takes the ' off again.

            """ + MyStashCommand.storeHelp
    )

    static func run(_ arguments: [String]) -> Int32 {
        runCommand(spec: spec, arguments: arguments) { parsed in
            let file = parsed.positionals[0]
            guard parsed.value("--format") == "csv" else {
                throw CommandLineError.usage("mystash export: --format csv is required (the only format)")
            }
            if FileManager.default.fileExists(atPath: file) {
                printError("\(file) exists already; it was not overwritten")
                return ExitStatus.cantCreate
            }
            if !parsed.flag("--yes") {
                let prompt = PassphrasePrompt.onTerminal()
                guard isatty(prompt.input) == 1 else {
                    throw CommandLineError.usage(
                        "mystash export: not on a terminal; add --yes to write the plaintext export"
                    )
                }
                prompt.write("Write every password in plaintext to \(file)? [y/N] ")
                guard let answer = prompt.readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                    printError("nothing was exported")
                    return ExitStatus.noPermission
                }
            }
            let opened = try StashUnlocker(parsed: parsed).open()
            guard case .success(let stash) = opened else { return opened.status }
            defer { stash.lock() }
            do {
                var bytes = try stash.exportCSV()
                defer { Sodium.wipe(&bytes) }
                try Stash.writePrivateFile(bytes, to: file)
            } catch {
                printError("cannot export to \(file): \(ErrorReason.text(of: error))")
                return ExitStatus.cantCreate
            }
            writeStandardError("Exported to \(file) (plaintext, mode 0600): delete it once you no longer need it.\n")
            return ExitStatus.ok
        }
    }
}
