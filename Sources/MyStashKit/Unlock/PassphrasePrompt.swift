import CLIKit
import Glibc

/// Reads a passphrase from the terminal without echoing it.
///
/// Runs before the full-screen interface starts, the way `ssh` and `gpg` ask:
/// the bytes are read straight into a buffer that is wiped after being copied
/// into guarded memory, so no `String` copy of the passphrase is ever made.
/// Echo is restored on every path, including Ctrl-C during the prompt.
///
///     let prompt = PassphrasePrompt()
///     guard let passphrase = prompt.read("Master passphrase: ") else { return }  // nil at end of input
///     try stash.unlock(passphrase: passphrase)
package struct PassphrasePrompt {
    /// Where the passphrase is read from (a terminal, or a pipe in tests).
    package let input: Int32
    /// Where the prompt text goes.
    package let output: Int32

    package init(input: Int32 = STDIN_FILENO, output: Int32 = STDERR_FILENO) {
        self.input = input
        self.output = output
    }

    /// A prompt on the controlling terminal (`/dev/tty`), as `ssh` and `gpg`
    /// ask, so that it shows even when stderr is redirected; stdin/stderr
    /// when there is no controlling terminal. The descriptor stays open for
    /// the life of the process (one per run).
    package static func onTerminal() -> PassphrasePrompt {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return PassphrasePrompt() }
        return PassphrasePrompt(input: fd, output: fd)
    }

    /// The longest line accepted, in bytes: a passphrase or password is refused beyond it, so
    /// that an endless input (`--passphrase-fd 3 3</dev/zero`) cannot grow memory without bound.
    package static let maximumLength = 1024

    /// What ``readSecret(_:)`` found.
    package enum Reading {
        /// The line, without its newline, in guarded memory.
        case line(SecureBytes)
        /// The input ended before any byte.
        case endOfInput
        /// The line is longer than ``PassphrasePrompt/maximumLength`` bytes (nothing of it is kept).
        case tooLong
    }

    /// Shows `prompt`, reads one line with echo off, and returns it in guarded
    /// memory (without the newline). Nil at end of input, and for a line longer than
    /// ``maximumLength`` bytes (which the prompt's output is told).
    package func read(_ prompt: String) -> SecureBytes? {
        switch readSecret(prompt) {
        case .line(let line): return line
        case .endOfInput: return nil
        case .tooLong:
            write(PassphrasePrompt.tooLongMessage + "\n")
            return nil
        }
    }

    /// What ``read(_:)`` says of a line longer than ``maximumLength``.
    package static let tooLongMessage = "Too long: at most \(maximumLength) bytes are accepted (refused)."

    /// Shows `prompt` and reads one line with echo off: the line in guarded memory, the end of
    /// the input, or a line too long. Reading stops at the first byte past ``maximumLength``
    /// (on a terminal the rest of that line is read and dropped, so it is not taken for the next answer).
    package func readSecret(_ prompt: String) -> Reading {
        // Echo off (and typeahead from before the prompt dropped) first, then the prompt: keys
        // typed as soon as it shows are neither echoed nor flushed away.
        let restore = EchoGuard(fd: input)
        write(prompt)
        defer {
            let echoWasOff = restore.changed
            restore.restore()
            if echoWasOff { write("\n") }  // the Enter the user typed was not echoed
        }
        // The bytes go straight into guarded memory (sodium_malloc: locked, kept out of core
        // dumps); a longer line moves to a bigger buffer and the old one is wiped as it is freed.
        var buffer = SecureBytes(count: 256)
        defer { buffer.wipe() }
        var length = 0
        var byte: UInt8 = 0
        defer { byte = 0 }
        while true {
            let n = systemRead(input, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                if length == 0 { return .endOfInput }
                break
            }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
            guard length < PassphrasePrompt.maximumLength else {
                if isatty(input) == 1 { dropRestOfLine() }
                return .tooLong
            }
            if length == buffer.count {
                let bigger = SecureBytes(count: min(buffer.count * 2, PassphrasePrompt.maximumLength))
                buffer.withUnsafeBytes { old in
                    bigger.withUnsafeMutableBytes { new in
                        new.baseAddress!.copyMemory(from: old.baseAddress!, byteCount: old.count)
                    }
                }
                buffer.wipe()
                buffer = bigger
            }
            buffer.withUnsafeMutableBytes { $0[length] = byte }
            length += 1
        }
        return .line(
            buffer.withUnsafeBytes { SecureBytes(copying: UnsafeRawBufferPointer(rebasing: $0.prefix(length))) }
        )
    }

    /// Reads up to the end of the line (a terminal's line is bounded) and forgets it.
    private func dropRestOfLine() {
        var byte: UInt8 = 0
        defer { byte = 0 }
        while true {
            let n = systemRead(input, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { return }
        }
    }

    /// Reads one line with echo on (a yes/no answer, never a secret); nil at end of input.
    package func readLine() -> String? {
        var line = [UInt8]()
        var byte: UInt8 = 0
        while true {
            let n = systemRead(input, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }

    /// Writes a message (not the passphrase) to the prompt's output, each line's control
    /// characters escaped (a name in a prompt cannot send escape sequences to the terminal).
    package func write(_ text: String) {
        var bytes = Array(EscapedOutput.escapingEachLine(text).utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { systemWrite(output, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { break }
            offset += n
        }
    }
}

/// Turns terminal echo off for its lifetime and back on when restored, also
/// when SIGINT/SIGTERM/SIGHUP arrive while it is active.
private final class EchoGuard {
    private let fd: Int32
    private(set) var changed = false

    init(fd: Int32) {
        self.fd = fd
        guard isatty(fd) == 1 else { return }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { return }
        EchoState.saved = settings
        EchoState.fd = fd
        var quiet = settings
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ICANON)
        for sig in [SIGINT, SIGTERM, SIGHUP] { signal(sig, echoRestoringHandler) }
        changed = tcsetattr(fd, TCSAFLUSH, &quiet) == 0
    }

    func restore() {
        guard changed, var settings = EchoState.saved else { return }
        tcsetattr(fd, TCSAFLUSH, &settings)
        for sig in [SIGINT, SIGTERM, SIGHUP] { signal(sig, SIG_DFL) }
        EchoState.saved = nil
        changed = false
    }
}

/// The terminal settings to put back from a signal handler (which cannot capture context).
private enum EchoState {
    nonisolated(unsafe) static var saved: termios?
    nonisolated(unsafe) static var fd: Int32 = 0
}

private func echoRestoringHandler(_ signal: Int32) {
    if var settings = EchoState.saved { tcsetattr(EchoState.fd, TCSANOW, &settings) }
    let newline: [UInt8] = [10]
    _ = systemWrite(STDERR_FILENO, newline, 1)
    _exit(128 + signal)
}

// The struct's own `read`/`write` shadow the C functions inside it.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
