import CLIKit
import Foundation
import SQLiteStore

/// `mystash list notes|passwords`: titles or names, one per line, for scripts.
///
/// Never prints a secret (not even user IDs or URLs) and needs no passphrase;
/// opens the store read-only and never creates it. Control characters in a
/// name are escaped (`\n`, `\u{1B}`, and `\\` for a backslash), one name a line.
///
///     ListCommand.run(["passwords", "--db", "/tmp/s.sqlite"])   // "Bank\nMail\n"
enum ListCommand {
    static let spec = CommandSpec(
        name: "mystash list",
        summary: "Print the titles of the notes or the names of the passwords, one per line.",
        usage: "notes|passwords [--db PATH]",
        options: [
            StashUnlocker.dbOption
        ],
        minPositionals: 1,
        maxPositionals: 1,
        epilogue: "Secrets are never printed, and no passphrase is needed.\n\n" + MyStashCommand.storeHelp
    )

    static func run(_ arguments: [String]) -> Int32 {
        runCommand(spec: spec, arguments: arguments) { parsed in
            guard let kind = StashKind(rawValue: parsed.positionals[0]) else {
                writeStandardError("mystash list: expected 'notes' or 'passwords', got '\(parsed.positionals[0])'\n")
                return ExitStatus.usage
            }
            let path = StashLocation.resolve(
                option: parsed.value("--db"),
                environment: ProcessInfo.processInfo.environment
            )
            let stash: Stash
            do {
                do {
                    stash = try Stash(path: path, readOnly: true)
                } catch StoreError.readOnly {
                    // A stash of an older schema: opening it for writing brings the schema up to date
                    // (losslessly; its values are re-sealed on the next unlock).
                    stash = try Stash(path: path)
                }
            } catch StashError.noStore(let path) {
                printError("no stash at \(path)")
                return ExitStatus.noInput
            } catch {
                return StashFileProblem(error, path: path).report()
            }
            do {
                // One line per item, control characters escaped: a line break inside a title would
                // break scripts, and an escape sequence would reach the terminal.
                for name in try stash.names(of: kind) { printLine(name) }
                return ExitStatus.ok
            } catch {
                return StashFileProblem(error, path: path, doing: "read").report()
            }
        }
    }
}
