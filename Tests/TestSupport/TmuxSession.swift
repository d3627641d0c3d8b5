import Foundation

/// A private tmux server with one detached pane running a command: the real
/// terminal the end-to-end tests drive.
///
/// Each session has its own socket (`tmux -L <unique>`), so tests never see
/// each other's panes or a developer's own tmux; `close()` kills the server.
/// Reads poll `capture-pane` until a condition holds or a deadline passes:
/// no fixed sleeps.
///
///     let tmux = try TmuxSession(command: ["/bin/sh", script], width: 80, height: 24)
///     defer { tmux.close() }
///     let screen = try tmux.waitUntil { $0.contains("Failed Banks") }
///     tmux.send("Down", "Down")
public final class TmuxSession {
    public struct Timeout: Error, CustomStringConvertible {
        public let what: String
        public let lastScreen: String
        public var description: String { "timed out waiting for \(what); the screen was:\n\(lastScreen)" }
    }

    nonisolated(unsafe) private static var counter = 0
    private static let counterLock = NSLock()

    public let tmux: String
    public let socket: String
    public let target = "main"

    public init(command: [String], width: Int = 80, height: Int = 24, environment: [String: String] = [:]) throws {
        guard let tmux = ProcessRunner.which("tmux") else { throw EndToEndError("tmux is not installed") }
        self.tmux = tmux
        let n = TmuxSession.counterLock.withLock {
            TmuxSession.counter += 1
            return TmuxSession.counter
        }
        socket = "fbtest-\(getpid())-\(n)-\(UInt32.random(in: 0...UInt32.max))"
        var arguments = [
            "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", target,
            "-x", "\(width)", "-y", "\(height)",
        ]
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
        arguments += command
        let result = try ProcessRunner.runDetaching(tmux, arguments)
        guard result.status == 0 else {
            throw EndToEndError("tmux new-session failed: \(result.standardError)")
        }
        // Keep the window at the size asked for, whatever clients come and go.
        try ProcessRunner.run(tmux, ["-L", socket, "set-option", "-g", "window-size", "manual"])
    }

    deinit { close() }

    private var closed = false
    /// Kills this test's tmux server (and the programs in its pane), and removes its socket file.
    public func close() {
        guard !closed else { return }
        closed = true
        // kill-session ends the pane's programs at once; kill-server then stops the server.
        _ = try? ProcessRunner.run(tmux, ["-L", socket, "kill-session", "-t", target])
        _ = try? ProcessRunner.run(tmux, ["-L", socket, "kill-server"])
        // The server may leave its socket file behind; it is ours to remove.
        let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        unlink("\(directory)/tmux-\(getuid())/\(socket)")
    }

    /// The visible text of the pane, one line per row, trailing spaces trimmed.
    public func capture() -> String {
        let result = try? ProcessRunner.run(tmux, ["-L", socket, "capture-pane", "-p", "-t", target])
        var output = result?.standardOutput ?? ""
        if output.hasSuffix("\n") { output.removeLast() }
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.map { line in
            var s = String(line)
            while s.hasSuffix(" ") { s.removeLast() }
            return s
        }.joined(separator: "\n")
    }

    /// Polls the pane until `condition` holds; returns that screen. Waits at least
    /// ``generousDeadline`` whatever `timeout` says: a deadline only decides how long a
    /// failing test takes, and a loaded machine can stall a program for seconds.
    @discardableResult
    public func waitUntil(
        _ what: String = "the expected screen",
        timeout: Double = 5,
        _ condition: (String) -> Bool
    ) throws -> String {
        let deadline = Date().addingTimeInterval(max(timeout, generousDeadline))
        var screen = capture()
        while !condition(screen) {
            if Date() > deadline { throw Timeout(what: what, lastScreen: screen) }
            usleep(30_000)
            screen = capture()
        }
        return screen
    }

    /// Waits until `condition` holds on a whole frame: a screen that has not changed for `quiet`
    /// seconds. A capture can catch a frame the program is still writing (tmux shows the bytes
    /// written so far: a new title over the last screen's rows), so a condition that the last
    /// screen's rows could meet with the next screen's title is checked once drawing stops.
    @discardableResult
    public func waitUntilWhole(
        _ what: String,
        timeout: Double = 5,
        quiet: Double = 0.3,
        _ condition: (String) -> Bool
    ) throws -> String {
        let deadline = Date().addingTimeInterval(max(timeout, generousDeadline))
        while true {
            let screen = try waitUntil(what, timeout: deadline.timeIntervalSinceNow, condition)
            let settled = try waitUntilSettled(quiet: quiet)
            if condition(settled) { return settled }
            if Date() > deadline { throw Timeout(what: what + " (on a whole frame)", lastScreen: screen) }
        }
    }

