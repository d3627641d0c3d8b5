import CLIKit

/// The passphrase dialogue before the app starts: set one on first run
/// (asked twice, non-empty, must match), or ask for it (three tries).
///
/// Messages go to stderr; the store is never written on a wrong passphrase.
///
///     let outcome = PassphraseSession(prompt: PassphrasePrompt()).open(stash, parameters: .interactive)
///     guard outcome == ExitStatus.ok else { return outcome }
struct PassphraseSession {
    var prompt: PassphrasePrompt
    var attempts = 3

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
            do {
                try stash.setUp(passphrase: first, parameters: parameters)
                return ExitStatus.ok
            } catch {
                printError("cannot set the passphrase: \(error)")
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
                try stash.unlock(passphrase: passphrase)
                return ExitStatus.ok
            } catch VaultError.wrongPassphrase {
                let left = attempts - attempt
                prompt.write(
                    left > 0
                        ? "Wrong passphrase; \(left) \(left == 1 ? "try" : "tries") left.\n"
                        : "Wrong passphrase.\n"
                )
            } catch {
                printError("cannot unlock the stash: \(error)")
                return ExitStatus.dataError
            }
        }
        printError("wrong passphrase \(attempts) times; the stash was not opened (nothing was changed)")
        return ExitStatus.noPermission
    }

    private func cancelled() -> Int32 {
        printError("cancelled")
        return ExitStatus.noPermission
    }
}
