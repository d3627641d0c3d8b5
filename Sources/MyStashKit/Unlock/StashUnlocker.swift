import CLIKit
import Foundation
import Glibc

/// Opens an existing stash and unlocks it for a script command (`show`,
/// `add`, `copy`, `import`, `export`, `backup`).
///
/// The passphrase comes from the terminal (asked on `/dev/tty`, three tries),
/// or from file descriptor `--passphrase-fd N` (one line, one try): never
/// from the command line or the environment. Messages go to stderr, so a
/// failure prints nothing on stdout.
///
///     let opened = StashUnlocker(parsed: parsed).open()
///     guard case .success(let stash) = opened else { return opened.status }
struct StashUnlocker {
    /// `--db PATH` (or nil for the default location).
    var databaseOption: String?
    /// `--passphrase-fd N` as given, or nil for the terminal.
    var passphraseFD: String?
    /// `--accept-rollback`: open a stash this machine saw at a later generation (put back from an older copy).
    var acceptsRollback = false

    init(parsed: ParsedArguments) {
        databaseOption = parsed.value("--db")
        passphraseFD = parsed.value("--passphrase-fd")
        acceptsRollback = parsed.flag("--accept-rollback")
    }

    /// `--db PATH`: the stash every command opens.
    static let dbOption = OptionSpec(
        "--db",
        value: "PATH",
        help: "the store (default: $MYSTASH_DB, then the XDG data directory)"
    )

    /// The options every unlocking command takes.
    static let options = [
        dbOption,
        OptionSpec("--passphrase-fd", value: "N", help: "read the master passphrase (one line) from file descriptor N"),
        acceptRollbackOption,
    ]

    /// `--accept-rollback`, for every command that unlocks.
    static let acceptRollbackOption = OptionSpec(
        "--accept-rollback",
        value: nil,
        help: "open the stash even if this machine saw it at a later generation (put back from an older copy)"
    )

    enum Outcome {
        case success(Stash)
        case failure(Int32)

        /// The exit status of a failure (`ok` for a success).
        var status: Int32 {
            if case .failure(let status) = self { return status }
            return ExitStatus.ok
        }
    }

    /// The descriptor of `--passphrase-fd`, checked to be open; nil for the terminal.
    func descriptor() throws -> Int32? {
        guard let text = passphraseFD else { return nil }
        guard let fd = Int32(text), fd >= 0 else {
            throw CommandLineError.usage("--passphrase-fd: '\(text)' is not a file descriptor")
        }
        guard fcntl(fd, F_GETFD) != -1 else {
            throw CommandLineError.usage("--passphrase-fd: descriptor \(fd) is not open")
        }
        return fd
    }

    /// Opens the stash (which must exist and have a passphrase) and unlocks it.
    func open() throws -> Outcome {
        let fd = try descriptor()
        let path = StashLocation.resolve(option: databaseOption, environment: ProcessInfo.processInfo.environment)
        guard FileManager.default.fileExists(atPath: path) else {
            printError("no stash at \(path) (\(initAdvice(path)) to create one)")
            return .failure(ExitStatus.noInput)
        }
        let stash: Stash
        do { stash = try Stash.forCommand(path: path) } catch {
            return .failure(StashFileProblem(error, path: path).report())
        }
        guard stash.hasPassphrase else {
            printError("the stash at \(path) has no passphrase yet (\(initAdvice(path)) to set one)")
            return .failure(ExitStatus.dataError)
        }
        if let fd {
            let passphrase: SecureBytes
            switch StashUnlocker.readPassphrase(from: fd) {
            case .success(let read): passphrase = read
            case .failure(let failure): return .failure(failure.status)
            }
            defer { passphrase.wipe() }
            do {
                try stash.unlock(passphrase: passphrase, acceptingRollback: acceptsRollback)
                warnIfBelowInteractive(stash)
                stash.warnIfNotRemembered()
            } catch StashError.rolledBack(let rollback) {
                printError(Stash.rollbackAdvice(rollback))
                return .failure(ExitStatus.dataError)
            } catch VaultError.wrongPassphrase {
                printError("wrong passphrase; the stash was not opened")
                return .failure(ExitStatus.noPermission)
            } catch let error where StashFileProblem.isAboutTheFile(error) {
                return .failure(StashFileProblem(error, path: path, doing: "read").report())
            } catch {
                printError("cannot unlock the stash: \(ErrorReason.text(of: error))")
                return .failure(ExitStatus.dataError)
            }
            return .success(stash)
        }
        var session = PassphraseSession(prompt: PassphrasePrompt.onTerminal())
        session.acceptsRollback = acceptsRollback
        let status = session.open(
            stash,
            parameters: KDFParameters.forNewPassphrase(environment: ProcessInfo.processInfo.environment)
        )
        return status == ExitStatus.ok ? .success(stash) : .failure(status)
    }

    /// A script cannot be asked: a stash below the interactive level gets a warning on stderr.
    private func warnIfBelowInteractive(_ stash: Stash) {
        guard let current = stash.vault?.header.parameters, current.isBelow(.interactive),
            !KDFParameters.isTestCostRequested(ProcessInfo.processInfo.environment)
        else { return }
        printError(
            "warning: this stash's key derivation (\(current)) is below Argon2id's interactive level;"
                + " run 'mystash' or 'mystash passwd' on a terminal to raise it"
        )
    }

    /// The command that makes a stash at `path`: `mystash init`, with `--db` when it was given.
    func initAdvice(_ path: String) -> String {
        databaseOption == nil ? "run 'mystash init'" : "run 'mystash init --db \(path)'"
    }

    /// The passphrase, one line, from descriptor `fd` (one try); a failure is said on stderr
    /// and comes back as the status to exit with: an empty descriptor, or a line longer than
    /// ``PassphrasePrompt/maximumLength`` bytes (read no further).
    static func readPassphrase(from fd: Int32) -> Result<SecureBytes, ExitFailure> {
        switch PassphrasePrompt(input: fd, output: -1).readSecret("") {
        case .line(let passphrase):
            return .success(passphrase)
        case .endOfInput:
            printError("no passphrase on descriptor \(fd)")
            return .failure(ExitFailure(ExitStatus.noPermission))
        case .tooLong:
            printError(
                "the passphrase on descriptor \(fd) is longer than \(PassphrasePrompt.maximumLength) bytes "
                    + "(the limit); it was refused"
            )
            return .failure(ExitFailure(ExitStatus.dataError))
        }
    }
}

/// An exit status as an `Error`, for a `Result` whose failure was already said on stderr.
struct ExitFailure: Error {
    let status: Int32
    init(_ status: Int32) { self.status = status }
}
