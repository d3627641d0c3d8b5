import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// One shell command line run in a fresh tmux pane, with every byte the
/// pane's programs write to the terminal recorded (`pipe-pane`), the exit
/// status and `stty -a` saved afterwards. For the hostile-terminal cases
/// that must fail cleanly: the recording proves that no escape sequence
/// reached the terminal.
///
///     let probe = try TerminalProbe("env TERM=dumb \(binary) --db banks.sqlite 2> err.txt", in: scratch)
///     #expect(probe.exitStatus() == 1)
///     #expect(!probe.outputBytes().contains(0x1b))
final class TerminalProbe {
    static let begin = "<<probe-begin>>"
    static let end = "<<probe-end>>"
    let scratch: TemporaryDirectory
    let tmux: TmuxSession

    /// Starts `command` (bash syntax, run in `scratch`) once the recording is on.
    init(_ command: String, in scratch: TemporaryDirectory, width: Int = 80, height: Int = 24) throws {
        self.scratch = scratch
        let script = scratch.path("probe.sh")
        try """
        #!/bin/bash
        cd \(ProcessRunner.shellQuoted(scratch.url.path))
        while [ ! -e go ]; do sleep 0.02; done
        printf '%s\\n' '\(TerminalProbe.begin)'
        \(command)
        status=$?
        printf '\\n%s\\n' '\(TerminalProbe.end)'
        stty -a > stty.txt 2>&1
        echo "$status" > exit.txt
        exec sleep 3600

        """.write(toFile: script, atomically: true, encoding: .utf8)
        // `env --default-signal`: the signals a shell would have (not the test thread's blocked mask).
        tmux = try TmuxSession(
            command: ["/usr/bin/env", "--default-signal", "/bin/bash", script],
            width: width,
            height: height,
            environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "screen"]
        )
        let pane = scratch.path("pane.bin")
        _ = try ProcessRunner.run(
            tmux.tmux,
            ["-L", tmux.socket, "pipe-pane", "-t", tmux.target, "-o", "cat >> \(ProcessRunner.shellQuoted(pane))"]
        )
        _ = FileManager.default.createFile(atPath: scratch.path("go"), contents: nil)
    }

    deinit { tmux.close() }

    /// The command's exit status, once recorded.
    func exitStatus(timeout: Double = 10) -> Int32? {
        var status: Int32?
        try? waitUntil("the probe's exit status", timeout: timeout) {
            status = (try? String(contentsOfFile: scratch.path("exit.txt"), encoding: .utf8))
                .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return status != nil
        }
        return status
    }

    /// `stty -a` in the pane after the command.
    var stty: String { (try? String(contentsOfFile: scratch.path("stty.txt"), encoding: .utf8)) ?? "" }

    /// The bytes the command wrote to the terminal (between the probe's markers).
    func outputBytes(timeout: Double = 5) -> [UInt8] {
        var bytes: [UInt8] = []
        let begin = Array((TerminalProbe.begin + "\r\n").utf8)
        let end = Array(("\r\n" + TerminalProbe.end).utf8)
        try? waitUntil("the recorded pane output", timeout: timeout) {
            bytes = FileManager.default.contents(atPath: scratch.path("pane.bin")).map { [UInt8]($0) } ?? []
            return bytes.firstRange(of: end) != nil
        }
        guard let from = bytes.firstRange(of: begin)?.upperBound, let to = bytes.firstRange(of: end)?.lowerBound,
            from <= to
        else {
            return bytes
        }
        return Array(bytes[from..<to])
    }
}

/// True when `stty -a` output shows canonical mode and echo on.
func sttyIsSane(_ stty: String) -> Bool {
    let flags = stty.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init)
    return flags.contains("icanon") && flags.contains("echo")
}

extension TmuxSession {
    /// A tmux format value of the pane, e.g. `#{alternate_on}`.
    func paneFormat(_ format: String) -> String {
        let result = try? ProcessRunner.run(tmux, ["-L", socket, "display-message", "-p", "-t", target, format])
        return (result?.standardOutput ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Whether process `pid` has ended (gone, or a zombie nobody reaped yet).
func processHasEnded(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
    guard let close = stat.lastIndex(of: ")") else { return true }
    let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).prefix(1)
    return state == "Z" || state == "X"
}
