import CLIKit
import Foundation

/// `mystash passwd`: changes the master passphrase, re-encrypting every
/// password in one transaction.
///
///     PasswdCommand.run(["--db", path])   // asks the current passphrase, then the new one twice
enum PasswdCommand {
    static let spec = CommandSpec(
        name: "mystash passwd",
        summary: "Change the master passphrase (every password is re-encrypted in one transaction).",
        usage: "[--db PATH]",
        options: [
            OptionSpec("--db", value: "PATH", help: "the store (default: $MYSTASH_DB, then the XDG data directory)")
        ],
        epilogue: MyStashCommand.storeHelp
    )

    static func run(_ arguments: [String]) -> Int32 {
        runCommand(spec: spec, arguments: arguments) { parsed in
            let environment = ProcessInfo.processInfo.environment
            let path = StashLocation.resolve(option: parsed.value("--db"), environment: environment)
            guard FileManager.default.fileExists(atPath: path) else {
                printError("no stash at \(path)")
                return ExitStatus.noInput
            }
            let stash: Stash
            do { stash = try Stash(path: path) } catch {
                printError("cannot open \(path): \(error)")
                return ExitStatus.noInput
            }
            defer { stash.lock() }
            let prompt = PassphrasePrompt.onTerminal()
            guard stash.hasPassphrase else {
                printError("the stash has no passphrase yet; run 'mystash' to set one")
                return ExitStatus.dataError
            }
            let status = PassphraseSession(prompt: prompt).open(stash, parameters: .interactive)
            guard status == ExitStatus.ok else { return status }
            for _ in 0..<3 {
                guard let first = prompt.read("New master passphrase: ") else { return ExitStatus.noPermission }
                defer { first.wipe() }
                guard first.count > 0 else {
                    prompt.write("The passphrase must not be empty.\n")
                    continue
                }
                guard let second = prompt.read("Repeat the passphrase: ") else { return ExitStatus.noPermission }
                defer { second.wipe() }
                guard first.withUnsafeBytes({ a in second.withUnsafeBytes { b in a.elementsEqual(b) } }) else {
                    prompt.write("The passphrases do not match. Try again.\n")
                    continue
                }
                do {
                    try stash.changePassphrase(to: first, parameters: KDFParameters.fromEnvironment(environment))
                    prompt.write("Passphrase changed.\n")
                    return ExitStatus.ok
                } catch {
                    printError("cannot change the passphrase (nothing was changed): \(error)")
                    return ExitStatus.ioError
                }
            }
            printError("passphrase not changed")
            return ExitStatus.noPermission
        }
    }
}
