import CLIKit
import Foundation
import Glibc

/// The background half of `mystash copy`: reads the copied text on stdin,
/// waits, then clears the clipboard (under tmux the named buffer it is given
/// and the client terminal the copy's OSC 52 went to, else OSC 52 to
/// descriptor 3 when it is a terminal; the system tool only if it still holds
/// the text). Not for people.
///
/// A signal does not leave the secret behind: every catchable signal that
/// would end or stop the process (SIGTERM, SIGINT, SIGQUIT, SIGUSR1, SIGTSTP…)
/// ends the wait, the clipboard is cleared at once, and the helper exits with
/// 128 + the signal's number. SIGHUP (the terminal's shell ending) is ignored:
/// the clearing then happens when the time is up, as without a signal. Only
/// SIGKILL (and SIGSTOP, which cannot be caught) can stop it from clearing.
///
///     mystash __clear-clipboard 45 mystash-123-0a1b2c3d /dev/pts/3 <<< "s3cret"   // started by CopyCommand, never by hand
enum ClearClipboardCommand {
    static let name = "__clear-clipboard"
    static let spec = CommandSpec(
        name: "mystash \(name)",
        summary: "Clear the clipboard after SECONDS if it still holds the text read on stdin.",
        usage: "SECONDS [TMUX-BUFFER [TMUX-CLIENT-TTY]]",
        options: [],
        minPositionals: 1,
        maxPositionals: 3
    )

    static func run(_ arguments: [String]) -> Int32 {
        signal(SIGHUP, SIG_IGN)
        var awaited = awaitedSignals()
        // Blocked from the start (CopyCommand spawns it so): a signal is kept pending until the wait takes it.
        pthread_sigmask(SIG_BLOCK, &awaited, nil)
        guard let seconds = arguments.first.flatMap(UInt32.init) else { return ExitStatus.usage }
        let tmuxBuffer = arguments.dropFirst().first
        if let tmuxBuffer, !TmuxBuffer.isValidName(tmuxBuffer) { return ExitStatus.usage }
        let tmuxTerminal = arguments.dropFirst(2).first
        if let tmuxTerminal, !TmuxBuffer.isValidTerminalPath(tmuxTerminal) { return ExitStatus.usage }
        var text = readStandardInput()
        defer { Sodium.wipe(&text) }
        let caught = wait(seconds: seconds, for: awaited)
        let terminal: Int32? = isatty(3) == 1 ? 3 : nil
        SystemClipboard(terminal: terminal, tmuxBuffer: tmuxBuffer, tmuxTerminal: tmuxTerminal)
            .clear(ifStillHolding: String(decoding: text, as: UTF8.self))
        return caught.map { 128 + $0 } ?? ExitStatus.ok
    }

    /// The signals the helper waits for beside the time: every signal but those that cannot be
    /// caught (SIGKILL, SIGSTOP), SIGHUP (ignored) and those whose default is to do nothing
    /// (SIGCHLD, SIGCONT, SIGURG, SIGWINCH).
    static func awaitedSignals() -> sigset_t {
        var set = sigset_t()
        sigfillset(&set)
        for ignored in [SIGKILL, SIGSTOP, SIGHUP, SIGCHLD, SIGCONT, SIGURG, SIGWINCH] { sigdelset(&set, ignored) }
        return set
    }

    /// Everything on stdin (the copied text).
    private static func readStandardInput() -> [UInt8] {
        var text = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        defer { Sodium.wipe(&buffer) }
        while true {
            let n = read(STDIN_FILENO, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            text.append(contentsOf: buffer[0..<n])
        }
        return text
    }

    /// Waits `seconds`, or until one of `signals` arrives; returns that signal, nil when the time was up.
    private static func wait(seconds: UInt32, for signals: sigset_t) -> Int32? {
        var signals = signals
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        deadline.tv_sec += Int(seconds)
        while true {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            var left = timespec(tv_sec: deadline.tv_sec - now.tv_sec, tv_nsec: deadline.tv_nsec - now.tv_nsec)
            if left.tv_nsec < 0 {
                left.tv_sec -= 1
                left.tv_nsec += 1_000_000_000
            }
            guard left.tv_sec >= 0 else { return nil }
            let caught = sigtimedwait(&signals, nil, &left)
            if caught > 0 { return caught }
            if errno == EAGAIN { return nil }  // the time is up
            // EINTR (a signal outside the set, e.g. SIGCONT after a stop): wait for what is left.
        }
    }
}
