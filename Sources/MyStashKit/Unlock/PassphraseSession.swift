import CLIKit
import Foundation

/// The passphrase dialogue before the app starts: set one on first run
/// (asked twice, non-empty, must match; a weak one is warned about), or ask
/// for it (three tries). A stash whose key derivation is below libsodium's
/// interactive level is offered an upgrade after unlocking.
///
/// Messages go to stderr; the store is never written on a wrong passphrase.
///
///     let outcome = PassphraseSession(prompt: PassphrasePrompt()).open(stash, parameters: .standard)
///     guard outcome == ExitStatus.ok else { return outcome }
struct PassphraseSession {
    var prompt: PassphrasePrompt
    var attempts = 3
    /// The environment (a debug build's `MYSTASH_KDF=min` turns the cost warning off, for tests).
    var environment: [String: String] = ProcessInfo.processInfo.environment
    /// Unlock a stash whose entries do not match its manifest anyway (`passwd --skip-damaged`), keeping the findings.
    var toleratesChanges = false
    /// `--accept-rollback`: open a stash put back from an older copy without asking.
    var acceptsRollback = false
    /// Refuse a new passphrase zxcvbn scores below 2 (`init` without `--allow-weak`); weaker than
    /// 3 is warned about in any case (`NewPassphraseStrength`).
    var refusesWeak = false
    /// What `toleratesChanges` let through, for the caller to show.
    final class Findings { var items: [String] = [] }
    let findings = Findings()

    /// Unlocks (or sets up) `stash`. Returns `ExitStatus.ok`, or the status to exit with.
    func open(_ stash: Stash, parameters: KDFParameters) -> Int32 {
        if stash.hasPassphrase { return unlock(stash) }
        prompt.write(
            "New stash at \(stash.path).\nChoose a master passphrase. It cannot be recovered if you forget it.\n"
        )
        for _ in 0..<attempts {
            guard let first = prompt.read("New master passphrase: ") else { return cancelled() }
            if first.count == 0 {
                prompt.write("The passphrase must not be empty.\n")
                continue
            }
            guard let second = prompt.read("Repeat the passphrase: ") else { return cancelled() }
            let same = first.withUnsafeBytes { a in second.withUnsafeBytes { b in a.elementsEqual(b) } }
            second.wipe()
            guard same else {
                first.wipe()
                prompt.write("The passphrases do not match. Try again.\n")
                continue
            }
            defer { first.wipe() }
            let verdict = NewPassphraseStrength(first, allowsWeak: !refusesWeak)
            verdict.warn(prompt: prompt)
            if verdict.isRefused {
                prompt.write("Too weak: choose a stronger one (several unrelated words), or use --allow-weak.\n")
                continue
            }
            do {
                try stash.setUp(passphrase: first, parameters: parameters)
                return ExitStatus.ok
            } catch {
                printError("cannot set the passphrase: \(ErrorReason.text(of: error))")
                return ExitStatus.ioError
            }
        }
        printError("no passphrase set")
        return ExitStatus.noPermission
    }

    private func unlock(_ stash: Stash) -> Int32 {
        for attempt in 1...attempts {
            guard let passphrase = prompt.read("Master passphrase: ") else { return cancelled() }
            defer { passphrase.wipe() }
            do {
                findings.items = try stash.unlock(
                    passphrase: passphrase,
                    toleratingChanges: toleratesChanges,
                    acceptingRollback: acceptsRollback
                )
                offerCostUpgrade(stash, passphrase: passphrase)
                stash.warnIfNotRemembered()
                return ExitStatus.ok
            } catch StashError.rolledBack(let rollback) {
                return askAboutRollback(rollback, stash: stash, passphrase: passphrase)
            } catch VaultError.wrongPassphrase {
                let left = attempts - attempt
                prompt.write(
                    left > 0
                        ? "Wrong passphrase; \(left) \(left == 1 ? "try" : "tries") left.\n"
                        : "Wrong passphrase.\n"
                )
            } catch let error where StashFileProblem.isAboutTheFile(error) {
                return StashFileProblem(error, path: stash.path, doing: "read").report()
            } catch {
                printError("cannot unlock the stash: \(ErrorReason.text(of: error))")
                return ExitStatus.dataError
            }
        }
        printError("wrong passphrase \(attempts) times; the stash was not opened (nothing was changed)")
        return ExitStatus.noPermission
    }

    /// The stash was put back from an older copy: says so, naming both generations, and asks
    /// whether to open it anyway (then its generation becomes the one remembered).
    private func askAboutRollback(_ rollback: SeenStashes.Rollback, stash: Stash, passphrase: SecureBytes) -> Int32 {
        prompt.write(
            "Warning: \(rollback).\nOpen it anyway (generation \(rollback.foundGeneration) becomes the one"
                + " remembered here)? [y/N] "
        )
        guard let answer = prompt.readLine(), answer.lowercased().hasPrefix("y") else {
            printError(Stash.rollbackAdvice(rollback))
            return ExitStatus.dataError
        }
        do {
            findings.items = try stash.unlock(
                passphrase: passphrase,
                toleratingChanges: toleratesChanges,
                acceptingRollback: true
            )
            stash.warnIfNotRemembered()
            return ExitStatus.ok
        } catch {
            printError("cannot unlock the stash: \(ErrorReason.text(of: error))")
            return ExitStatus.dataError
        }
    }

    /// After unlocking: a stash below the interactive level is offered the standard cost (same passphrase).
    private func offerCostUpgrade(_ stash: Stash, passphrase: SecureBytes) {
        guard let current = stash.vault?.header.parameters, current.isBelow(.interactive),
            !KDFParameters.isTestCostRequested(environment)
        else { return }
        let target = current.raised(toAtLeast: .standard)
        prompt.write(
            "Warning: this stash's key derivation (\(current)) is below Argon2id's interactive level.\n"
                + "Raise it to \(target) now (same passphrase)? [y/N] "
        )
        guard let answer = prompt.readLine(), answer.lowercased().hasPrefix("y") else {
            prompt.write("Kept as it is.\n")
            return
        }
        do {
            try stash.changePassphrase(to: passphrase, parameters: target)
            prompt.write("Raised to \(target).\n")
        } catch {
            printError("cannot raise the cost (nothing was changed): \(ErrorReason.text(of: error))")
        }
    }

    private func cancelled() -> Int32 {
        printError("cancelled")
        return ExitStatus.noPermission
    }
}
