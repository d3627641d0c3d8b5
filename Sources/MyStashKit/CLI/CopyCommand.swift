import CLIKit
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `mystash copy NAME [--field …] [--clip-seconds N]`: puts one field on the
/// clipboard instead of printing it, and leaves a small background process
/// that clears it after N seconds (as `pass` does) — the system tool only if
/// it still holds what was copied.
///
///     CopyCommand.run(["Bank", "--passphrase-fd", "3"])   // "Copied the password of “Bank” — cleared in 45 s"
enum CopyCommand {
    static let spec = CommandSpec(
        name: "mystash copy",
        summary: "Copy one field of an entry (the password by default) to the clipboard, cleared later.",
        usage:
            "NAME [--field password|user|url|notes|totp] [--user U] [--clip-seconds N] [--db PATH] [--passphrase-fd N]",
        options: [
            OptionSpec(
                "--field",
                value: "FIELD",
                help: "password (default), user, url, notes or totp (the current code)",
                completion: .values(EntryField.allCases.map(\.rawValue))
            ),
            OptionSpec("--user", value: "U", help: "the entry with this user ID, when several share the name"),
            OptionSpec("--clip-seconds", value: "N", help: "clear the clipboard after N seconds (default 45)"),
        ] + StashUnlocker.options,
        minPositionals: 1,
        maxPositionals: 1,
        epilogue: """
            The clipboard is reached through OSC 52 on the terminal, and wl-copy (WAYLAND_DISPLAY) or
            xclip/xsel (DISPLAY) when installed.

            """ + MyStashCommand.storeHelp
    )

    static func run(_ arguments: [String]) -> Int32 {
        runCommand(spec: spec, arguments: arguments) { parsed in
            let name = parsed.positionals[0]
            let fieldName = parsed.value("--field") ?? "password"
            guard let field = EntryField(rawValue: fieldName) else {
                throw CommandLineError.usage("--field: expected password, user, url, notes or totp, got '\(fieldName)'")
            }
            var seconds = 45
            if let text = parsed.value("--clip-seconds") {
                guard let n = Int(text), n > 0 else {
                    throw CommandLineError.usage("--clip-seconds: expected a positive number, got '\(text)'")
                }
                seconds = n
            }
            let opened = try StashUnlocker(parsed: parsed).open()
            guard case .success(let stash) = opened else { return opened.status }
            defer { stash.lock() }
            let value: String
            do {
                value = try stash.fieldValue(field, ofEntryNamed: name, user: parsed.value("--user"), at: Date())
            } catch let error as StashError {
                printError("\(error)")
                if case .noEntry = error { return ExitStatus.noInput }
                return ExitStatus.dataError
            }
            let terminal = open("/dev/tty", O_WRONLY | O_CLOEXEC)
            SystemClipboard(terminal: terminal >= 0 ? terminal : nil).copy(value)
            startClearer(after: seconds, text: value, terminal: terminal)
            writeStandardError("Copied \(field.phrase) of “\(name)” — cleared in \(seconds) s\n")
            return ExitStatus.ok
        }
    }

    /// Starts `mystash __clear-clipboard SECONDS` in the background with the text on its stdin
    /// (never in argv or the environment) and the terminal as descriptor 3.
    private static func startClearer(after seconds: Int, text: String, terminal: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if terminal >= 0 { posix_spawn_file_actions_adddup2(&actions, terminal, 3) }
        posix_spawn_file_actions_addclose(&actions, fds[1])
        let executable = "/proc/self/exe"
        let argv: [UnsafeMutablePointer<CChar>?] = [
            strdup("mystash"), strdup(ClearClipboardCommand.name), strdup(String(seconds)), nil,
        ]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(fds[0])
        if rc == 0 {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        }
        close(fds[1])
    }
}

/// The background half of `mystash copy`: reads the copied text on stdin,
/// waits, then clears the clipboard (OSC 52 to descriptor 3 when it is a
/// terminal; the system tool only if it still holds the text). Not for people.
enum ClearClipboardCommand {
    static let name = "__clear-clipboard"
    static let spec = CommandSpec(
        name: "mystash \(name)",
        summary: "Clear the clipboard after SECONDS if it still holds the text read on stdin.",
        usage: "SECONDS",
        options: [],
        minPositionals: 1,
        maxPositionals: 1
    )

    static func run(_ arguments: [String]) -> Int32 {
        signal(SIGHUP, SIG_IGN)
        guard let seconds = arguments.first.flatMap(UInt32.init) else { return ExitStatus.usage }
        var text = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(STDIN_FILENO, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            text.append(contentsOf: buffer[0..<n])
        }
        sleep(seconds)
        let terminal: Int32? = isatty(3) == 1 ? 3 : nil
        SystemClipboard(terminal: terminal).clear(ifStillHolding: String(decoding: text, as: UTF8.self))
        Sodium.wipe(&text)
        return ExitStatus.ok
    }
}
