import CLIKit
import Foundation
import Glibc
import SQLiteStore

/// `mystash init [--db PATH] [--passphrase-fd N]`: makes a new, empty stash
/// without the full-screen app (as `pass init` and `keepassxc-cli db-create` do),
/// so that a script, or a person moving from another manager, can `add` and
/// `import` at once.
///
/// The master passphrase is asked twice on the terminal, or read once (one
/// line) from descriptor N. A stash that exists already is never touched
/// (exit 73); neither is a file that is not a stash. When no passphrase is set
/// in the end (cancelled, a mismatch three times), the file this command
/// created is removed again, so a later `init` starts afresh.
///
///     InitCommand.run(["--db", "/tmp/new.sqlite", "--passphrase-fd", "3"])   // "Created a stash at /tmp/new.sqlite."
enum InitCommand {
    static let spec = CommandSpec(
        name: "mystash init",
        summary: "Create a new, empty stash and set its master passphrase.",
        usage: "[--db PATH] [--passphrase-fd N] [--allow-weak]",
        options: [
            StashUnlocker.dbOption,
            OptionSpec(
                "--passphrase-fd",
                value: "N",
                help: "read the new master passphrase (one line) from file descriptor N"
            ),
            OptionSpec("--allow-weak", value: nil, help: "accept a passphrase zxcvbn scores below 2 (weak)"),
        ],
        epilogue: """
            On a terminal the passphrase is asked twice; from --passphrase-fd N it is read once.
            A passphrase zxcvbn scores below 3 is warned about on stderr; below 2 it is refused
            unless --allow-weak is given. An existing stash is never overwritten.

            """ + MyStashCommand.storeHelp
    )

    static func run(_ arguments: [String]) -> Int32 {
        runCommand(spec: spec, arguments: arguments) { parsed in
            let unlocker = StashUnlocker(parsed: parsed)
            let fd = try unlocker.descriptor()
            let environment = ProcessInfo.processInfo.environment
            let path = StashLocation.resolve(option: parsed.value("--db"), environment: environment)
            if let refusal = refusalToCreate(at: path) {
                printError(refusal)
                return ExitStatus.cantCreate
            }
            let existed = FileManager.default.fileExists(atPath: path)
            let status = setUp(
                at: path,
                passphraseFD: fd,
                parameters: KDFParameters.forNewPassphrase(environment: environment),
                allowsWeak: parsed.flag("--allow-weak")
            )
            if status != ExitStatus.ok {
                if !existed { removeStore(at: path) }
                return status
            }
            writeStandardError("Created a stash at \(path).\n")
            return ExitStatus.ok
        }
    }

    /// Why no stash can be made at `path` (something is there that must stay as it is), or nil.
    /// An empty file, or a stash without a passphrase (a first run cancelled), may be set up.
    static func refusalToCreate(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            return "\(path) exists and is not a file (nothing was changed)"
        }
        if info.st_size == 0 { return nil }
        do {
            let stash = try Stash(path: path, readOnly: true)
            return stash.hasPassphrase ? "a stash exists already at \(path) (nothing was changed)" : nil
        } catch StoreError.readOnly {
            // An older schema, which only a stash with a passphrase has.
            return "a stash exists already at \(path) (nothing was changed)"
        } catch {
            return "\(path) exists and is not a stash (\(ErrorReason.text(of: error))); nothing was changed"
        }
    }

    /// Opens (creating) the stash and sets its passphrase, from `passphraseFD` or asked twice; a
    /// passphrase scored below 2 is refused unless `allowsWeak`.
    private static func setUp(
        at path: String,
        passphraseFD: Int32?,
        parameters: KDFParameters,
        allowsWeak: Bool
    ) -> Int32 {
        let stash: Stash
        do { stash = try Stash.forCommand(path: path) } catch {
            return StashFileProblem(error, path: path, doing: "create").report()
        }
        defer { stash.lock() }
        guard let fd = passphraseFD else {
            var session = PassphraseSession(prompt: PassphrasePrompt.onTerminal())
            session.refusesWeak = !allowsWeak
            return session.open(stash, parameters: parameters)
        }
        let passphrase: SecureBytes
        switch StashUnlocker.readPassphrase(from: fd) {
        case .success(let read): passphrase = read
        case .failure(let failure): return failure.status
        }
        defer { passphrase.wipe() }
        guard passphrase.count > 0 else {
            printError("the passphrase on descriptor \(fd) is empty (no stash was created)")
            return ExitStatus.dataError
        }
        let verdict = NewPassphraseStrength(passphrase, allowsWeak: allowsWeak)
        if verdict.isRefused {
            printError(verdict.refusal(source: "on descriptor \(fd)"))
            return ExitStatus.dataError
        }
        verdict.warn(prompt: nil)
        do {
            try stash.setUp(passphrase: passphrase, parameters: parameters)
            stash.warnIfNotRemembered()
        } catch {
            printError("cannot set the passphrase: \(ErrorReason.text(of: error))")
            return ExitStatus.ioError
        }
        return ExitStatus.ok
    }

    /// Removes the store this command created and its companions (no passphrase was set).
    private static func removeStore(at path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
