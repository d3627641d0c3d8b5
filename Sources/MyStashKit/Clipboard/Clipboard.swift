import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where copied secrets go.
///
///     let clipboard: Clipboard = SystemClipboard(terminal: fd)
///     clipboard.copy("s3cret")
///     clipboard.clear(ifStillHolding: "s3cret")
public protocol Clipboard: AnyObject {
    /// Puts `text` on the clipboard.
    func copy(_ text: String)
    /// Clears what `copy(text)` put there; a system clipboard only if it still holds `text`.
    func clear(ifStillHolding text: String)
}

/// The clipboard the way terminal tools reach it: an OSC 52 sequence to the
/// terminal (tmux with `set-clipboard on`, kitty, iTerm2, WezTerm, foot,
/// Windows Terminal), and also `wl-copy` when `WAYLAND_DISPLAY` is set, or
/// `xclip`/`xsel` when `DISPLAY` is set, if installed.
///
///     let clipboard = SystemClipboard(terminal: STDOUT_FILENO, environment: ProcessInfo.processInfo.environment)
///     clipboard.copy(password)
public final class SystemClipboard: Clipboard {
    /// The descriptor OSC 52 is written to (the terminal), or nil.
    let terminal: Int32?
    /// The system tool used beside OSC 52, if any.
    let tool: Tool?

    /// A system clipboard tool and how to copy, read and clear with it.
    struct Tool {
        var copy: [String]
        var paste: [String]
        var clear: [String]?
    }

    public init(terminal: Int32?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.terminal = terminal
        tool = SystemClipboard.findTool(environment)
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

    public func copy(_ text: String) {
        writeOSC52(Data(text.utf8).base64EncodedString())
        if let tool { _ = ChildProcess.run(tool.copy, input: Array(text.utf8)) }
    }

    public func clear(ifStillHolding text: String) {
        writeOSC52("")
        guard let tool else { return }
        guard !tool.paste.isEmpty, let held = ChildProcess.run(tool.paste, input: [], captureOutput: true),
            held == Array(text.utf8)
        else { return }
        if let clear = tool.clear {
            _ = ChildProcess.run(clear, input: [])
        } else {
            _ = ChildProcess.run(tool.copy, input: [])
        }
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
