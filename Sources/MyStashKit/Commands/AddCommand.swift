import CLIKit
import Foundation
import Glibc

/// `mystash add NAME [--user U] [--url URL] [--generate LENGTH]`: adds a
/// password entry from a script or a shell.
///
/// The password is the first line of stdin when stdin is not a terminal,
/// asked twice (not echoed) on the terminal otherwise, or generated with
/// `--generate LENGTH` (never printed: `mystash show NAME` prints it). An
/// entry with the same name and user ID is refused, not duplicated.
///
///     printf 'hunter2\n' | mystash add Bank --user me --passphrase-fd 3 3<passphrase.txt
enum AddCommand {
    static let spec = CommandSpec(
        name: "mystash add",
        summary: "Add a password entry; the password comes from stdin, the terminal or --generate.",
        usage:
            "NAME [--user U] [--url URL] [--generate LENGTH [--classes LUDS] [--look-alikes]] [--db PATH] [--passphrase-fd N]",
        options: [
            OptionSpec("--user", value: "U", help: "the user ID"),
            OptionSpec("--url", value: "URL", help: "where the password is used"),
            OptionSpec(
                "--generate",
                value: "LENGTH",
                help: "generate a random password of LENGTH characters (8 to 128)"
            ),
            OptionSpec(
                "--classes",
                value: "LUDS",
                help: "with --generate: l(ower) u(pper) d(igits) s(ymbols) (default luds)"
            ),
            OptionSpec("--look-alikes", value: nil, help: "with --generate: allow look-alike characters (0 O 1 l I)"),
        ] + StashUnlocker.options,
        minPositionals: 1,
        maxPositionals: 1,
        epilogue: """
            When stdin is not a terminal its first line is the password; on a terminal it is asked twice.
            The passphrase is asked on the terminal, or read from --passphrase-fd N.

            """ + MyStashCommand.storeHelp
    )

    static func run(_ arguments: [String]) -> Int32 {
        runCommand(spec: spec, arguments: arguments) { parsed in
            let name = parsed.positionals[0]
            guard !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw CommandLineError.usage("mystash add: the name must not be empty")
            }
            var length: Int?
            if let text = parsed.value("--generate") {
                guard let n = Int(text), (8...128).contains(n) else {
                    throw CommandLineError.usage("--generate: expected a length from 8 to 128, got '\(text)'")
                }
                length = n
            }
            var classes = Set(PasswordGenerator.CharacterClass.allCases)
            if let letters = parsed.value("--classes") {
                guard let parsedClasses = PasswordGenerator.CharacterClass.parse(letters) else {
                    throw CommandLineError.usage("--classes: expected letters among l, u, d, s, got '\(letters)'")
                }
                classes = parsedClasses
            }
            let generator = PasswordGenerator(classes: classes, avoidingLookAlikes: !parsed.flag("--look-alikes"))
            let unlocker = StashUnlocker(parsed: parsed)
            let passwordFromStdin = length == nil && isatty(STDIN_FILENO) != 1
            if passwordFromStdin, try unlocker.descriptor() == STDIN_FILENO {
                throw CommandLineError.usage(
                    "mystash add: the password is read from stdin; give the passphrase on another descriptor"
                )
            }
            let opened = try unlocker.open()
            guard case .success(let stash) = opened else { return opened.status }
            defer { stash.lock() }
            let user = parsed.value("--user") ?? ""
            do {
                guard try stash.passwordObjects(named: name, user: user).isEmpty else {
                    printError("“\(name)” with user ID “\(user)” exists already (nothing was added)")
                    return ExitStatus.dataError
                }
            } catch {
                printError("\(ErrorReason.text(of: error))")
                return ExitStatus.dataError
            }
            let password: String
            if let length {
                password = generator.generate(length: length)
            } else if passwordFromStdin {
                let data = FileHandle.standardInput.readDataToEndOfFile()
                let text = String(decoding: data, as: UTF8.self)
                password = String(
                    text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                )
                .trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
            } else {
                guard let typed = askTwice(name) else { return ExitStatus.noPermission }
                password = typed
            }
            guard !password.isEmpty else {
                printError("the password is empty (nothing was added)")
                return ExitStatus.dataError
            }
            do {
                let url = parsed.value("--url")
                try stash.addPassword(
                    PasswordEntry(
                        name: name,
                        userID: user,
                        password: password,
                        url: url?.isEmpty == true ? nil : url
                    )
                )
            } catch {
                printError("cannot add “\(name)”: \(ErrorReason.text(of: error))")
                return ExitStatus.ioError
            }
            writeStandardError("Added “\(name)”\(length.map { " with a generated \($0)-character password" } ?? "").\n")
            return ExitStatus.ok
        }
    }

    /// The password typed twice on the terminal (nil when cancelled or they differ three times).
    private static func askTwice(_ name: String) -> String? {
        let prompt = PassphrasePrompt.onTerminal()
        for _ in 0..<3 {
            guard let first = prompt.read("Password for “\(name)”: ") else { return nil }
            defer { first.wipe() }
            guard let second = prompt.read("Repeat the password: ") else { return nil }
            defer { second.wipe() }
            if first.withUnsafeBytes({ a in second.withUnsafeBytes { b in a.elementsEqual(b) } }) {
                return first.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            }
            prompt.write("The passwords do not match. Try again.\n")
        }
        return nil
    }
}