    /// Waits until the pane has not changed for `quiet` seconds (an animation has finished);
    /// returns that screen. Throws after ``generousDeadline`` of changes.
    @discardableResult
    public func waitUntilSettled(quiet: Double = 0.5) throws -> String {
        let deadline = Date().addingTimeInterval(generousDeadline)
        var screen = capture()
        var since = Date()
        while Date().timeIntervalSince(since) < quiet {
            if Date() > deadline { throw Timeout(what: "the screen to settle", lastScreen: screen) }
            usleep(30_000)
            let now = capture()
            if now != screen {
                screen = now
                since = Date()
            }
        }
        return screen
    }

    /// Waits until the pane shows `text`.
    @discardableResult
    public func waitFor(_ text: String, timeout: Double = 5) throws -> String {
        try waitUntil("\"\(text)\"", timeout: timeout) { $0.contains(text) }
    }

    /// Sends tmux key names (`Down`, `PageDown`, `Enter`, `Escape`, `C-c`, `Tab`, `BTab`, `F1`, `DC`).
    public func send(_ keys: String...) {
        _ = try? ProcessRunner.run(tmux, ["-L", socket, "send-keys", "-t", target] + keys)
    }

    /// Presses keys by tmux name one at a time ("Enter", "Tab", "C-s", "Escape", "Home"). A lone
    /// Escape is followed by a pause longer than the programs' 25 ms ESC delay, so that it does
    /// not merge with the next key into an Alt chord.
    public func press(_ keys: String...) {
        for key in keys {
            _ = try? ProcessRunner.run(tmux, ["-L", socket, "send-keys", "-t", target, key])
            if key == "Escape" { usleep(120_000) }
        }
    }

    /// Starts appending everything the pane's program writes to the terminal to the file at `path`
    /// (`tmux pipe-pane`). Unlike a ``capture()``, which sees only the screen at the moment it is
    /// taken, the record keeps a screen the program showed briefly, however late the test looks.
    public func recordOutput(to path: String) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let quoted = ProcessRunner.shellQuoted(path)
        let result = try ProcessRunner.run(
            tmux,
            ["-L", socket, "pipe-pane", "-t", target, "-o", "exec cat >> \(quoted)"]
        )
        guard result.status == 0 else { throw EndToEndError("tmux pipe-pane failed: \(result.standardError)") }
    }

    /// Waits until the output recorded in `path` (``recordOutput(to:)``) past byte `offset` contains `text`.
    public func waitForRecordedOutput(
        _ text: String,
        in path: String,
        after offset: Int = 0,
        timeout: Double = 30
    )
        throws
    {
        let deadline = Date().addingTimeInterval(max(timeout, generousDeadline))
        while true {
            let bytes = FileManager.default.contents(atPath: path) ?? Data()
            if String(decoding: bytes.dropFirst(offset), as: UTF8.self).contains(text) { return }
            guard Date() < deadline else {
                throw Timeout(what: "“\(text)” in the recorded output", lastScreen: capture())
            }
            usleep(40_000)
        }
    }

    /// How many bytes the output record at `path` holds so far.
    public func recordedOutputSize(_ path: String) -> Int {
        FileManager.default.contents(atPath: path)?.count ?? 0
    }

    /// Types `text` literally.
    public func type(_ text: String) {
        _ = try? ProcessRunner.run(tmux, ["-L", socket, "send-keys", "-t", target, "-l", text])
    }

    /// Resizes the window (the program receives SIGWINCH).
    public func resize(width: Int, height: Int) {
        _ = try? ProcessRunner.run(
            tmux,
            [
                "-L", socket, "resize-window", "-t", target,
                "-x", "\(width)", "-y", "\(height)",
            ]
        )
    }
}

/// Thrown when the environment cannot run an end-to-end test (no tmux, no binary).
public struct EndToEndError: Error, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// The least time a wait for a condition gives it before failing: a deadline only decides
/// how long a failing test takes, and a loaded machine can stall a program for seconds.
public let generousDeadline = 30.0
