import CLIKit
import Foundation

/// `mystash passwd [--skip-damaged]`: changes the master passphrase,
/// re-encrypting every field in one transaction.
///
/// The key derivation's cost is never lowered: the new key takes the larger
/// of the stash's limits and the standard ones. An entry that does not open
/// (damaged, or changed behind the app's back) stops the change, unless
/// `--skip-damaged` is given: then what was found is listed, and after a
/// confirmation everything that opens is re-sealed and the rest is left as
/// it is, named.
///
///     PasswdCommand.run(["--db", path])   // asks the current passphrase, then the new one twice
enum PasswdCommand {
    static let spec = CommandSpec(
        name: "mystash passwd",
        summary: "Change the master passphrase (every field is re-encrypted in one transaction).",
        usage: "[--db PATH] [--skip-damaged]",
        options: [
            StashUnlocker.dbOption,
            OptionSpec(
                "--skip-damaged",
                value: nil,
                help: "re-seal what opens and leave damaged entries as they are (asks first, names them)"
            ),
            StashUnlocker.acceptRollbackOption,
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
            do { stash = try Stash.forCommand(path: path) } catch {
                return StashFileProblem(error, path: path).report()
            }
            defer { stash.lock() }
            let prompt = PassphrasePrompt.onTerminal()
            guard stash.hasPassphrase else {
                printError("the stash has no passphrase yet; run 'mystash' to set one")
                return ExitStatus.dataError
            }
            let skipDamaged = parsed.flag("--skip-damaged")
            var session = PassphraseSession(prompt: prompt)
            session.toleratesChanges = skipDamaged
            session.acceptsRollback = parsed.flag("--accept-rollback")
            let status = session.open(stash, parameters: KDFParameters.forNewPassphrase(environment: environment))
            guard status == ExitStatus.ok else { return status }
            if skipDamaged {
                guard confirmSkipping(stash, findings: session.findings.items, prompt: prompt) else {
                    printError("passphrase not changed (nothing was changed)")
                    return ExitStatus.noPermission
                }
            }
            guard let current = stash.vault?.header.parameters else { return ExitStatus.software }
            // Never lower the cost: a leftover MYSTASH_KDF=min (debug builds) or an old default cannot weaken it.
            let parameters = current.raised(toAtLeast: KDFParameters.forNewPassphrase(environment: environment))
            return changePassphrase(of: stash, parameters: parameters, skippingDamaged: skipDamaged, prompt: prompt)
        }
    }

    /// Lists what `--skip-damaged` would leave as it is and asks; true to go on.
    private static func confirmSkipping(_ stash: Stash, findings: [String], prompt: PassphrasePrompt) -> Bool {
        let damaged = (try? stash.unreadableEntries()) ?? []
        guard !findings.isEmpty || !damaged.isEmpty else { return true }
        var text = ""
        if !findings.isEmpty {
            text += "Changed behind mystash's back:\n" + findings.map { "  \($0)\n" }.joined()
        }
        if !damaged.isEmpty {
            text +=
                "These do not open and will be left as they are (still unreadable):\n"
                + damaged.map { "  \($0)\n" }.joined()
        }
        prompt.write(text + "Re-seal everything else under the new passphrase? [y/N] ")
        guard let answer = prompt.readLine() else { return false }
        return answer.lowercased().hasPrefix("y")
    }

    private static func changePassphrase(
        of stash: Stash,
        parameters: KDFParameters,
        skippingDamaged: Bool,
        prompt: PassphrasePrompt
    ) -> Int32 {
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
            NewPassphraseStrength(first, allowsWeak: true).warn(prompt: prompt)
            do {
                let left = try stash.changePassphrase(
                    to: first,
                    parameters: parameters,
                    skippingDamaged: skippingDamaged
                )
                prompt.write("Passphrase changed.\n")
                if !left.isEmpty { prompt.write("Left as they were (unreadable): \(left.joined(separator: ", ")).\n") }
                return ExitStatus.ok
            } catch {
                let hint = skippingDamaged ? "" : " (--skip-damaged re-seals what opens and names the rest)"
                printError("cannot change the passphrase (nothing was changed): \(ErrorReason.text(of: error))\(hint)")
                return ExitStatus.ioError
            }
        }
        printError("passphrase not changed")
        return ExitStatus.noPermission
    }
}
