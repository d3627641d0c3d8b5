import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A private tmux server with one pane running a command: the real terminal
/// the end-to-end tests type into and read from (`capture-pane`).
///
/// Each pane has its own socket, so tests never see each other or a
/// developer's tmux. Reads poll until a condition holds or a deadline passes.
///
///     let pane = try TmuxPane(command: ["/bin/sh", script])
///     defer { pane.close() }
///     try pane.waitFor("Master passphrase:")
///     pane.type("secret"); pane.press("Enter")
final class TmuxPane {
    struct Timeout: Error, CustomStringConvertible {
        let what: String
        let screen: String
        var description: String { "timed out waiting for \(what); the screen was:\n\(screen)" }
    }

    nonisolated(unsafe) private static var counter = 0
    private static let lock = NSLock()

    let tmux: String
    let socket: String
    private var closed = false

    init(command: [String], width: Int = 80, height: Int = 24, environment: [String: String]) throws {
        guard let tmux = EndToEnd.which("tmux") else { throw EndToEnd.Failure("tmux is not installed") }
        self.tmux = tmux
        let n = TmuxPane.lock.withLock {
            TmuxPane.counter += 1
            return TmuxPane.counter
        }
        socket = "mystash-e2e-\(getpid())-\(n)"
        var arguments = [
            "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "main",
            "-x", "\(width)", "-y", "\(height)",
        ]
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
        let result = try EndToEnd.run(tmux, arguments + command)
        guard result.status == 0 else { throw EndToEnd.Failure("tmux new-session failed: \(result.error)") }
        _ = try? EndToEnd.run(tmux, ["-L", socket, "set-option", "-g", "window-size", "manual"])
    }

    deinit { close() }

    /// Kills this pane's tmux server and what runs in it.
    func close() {
        guard !closed else { return }
        closed = true
        // kill-session ends the pane's programs at once; kill-server then stops the server.
        _ = try? EndToEnd.run(tmux, ["-L", socket, "kill-session", "-t", "main"])
        _ = try? EndToEnd.run(tmux, ["-L", socket, "kill-server"])
        // The server may leave its socket file behind; it is ours to remove.
        let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        unlink("\(directory)/tmux-\(getuid())/\(socket)")
    }

    /// What the pane shows now.
    func capture() -> String {
        (try? EndToEnd.run(tmux, ["-L", socket, "capture-pane", "-p", "-t", "main"]).output) ?? ""
    }

    /// Starts appending everything the pane's program writes to the terminal to the file at `path`
    /// (`tmux pipe-pane`). Unlike a `capture()`, which sees only the screen at the moment it is
    /// taken, the record keeps a screen the program showed briefly (before auto-lock replaced it,
    /// say), however late the test gets to look.
    func recordOutput(to path: String) throws {
        FileManager.default.createFile(atPath: path, contents: nil)
        let result = try EndToEnd.run(
            tmux,
            [
                "-L", socket, "pipe-pane", "-t", "main", "-o",
                "exec cat >> \(EndToEnd.shellQuote(path))",
            ]
        )
        guard result.status == 0 else { throw EndToEnd.Failure("tmux pipe-pane failed: \(result.error)") }
    }

    /// Waits until the output recorded in `path` (``recordOutput(to:)``) past byte `offset` contains `text`.
    func waitForRecordedOutput(_ text: String, in path: String, after offset: Int = 0, timeout: Double = 30) throws {
        let deadline = Date().addingTimeInterval(max(timeout, 30))
        while true {
            let bytes = FileManager.default.contents(atPath: path) ?? Data()
            let recorded = String(decoding: bytes.dropFirst(offset), as: UTF8.self)
            if recorded.contains(text) { return }
            guard Date() < deadline else {
                throw Timeout(what: "“\(text)” in the recorded output", screen: capture())
            }
            usleep(40_000)
        }
    }

    /// How many bytes the output record at `path` holds so far.
    func recordedOutputSize(_ path: String) -> Int {
        FileManager.default.contents(atPath: path)?.count ?? 0
    }

    /// Types `text` literally.
    func type(_ text: String) {
        _ = try? EndToEnd.run(tmux, ["-L", socket, "send-keys", "-t", "main", "-l", text])
    }

    /// Presses keys by tmux name ("Enter", "Tab", "C-s", "Escape", "Home").
    func press(_ keys: String...) {
        for key in keys {
            _ = try? EndToEnd.run(tmux, ["-L", socket, "send-keys", "-t", "main", key])
            // A lone Escape must not merge with the next key into an Alt chord (25 ms ESC delay).
            if key == "Escape" { usleep(120_000) }
        }
    }

    /// Polls the screen until `condition` holds; returns that screen. Waits at least 30 s
    /// whatever `timeout` says: a deadline only decides how long a failing test takes, and a
    /// loaded machine can stall a program for seconds.
    @discardableResult
    func waitUntil(_ what: String, timeout: Double = 10, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(max(timeout, 30))
        var screen = capture()
        while !condition(screen) {
            guard Date() < deadline else { throw Timeout(what: what, screen: screen) }
            usleep(40_000)
            screen = capture()
        }
        return screen
    }

    /// Waits until the screen contains `text`.
    @discardableResult
    func waitFor(_ text: String, timeout: Double = 10) throws -> String {
        try waitUntil("“\(text)”", timeout: timeout) { $0.contains(text) }
    }
}
