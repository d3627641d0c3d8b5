import Foundation
import Glibc

/// Where copied secrets go.
///
///     let clipboard: Clipboard = SystemClipboard(terminal: fd)
///     clipboard.copy("s3cret")
///     clipboard.clear(ifStillHolding: "s3cret")   // .cleared, .unverified or .replaced
package protocol Clipboard: AnyObject {
    /// Puts `text` on the clipboard.
    func copy(_ text: String)
    /// Clears what `copy(text)` put there, only where it can tell that `text` is still there;
    /// says what it could do.
    @discardableResult
    func clear(ifStillHolding text: String) -> ClipboardClearing
}

/// What clearing the clipboard achieved, place by place, as the status line says it: each
/// place the copy went (a tmux buffer, the terminal's clipboard, the system tool's) and what
/// happened there — gone (read back), a clear sent that nothing can confirm (OSC 52), or left
/// alone because it holds something else now.
///
///     ClipboardClearing.unverified.message   // "Clipboard clear sent (OSC 52: the terminal cannot confirm it)"
///     ClipboardClearing(outcomes: [.tmuxBuffer: .cleared, .terminal: .sent]).message
///     // "Clipboard: tmux buffer cleared; clear sent to terminal (unconfirmed)"
package struct ClipboardClearing: Equatable, Sendable {
    /// Where a copy went.
    package enum Place: Int, Sendable, CaseIterable {
        case tmuxBuffer, terminal, tool

        /// How the status line names it.
        var phrase: String {
            switch self {
            case .tmuxBuffer: return "tmux buffer"
            case .terminal: return "terminal"
            case .tool: return "system clipboard"
            }
        }
    }

    /// What clearing one place did.
    package enum Outcome: Sendable {
        /// The secret is gone from there, as read back (or there was nothing of ours).
        case cleared
        /// An empty OSC 52 sequence was sent: no terminal says whether it cleared anything.
        case sent
        /// It holds something else now (the person copied meanwhile): left alone.
        case replaced
    }

    /// Each place the copy went, and what clearing it did.
    package var outcomes: [Place: Outcome]

    package init(outcomes: [Place: Outcome]) {
        self.outcomes = outcomes
    }

    /// Every place read back empty of the secret.
    package static let cleared = ClipboardClearing(outcomes: [:])
    /// OSC 52 only: a clear sent, unconfirmed.
    package static let unverified = ClipboardClearing(outcomes: [.terminal: .sent])
    /// The one place holds something else now: left alone.
    package static let replaced = ClipboardClearing(outcomes: [.tool: .replaced])

    /// The status line's message: short when the places agree, else place by place.
    package var message: String {
        let kinds = Set(outcomes.values)
        if kinds.isSubset(of: [.cleared]) { return "Clipboard cleared" }
        if outcomes == [.terminal: .sent] { return "Clipboard clear sent (OSC 52: the terminal cannot confirm it)" }
        if kinds == [.replaced] { return "Clipboard left alone: it holds something else now" }
        let parts = outcomes.sorted { $0.key.rawValue < $1.key.rawValue }.map { place, outcome in
            switch outcome {
            case .cleared: return "\(place.phrase) cleared"
            case .sent: return "clear sent to \(place.phrase) (unconfirmed)"
            case .replaced: return "\(place.phrase) left alone (holds something else)"
            }
        }
        return "Clipboard: " + parts.joined(separator: "; ")
    }
}

