import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A fresh store made by the built `failedbanks import`, and the browser
/// started on it in a tmux pane, inside a shell that afterwards records the
/// exit status and `stty -a` (so a test can see how the terminal was left).
///
///     let fixture = try BrowserFixture()
///     let tmux = try fixture.launch()
///     defer { tmux.close(); fixture.remove() }
///     try tmux.waitFor("Failed Banks")
final class BrowserFixture {
    /// The package root (found from this file's path).
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }  // EndToEnd, FailedBanksTests, Tests
        return url
    }()

    /// The built executable (``BuiltProgram``).
    static let binary = BuiltProgram.path("failedbanks")

    /// The CSV the stores are made from: the project's sample, else a real FDIC file.
    static let sourceCSV: String? = {
        let candidates = [
            packageRoot.appendingPathComponent("Data/banklist.csv").path,
            packageRoot.appendingPathComponent("Tests/Fixtures/banklist_2025_resaved_mojibake.csv").path,
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }()

    static let sqlite3 = ProcessRunner.which("sqlite3")
    static let tmux = ProcessRunner.which("tmux")

    /// Why the end-to-end tests cannot run here, or nil when they can.
    static let unavailableReason: String? = {
        if binary == nil { return BuiltProgram.missingReason("failedbanks") }
        if tmux == nil { return "tmux is not installed" }
        if sqlite3 == nil { return "the sqlite3 shell is not installed" }
        if sourceCSV == nil { return "neither Data/banklist.csv nor Tests/Fixtures is present" }
        return nil
    }()
    static var isAvailable: Bool { unavailableReason == nil }

    let directory: URL
    var database: String { directory.appendingPathComponent("banks.sqlite").path }

    /// Makes a temporary directory and imports the source CSV into a new store
    /// there (`importing: false` leaves the store missing: a first launch).
    init(csv: String? = BrowserFixture.sourceCSV, importing: Bool = true) throws {
        guard let binary = BrowserFixture.binary, let csv else {
            throw EndToEndError(BrowserFixture.unavailableReason ?? "unavailable")
        }
        directory = TemporaryDirectory.create("failedbanks-e2e")
        guard importing else { return }
        let result = try ProcessRunner.run(binary, ["import", csv, "--db", database, "--quiet"])
        guard result.status == 0 else {
            throw EndToEndError("failedbanks import failed (\(result.status)): \(result.standardError)")
        }
    }

    /// Removes the temporary directory.
    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the browser on the fixture's store in a new tmux server.
    func launch(
        _ arguments: [String] = [],
        width: Int = 80,
        height: Int = 24,
        environment: [String: String] = [:]
    ) throws -> TmuxSession {
        guard let binary = BrowserFixture.binary else { throw EndToEndError("no binary") }
        let script = directory.appendingPathComponent("run.sh")
        let quoted = ([binary, "--db", database] + arguments).map(ProcessRunner.shellQuoted).joined(separator: " ")
        let text = """
            #!/bin/sh
            cd \(ProcessRunner.shellQuoted(directory.path))
            rm -f app.pid exit.txt stty.txt
            # Ctrl-C reaches the whole foreground group: the shell must outlive it to record
            # what happened (a handler, not an ignore, so the app does not inherit SIG_IGN).
            trap ':' INT
            sh -c 'echo $$ > app.pid; exec "$@"' sh \(quoted) 2> app.stderr
            status=$?
            stty -a > stty.txt 2>&1
            echo "$status" > exit.txt
            printf '\\nEXITED %s\\n' "$status"
            exec sleep 3600

            """
        try text.write(to: script, atomically: true, encoding: .utf8)
        let base = [
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "screen",
            "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path,
        ]
        return try TmuxSession(
            command: ["/bin/sh", script.path],
            width: width,
            height: height,
            environment: base.merging(environment) { _, new in new }
        )
    }

    /// The browser's process id, once it has started.
    func appPID(timeout: Double = 30) -> pid_t? {
        let deadline = Date().addingTimeInterval(timeout)
        let file = directory.appendingPathComponent("app.pid").path
        while Date() < deadline {
            if let text = try? String(contentsOfFile: file, encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return pid
            }
            usleep(20_000)
        }
        return nil
    }

    /// The browser's exit status, once the shell has recorded it.
    func exitStatus(timeout: Double = 30) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        let file = directory.appendingPathComponent("exit.txt").path
        while Date() < deadline {
            if let text = try? String(contentsOfFile: file, encoding: .utf8),
                let status = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return status
            }
            usleep(20_000)
        }
        return nil
    }

    /// `stty -a` as the pane's shell saw it after the browser exited.
    func sttyAfterExit() -> String? {
        try? String(contentsOfFile: directory.appendingPathComponent("stty.txt").path, encoding: .utf8)
    }

    /// What the browser wrote to stderr.
    func standardError() -> String {
        (try? String(contentsOfFile: directory.appendingPathComponent("app.stderr").path, encoding: .utf8)) ?? ""
    }

    /// Runs SQL with the `sqlite3` shell on the fixture's store; rows as `|`-separated lines.
    @discardableResult
    func sql(_ statements: String, separator: String = "|") throws -> String {
        guard let sqlite3 = BrowserFixture.sqlite3 else { throw EndToEndError("no sqlite3") }
        let result = try ProcessRunner.run(
            sqlite3,
            [
                "-batch", "-separator", separator, "-cmd", ".timeout 5000",
                database, statements,
            ]
        )
        guard result.status == 0 else {
            throw EndToEndError("sqlite3 failed (\(result.status)): \(result.standardError)")
        }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
