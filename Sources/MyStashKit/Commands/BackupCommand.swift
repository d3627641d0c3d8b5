import CLIKit
import Foundation

/// `mystash backup FILE`: an encrypted copy of the stash through SQLite's
/// backup API (mode 0600, never overwriting), opened later with
/// `mystash --db FILE` and the same passphrase. Needs no passphrase.
///
///     BackupCommand.run(["/backups/stash.sqlite"])
enum BackupCommand {
    static let spec = CommandSpec(
        name: "mystash backup",
        summary: "Write an encrypted copy of the stash to a new file (mode 0600).",
        usage: "FILE [--db PATH]",
        options: [
            StashUnlocker.dbOption
        ],
        minPositionals: 1,
        maxPositionals: 1,
        epilogue: "The copy is as encrypted as the stash: open it with 'mystash --db FILE' and the same passphrase.\n\n"
            + MyStashCommand.storeHelp
    )

    static func run(_ arguments: [String]) -> Int32 {
        runCommand(spec: spec, arguments: arguments) { parsed in
            let file = parsed.positionals[0]
            let path = StashLocation.resolve(
                option: parsed.value("--db"),
                environment: ProcessInfo.processInfo.environment
            )
            guard FileManager.default.fileExists(atPath: path) else {
                printError("no stash at \(path)")
                return ExitStatus.noInput
            }
            let stash: Stash
            do { stash = try Stash.forCommand(path: path) } catch {
                return StashFileProblem(error, path: path).report()
            }
            do { try stash.backup(to: file) } catch {
                printError("cannot back up to \(file): \(ErrorReason.text(of: error))")
                return ExitStatus.cantCreate
            }
            writeStandardError("Backed up \(path) to \(file).\n")
            return ExitStatus.ok
        }
    }
}
