import CLIKit
import Foundation
import Glibc

/// `mystash show NAME [--field password|user|url|notes|totp]`: one field of
/// an entry and a newline on stdout, for scripts (as `pass show` does).
///
/// `--field totp` prints the current one-time code. With `--field notes`, a
/// note titled NAME (when no password entry has that name) prints its text;
/// a note's text is never printed as a password. An unknown name is an
/// error naming it; a wrong passphrase prints nothing on stdout.
///
/// To a terminal each line of the value has its control characters escaped (a URL or a
/// note imported from a hostile export cannot write to the clipboard or clear the screen
/// through OSC or CSI sequences); to a pipe or a file the value is printed as stored, since
/// a script asked for exactly those bytes (a password with a `\` in it must reach `sudo -S`
/// as it is).
///
///     ShowCommand.run(["Bank", "--field", "user", "--passphrase-fd", "3"])   // "me@example.com\n"
enum ShowCommand {
    static let spec = CommandSpec(
        name: "mystash show",
        summary: "Print one field of an entry (the password by default) and a newline.",
        usage: "NAME [--field password|user|url|notes|totp] [--user U] [--db PATH] [--passphrase-fd N]",
        options: [
            OptionSpec(
                "--field",
                value: "FIELD",
                help: "password (default), user, url, notes or totp (the current code)",
                completion: .values(EntryField.allCases.map(\.rawValue))
            ),
            OptionSpec("--user", value: "U", help: "the entry with this user ID, when several share the name"),
        ] + StashUnlocker.options,
        minPositionals: 1,
        maxPositionals: 1,
        epilogue: """
            The passphrase is asked on the terminal, or read from --passphrase-fd N.
            On a terminal, control characters in the value are shown escaped (\\u{1B}); to a pipe or
            a file the value is printed as stored.

            """ + MyStashCommand.storeHelp
    )

    static func run(_ arguments: [String]) -> Int32 {
        runCommand(spec: spec, arguments: arguments) { parsed in
            let name = parsed.positionals[0]
            let fieldName = parsed.value("--field") ?? "password"
            guard let field = EntryField(rawValue: fieldName) else {
                throw CommandLineError.usage("--field: expected password, user, url, notes or totp, got '\(fieldName)'")
            }
            let opened = try StashUnlocker(parsed: parsed).open()
            guard case .success(let stash) = opened else { return opened.status }
            defer { stash.lock() }
            do {
                let value = try stash.fieldValue(field, ofEntryNamed: name, user: parsed.value("--user"), at: Date())
                printValue(value)
                return ExitStatus.ok
            } catch let error as StashError {
                printError("\(error)")
                if case .noEntry = error { return ExitStatus.noInput }
                return ExitStatus.dataError
            } catch {
                printError("\(ErrorReason.text(of: error))")
                return ExitStatus.dataError
            }
        }
    }

    /// The value and a newline on stdout: escaped line by line on a terminal, as stored otherwise.
    private static func printValue(_ value: String) {
        if isatty(STDOUT_FILENO) == 1 {
            print(EscapedOutput.escapingEachLine(value))
        } else {
            print(value)
        }
    }
}