/// The clipboard the way terminal tools reach it: under tmux a paste buffer of
/// its own (``TmuxBuffer``: deleted by name, its removal checked) and, when tmux has a client
/// whose terminal takes OSC 52 (and `set-clipboard` is not `off`), that terminal's clipboard
/// through an OSC 52 sequence written to the client's tty — cleared there again, the same way;
/// elsewhere an OSC 52 sequence to the terminal (kitty, iTerm2, WezTerm, foot, Windows
/// Terminal), whose clearing no terminal confirms; and also `wl-copy` when `WAYLAND_DISPLAY`
/// is set, or `xclip`/`xsel` when `DISPLAY` is set, if installed (read back before clearing: a
/// clipboard that holds something else is left alone).
///
///     let clipboard = SystemClipboard(terminal: STDOUT_FILENO, environment: ProcessInfo.processInfo.environment)
///     clipboard.copy(password)
package final class SystemClipboard: Clipboard {
    /// The descriptor OSC 52 is written to (the terminal), or nil.
    let terminal: Int32?
    /// The system tool used beside OSC 52 or tmux, if any.
    let tool: Tool?
    /// Under tmux, the named buffer used instead of OSC 52 to the pane.
    let tmux: TmuxBuffer?
    /// Under tmux, the tty of the client whose terminal the copy's OSC 52 went to (where the
    /// clearing goes too); nil when it went to none.
    package private(set) var tmuxTerminal: String?

    /// A system clipboard tool and how to copy, read and clear with it.
    struct Tool {
        var copy: [String]
        var paste: [String]
        var clear: [String]?
    }

    /// `tmuxBuffer` names the tmux buffer to use and `tmuxTerminal` the client tty the copy's
    /// OSC 52 went to (the clipboard clearer is given the copy's); nil makes a new name, and
    /// leaves the tty to be found at the copy.
    package init(
        terminal: Int32?,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        tmuxBuffer: String? = nil,
        tmuxTerminal: String? = nil
    ) {
        self.terminal = terminal
        tool = SystemClipboard.findTool(environment)
        tmux = TmuxBuffer(environment: environment, name: tmuxBuffer)
        self.tmuxTerminal = tmuxTerminal
    }

    /// The name of the tmux buffer copies go to (nil outside tmux).
    package var tmuxBufferName: String? { tmux?.name }

    /// Whether a copy reaches any clipboard: a terminal for OSC 52, tmux, or a system tool.
    package var reachesAClipboard: Bool { terminal != nil || tmux != nil || tool != nil }

    /// Whether a clear can be checked everywhere the copy went: no OSC 52 was sent (tmux took
    /// the copy and no client's terminal did, or there is no terminal) and the system tool, if
    /// any, reads back.
    package var canVerifyClearing: Bool {
        let sentOSC52 = (tmux == nil && terminal != nil) || tmuxTerminal != nil
        let toolReadsBack = tool.map { !$0.paste.isEmpty } ?? true
        return !sentOSC52 && toolReadsBack
    }

    static func findTool(_ environment: [String: String]) -> Tool? {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        func which(_ name: String) -> String? {
            path.split(separator: ":").map { "\($0)/\(name)" }.first {
                FileManager.default.isExecutableFile(atPath: $0)
            }
        }
        if environment["WAYLAND_DISPLAY"].map({ !$0.isEmpty }) == true, let copy = which("wl-copy") {
            return Tool(
                copy: [copy],
                paste: which("wl-paste").map { [$0, "--no-newline"] } ?? [],
                clear: [copy, "--clear"]
            )
        }
        guard environment["DISPLAY"].map({ !$0.isEmpty }) == true else { return nil }
        if let xclip = which("xclip") {
            return Tool(
                copy: [xclip, "-selection", "clipboard", "-in"],
                paste: [xclip, "-selection", "clipboard", "-out"],
                clear: nil
            )
        }
        if let xsel = which("xsel") {
            return Tool(
                copy: [xsel, "--clipboard", "--input"],
                paste: [xsel, "--clipboard", "--output"],
                clear: [xsel, "--clipboard", "--delete"]
            )
        }
        return nil
    }

    package func copy(_ text: String) {
        let payload = Data(text.utf8).base64EncodedString()
        if let tmux {
            tmux.load(text)
            if tmuxTerminal == nil { tmuxTerminal = tmux.clientTerminal() }
            if let tmuxTerminal { SystemClipboard.writeOSC52(payload, toTerminalAt: tmuxTerminal) }
        } else if let terminal {
            SystemClipboard.writeOSC52(payload, to: terminal)
        }
        if let tool { _ = ChildProcess.run(tool.copy, input: Array(text.utf8)) }
    }

    @discardableResult
    package func clear(ifStillHolding text: String) -> ClipboardClearing {
        var outcomes: [ClipboardClearing.Place: ClipboardClearing.Outcome] = [:]
        if let tmux {
            // A buffer newer than ours: the person copied in tmux since, and that went to the terminal's clipboard.
            let copiedSince = tmux.hasNewerBuffer()
            outcomes[.tmuxBuffer] = tmux.delete(ifHolding: text) == .kept ? .replaced : .cleared
            if let tmuxTerminal {
                if copiedSince || outcomes[.tmuxBuffer] == .replaced {
                    outcomes[.terminal] = .replaced
                } else {
                    SystemClipboard.writeOSC52("", toTerminalAt: tmuxTerminal)
                    outcomes[.terminal] = .sent
                }
            }
        }
        if let tool { outcomes[.tool] = clearTool(tool, ifHolding: text) }
        if tmux == nil, let terminal {
            // OSC 52 cannot be read back: clear blindly only when no tool says the clipboard
            // holds something else now (on many terminals they are the same clipboard).
            if outcomes[.tool] == .replaced {
                outcomes[.terminal] = .replaced
            } else {
                SystemClipboard.writeOSC52("", to: terminal)
                outcomes[.terminal] = .sent
            }
        }
        // Nowhere to clear: said as unconfirmed.
        if tmux == nil, terminal == nil, tool == nil { outcomes[.terminal] = .sent }
        return ClipboardClearing(outcomes: outcomes)
    }

    /// Clears the system tool's clipboard if it holds `text` (read back first).
    private func clearTool(_ tool: Tool, ifHolding text: String) -> ClipboardClearing.Outcome {
        guard !tool.paste.isEmpty else {
            // No way to read it (wl-copy without wl-paste): clear it blind.
            if let clear = tool.clear { _ = ChildProcess.run(clear, input: []) }
            return .sent
        }
        guard let held = ChildProcess.run(tool.paste, input: [], captureOutput: true) else { return .sent }
        guard held == Array(text.utf8) else { return held.isEmpty ? .cleared : .replaced }
        if let clear = tool.clear {
            _ = ChildProcess.run(clear, input: [])
        } else {
            _ = ChildProcess.run(tool.copy, input: [])
        }
        return .cleared
    }

    /// Writes an OSC 52 sequence setting the clipboard to `payload` (base64; empty clears it) to `fd`.
    static func writeOSC52(_ payload: String, to fd: Int32) {
        let bytes = Array("\u{1B}]52;c;\(payload)\u{07}".utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }

    /// ``writeOSC52(_:to:)`` to the terminal at `path` (a tmux client's tty): only a terminal
    /// device this user owns, never through a symlink.
    static func writeOSC52(_ payload: String, toTerminalAt path: String) {
        let fd = open(path, O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var info = stat()
        guard isatty(fd) == 1, fstat(fd, &info) == 0, info.st_uid == getuid() else { return }
        writeOSC52(payload, to: fd)
    }
}

/// Runs a small helper program with `input` on its stdin and returns its stdout (nil when it failed).
enum ChildProcess {
    /// `captureOutput` false sends stdout to /dev/null: tools that stay in the background to serve
    /// the selection (xclip, wl-copy) would otherwise keep the pipe open and the read waiting.
    static func run(_ argv: [String], input: [UInt8], captureOutput: Bool = false) -> [UInt8]? {
        var inPipe: [Int32] = [0, 0]
        var outPipe: [Int32] = [0, 0]
        guard pipe(&inPipe) == 0 else { return nil }
        guard pipe(&outPipe) == 0 else {
            close(inPipe[0])
            close(inPipe[1])
            return nil
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        for fd in [inPipe[0], inPipe[1], outPipe[0], outPipe[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
        // A tool that stays to serve the selection (xclip, wl-copy) must hold nothing of ours.
        InheritedDescriptors.close(from: 3, in: &actions)
        // Nor our blocked signals (the clipboard clearer blocks them while it waits).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, environ)
        close(inPipe[0])
        close(outPipe[1])
        guard rc == 0 else {
            close(inPipe[1])
            close(outPipe[0])
            return nil
        }
        var offset = 0
        while offset < input.count {
            let n = input.withUnsafeBytes { write(inPipe[1], $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            offset += n
        }
        close(inPipe[1])
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(outPipe[0], &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            output.append(contentsOf: buffer[0..<n])
        }
        close(outPipe[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status == 0 ? output : nil
    }
}
