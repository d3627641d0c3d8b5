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

/// What clearing the clipboard achieved, as the status line and `mystash copy` say it.
///
///     ClipboardClearing.unverified.message   // "Clipboard clear sent (OSC 52: the terminal cannot confirm it)"
package enum ClipboardClearing: Equatable, Sendable {
    /// The secret is gone from every place it was put, as read back (a tmux buffer, a system tool).
    case cleared
    /// An empty OSC 52 sequence was sent: no terminal says whether it cleared anything.
    case unverified
    /// The clipboard holds something else now (the person copied meanwhile): it was left alone.
    case replaced

    /// The status line's message.
    package var message: String {
        switch self {
        case .cleared: return "Clipboard cleared"
        case .unverified: return "Clipboard clear sent (OSC 52: the terminal cannot confirm it)"
        case .replaced: return "Clipboard left alone: it holds something else now"
        }
    }
}

/// The clipboard the way terminal tools reach it: under tmux a paste buffer of
/// its own (``TmuxBuffer``: deleted by name, its removal checked); elsewhere an
/// OSC 52 sequence to the terminal (kitty, iTerm2, WezTerm, foot, Windows
/// Terminal), whose clearing no terminal confirms; and also `wl-copy` when
/// `WAYLAND_DISPLAY` is set, or `xclip`/`xsel` when `DISPLAY` is set, if
/// installed (read back before clearing: a clipboard that holds something else
/// is left alone).
///
///     let clipboard = SystemClipboard(terminal: STDOUT_FILENO, environment: ProcessInfo.processInfo.environment)
///     clipboard.copy(password)
package final class SystemClipboard: Clipboard {
    /// The descriptor OSC 52 is written to (the terminal), or nil.
    let terminal: Int32?
    /// The system tool used beside OSC 52 or tmux, if any.
    let tool: Tool?
    /// Under tmux, the named buffer used instead of OSC 52.
    let tmux: TmuxBuffer?

    /// A system clipboard tool and how to copy, read and clear with it.
    struct Tool {
        var copy: [String]
        var paste: [String]
        var clear: [String]?
    }

    /// `tmuxBuffer` names the tmux buffer to use (the clipboard clearer is given the copy's);
    /// nil makes a new name.
    package init(
        terminal: Int32?,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        tmuxBuffer: String? = nil
    ) {
        self.terminal = terminal
        tool = SystemClipboard.findTool(environment)
        tmux = TmuxBuffer(environment: environment, name: tmuxBuffer)
    }

    /// The name of the tmux buffer copies go to (nil outside tmux).
    package var tmuxBufferName: String? { tmux?.name }

    /// Whether a copy reaches any clipboard: a terminal for OSC 52, tmux, or a system tool.
    package var reachesAClipboard: Bool { terminal != nil || tmux != nil || tool != nil }

    /// Whether a clear can be checked everywhere the copy went: no OSC 52 was sent (tmux takes
    /// the copy, or there is no terminal) and the system tool, if any, reads back.
    package var canVerifyClearing: Bool {
        let sentOSC52 = tmux == nil && terminal != nil
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
        if let tmux {
            tmux.load(text)
        } else {
            writeOSC52(Data(text.utf8).base64EncodedString())
        }
        if let tool { _ = ChildProcess.run(tool.copy, input: Array(text.utf8)) }
    }

    @discardableResult
    package func clear(ifStillHolding text: String) -> ClipboardClearing {
        var results: [ClipboardClearing] = []
        if let tmux { results.append(tmux.delete(ifHolding: text) == .kept ? .replaced : .cleared) }
        if let tool { results.append(clearTool(tool, ifHolding: text)) }
        if tmux == nil {
            // OSC 52 cannot be read back: clear blindly only when no tool says the clipboard
            // holds something else now (on many terminals they are the same clipboard).
            guard !results.contains(.replaced) else { return .replaced }
            writeOSC52("")
            if terminal != nil || results.isEmpty { results.append(.unverified) }
        }
        if results.contains(.replaced) { return .replaced }
        return results.contains(.unverified) ? .unverified : .cleared
    }

    /// Clears the system tool's clipboard if it holds `text` (read back first).
    private func clearTool(_ tool: Tool, ifHolding text: String) -> ClipboardClearing {
        guard !tool.paste.isEmpty else {
            // No way to read it (wl-copy without wl-paste): clear it blind.
            if let clear = tool.clear { _ = ChildProcess.run(clear, input: []) }
            return .unverified
        }
        guard let held = ChildProcess.run(tool.paste, input: [], captureOutput: true) else { return .unverified }
        guard held == Array(text.utf8) else { return held.isEmpty ? .cleared : .replaced }
        if let clear = tool.clear {
            _ = ChildProcess.run(clear, input: [])
        } else {
            _ = ChildProcess.run(tool.copy, input: [])
        }
        return .cleared
    }

    private func writeOSC52(_ payload: String) {
        guard let terminal else { return }
        let bytes = Array("\u{1B}]52;c;\(payload)\u{07}".utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(terminal, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
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
