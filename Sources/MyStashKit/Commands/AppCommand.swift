import CLIKit
import Foundation
import Glibc

/// `mystash` with no subcommand: asks for the master passphrase, then opens
/// the full-screen app.
///
/// Every failure before the screen starts is one line on stderr and a
/// `sysexits.h` status. The key is wiped when the app ends, however it ends
/// through its own exit paths.
///
///     exit(AppCommand.run(["--db", "/tmp/stash.sqlite", "--no-animation"]))
enum AppCommand {
    static let spec = CommandSpec(
        name: "mystash",
        summary: "Notes and passwords in the terminal; passwords encrypted at rest under a master passphrase.",
        usage: "[--db PATH] [--no-animation] | " + MyStashCommand.synopsis,
        options: [
            StashUnlocker.dbOption,
            OptionSpec("--no-animation", value: nil, help: "apply changes without animating them"),
            OptionSpec(
                "--lock-after",
                value: "SECONDS",
                help: "lock after this long without a key (default 300; 0 never)"
            ),
            OptionSpec(
                "--clip-seconds",
                value: "N",
                help: "clear a copied secret from the clipboard after N seconds (default 45)"
            ),
            StashUnlocker.acceptRollbackOption,
        ],
        maxPositionals: 0,
        epilogue: MyStashCommand.storeHelp + "\n\n" + """
            On first run (or with 'mystash init') you choose the master passphrase (asked twice).
            Later runs ask for it (three tries). In the app: Tab switches Notes/Passwords, a adds, Enter or e edits,
            d deletes, u undoes, / searches, ? shows every key, q quits.

            environment:
              MYSTASH_DB     the store path (when --db is not given)
              NO_COLOR       no colours
            """
    )

    static func run(_ arguments: [String]) -> Int32 {
        runCommand(spec: MyStashCommand.program.command, arguments: arguments) { parsed in
            var lockAfter: Double = 300
            if let text = parsed.value("--lock-after") {
                guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
                    throw CommandLineError.usage("--lock-after: expected a number of seconds, got '\(text)'")
                }
                lockAfter = seconds
            }
            var clipSeconds: Double = 45
            if let text = parsed.value("--clip-seconds") {
                guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                    throw CommandLineError.usage("--clip-seconds: expected a positive number of seconds, got '\(text)'")
                }
                clipSeconds = seconds
            }
            guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
                printError("the app needs a terminal on stdin and stdout (use 'mystash list' in scripts)")
                return ExitStatus.usage
            }
            let environment = ProcessInfo.processInfo.environment
            let path = StashLocation.resolve(option: parsed.value("--db"), environment: environment)
            let stash: Stash
            do {
                stash = try Stash.forCommand(path: path)
            } catch {
                return StashFileProblem(error, path: path).report()
            }
            defer { stash.lock() }
            var session = PassphraseSession(prompt: PassphrasePrompt.onTerminal())
            session.acceptsRollback = parsed.flag("--accept-rollback")
            let status = session.open(stash, parameters: KDFParameters.forNewPassphrase(environment: environment))
            guard status == ExitStatus.ok else { return status }
            return StashAppLauncher(
                stash: stash,
                animated: !parsed.flag("--no-animation"),
                lockAfter: lockAfter,
                clipSeconds: clipSeconds
            ).run()
        }
    }
}
