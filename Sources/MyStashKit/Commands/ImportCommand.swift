import CLIKit
import CSVImport
import Foundation

/// `mystash import FILE [--format auto|bitwarden|keepassxc|chrome|firefox]`:
/// brings in the CSV export of another password manager, in one transaction.
///
/// Entries whose name and user ID exist already are updated, not duplicated.
/// A login with notes but nothing secret comes in as a note, and so does a
/// Bitwarden card or identity (its fields in the note). The summary says how
/// many were added, updated, unchanged and skipped; each skipped row is named
/// on stderr (`FILE:LINE: skipped “name”: reason`). The file is plaintext: the
/// summary says to delete it only when nothing in it was skipped.
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
        epilogue: """
            Entries with the same name and user ID are updated, not duplicated. A login with notes
            but no password, user ID or TOTP secret is imported as a note, and so is a Bitwarden card
            or identity (its fields in the note). Each row that is not imported is named with its line.
            The stash must exist: 'mystash init' makes one.

            """ + MyStashCommand.storeHelp
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
                printError("\(ErrorReason.text(of: error))")
                return ExitStatus.dataError
            }
            let items = reader.items()
            let opened = try StashUnlocker(parsed: parsed).open()
            guard case .success(let stash) = opened else { return opened.status }
            defer { stash.lock() }
            let summary: ImportSummary
            do { summary = try stash.importItems(items) } catch {
                printError("\(file): nothing was imported: \(ErrorReason.text(of: error))")
                return ExitStatus.dataError
            }
            printLine(
                "Imported \(file) (\(reader.format.rawValue)): \(summary.added) added, \(summary.updated) updated, "
                    + "\(summary.unchanged) unchanged, \(reader.skipped.count) skipped."
            )
            for row in reader.skipped {
                printError("\(file):\(row.line): skipped\(row.name.isEmpty ? "" : " “\(row.name)”"): \(row.reason)")
            }
            if reader.skipped.isEmpty {
                printLine(
                    "\(file) holds your passwords in plaintext: delete it once you no longer need it (shred -u \(file))."
                )
            } else {
                let count = reader.skipped.count
                printLine(
                    "\(file) holds your passwords in plaintext, and \(count == 1 ? "1 entry" : "\(count) entries") "
                        + "in it \(count == 1 ? "was" : "were") not imported (named above): keep it until you have "
                        + "moved \(count == 1 ? "it" : "them") by hand, then delete it."
                )
            }
            return ExitStatus.ok
        }
    }
}
