import CLIKit
import Foundation
import Glibc

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
            The clipboard is reached through OSC 52 on the terminal (under tmux: a tmux buffer of its
            own, deleted when the time is up, and OSC 52 to the terminal of tmux's client, cleared
            there too), and wl-copy (WAYLAND_DISPLAY) or xclip/xsel (DISPLAY) when installed. An
            OSC 52 clear cannot be confirmed by the terminal; a clipboard that holds something else
            by then is left alone.

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
            let terminal = open("/dev/tty", O_WRONLY | O_CLOEXEC)
            let clipboard = SystemClipboard(terminal: terminal >= 0 ? terminal : nil)
            guard clipboard.reachesAClipboard else {
                printError("nowhere to copy to: no terminal (for OSC 52), no tmux, and no wl-copy, xclip or xsel")
                return ExitStatus.unavailable
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
            clipboard.copy(value)
            startClearer(
                after: seconds,
                text: value,
                terminal: terminal,
                tmux: clipboard.tmuxBufferName.map { ($0, clipboard.tmuxTerminal) }
            )
            let caveat =
                clipboard.canVerifyClearing ? "" : " (through OSC 52: the terminal cannot confirm the clearing)"
            writeStandardError("Copied \(field.phrase) of “\(name)” — cleared in \(seconds) s\(caveat)\n")
            return ExitStatus.ok
        }
    }

    /// Starts `mystash __clear-clipboard SECONDS [TMUX-BUFFER [TMUX-CLIENT-TTY]]` in the background with the text on its stdin
    /// (never in argv or the environment) and the terminal as descriptor 3 — and no other
    /// descriptor of this process (not `--passphrase-fd`'s, not the store's). It starts with every
    /// signal it waits for blocked and the rest at their defaults, so a signal sent at once is not lost.
    private static func startClearer(
        after seconds: Int,
        text: String,
        terminal: Int32,
        tmux: (buffer: String, terminal: String?)?
    ) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if terminal >= 0 {
            posix_spawn_file_actions_adddup2(&actions, terminal, 3)
            InheritedDescriptors.close(from: 4, in: &actions)
        } else {
            InheritedDescriptors.close(from: 3, in: &actions)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var blocked = ClearClipboardCommand.awaitedSignals()
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGHUP)  // stays ignored: the helper outlives the terminal's shell
        posix_spawnattr_setsigmask(&attributes, &blocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let executable = "/proc/self/exe"
        let argv: [UnsafeMutablePointer<CChar>?] =
            [
                strdup("mystash"), strdup(ClearClipboardCommand.name), strdup(String(seconds)),
            ] + (tmux.map { [strdup($0.buffer)] + ($0.terminal.map { [strdup($0)] } ?? []) } ?? []) + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        close(fds[0])
        if rc == 0 {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        }
        close(fds[1])
    }
}
