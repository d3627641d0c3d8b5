import CLIKit
import CSVImport
import Foundation

/// `mystash import FILE [--format auto|bitwarden|keepassxc|chrome|firefox]`:
/// brings in the CSV export of another password manager, in one transaction.
///
/// Entries whose name and user ID exist already are updated, not duplicated.
/// The summary says how many were added, updated and skipped, and reminds
/// that the export file is plaintext.
///
///     ImportCommand.run(["bitwarden.csv", "--passphrase-fd", "3"])
enum ImportCommand {
    static let spec = CommandSpec(
        name: "mystash import",
        summary: "Import a Bitwarden, KeePassXC, Chrome or Firefox CSV export.",
        usage: "FILE [--format auto|bitwarden|keepassxc|chrome|firefox] [--db PATH] [--passphrase-fd N]",
        options: [
            OptionSpec(
                "--format",
                value: "FORMAT",
                help: "auto (default: detected by the header), bitwarden, keepassxc, chrome or firefox"
            )
        ]
            + StashUnlocker.options,
        minPositionals: 1,
        maxPositionals: 1,
        epilogue: "Entries with the same name and user ID are updated, not duplicated.\n\n" + MyStashCommand.storeHelp
    )

    static func run(_ arguments: [String]) -> Int32 {
        runCommand(spec: spec, arguments: arguments) { parsed in
            let file = parsed.positionals[0]
            var format: PasswordExportFormat?
            if let name = parsed.value("--format"), name != "auto" {
                guard let chosen = PasswordExportFormat(rawValue: name) else {
                    throw CommandLineError.usage(
                        "--format: expected auto, bitwarden, keepassxc, chrome or firefox, got '\(name)'"
                    )
                }
                format = chosen
            }
            var reader: PasswordExportReader
            do {
                reader = try PasswordExportReader(path: file, format: format)
            } catch let error as CSVError where error.isMissingInput {
                printError("\(error)")
                return ExitStatus.noInput
            } catch {
                printError("\(error)")
                return ExitStatus.dataError
            }
            let items = reader.items()
            let opened = try StashUnlocker(parsed: parsed).open()
            guard case .success(let stash) = opened else { return opened.status }
            defer { stash.lock() }
            let summary: ImportSummary
            do { summary = try stash.importItems(items) } catch {
                printError("\(file): nothing was imported: \(error)")
                return ExitStatus.dataError
            }
            let skipped = reader.skippedLines.count + summary.unchanged
            print(
                "Imported \(file) (\(reader.format.rawValue)): \(summary.added) added, \(summary.updated) updated, \(skipped) skipped."
            )
            print("\(file) holds your passwords in plaintext: delete it once you no longer need it (shred -u \(file)).")
            return ExitStatus.ok
        }
    }
}
