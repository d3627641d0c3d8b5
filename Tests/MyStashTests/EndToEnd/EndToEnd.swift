import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The built `mystash` the end-to-end tests drive (``BuiltProgram``), and why they cannot run here.
enum EndToEnd {
    /// The built executable.
    static let binary = BuiltProgram.path("mystash")

    /// Why the end-to-end tests cannot run here, or nil.
    static let unavailableReason: String? = {
        if binary == nil { return BuiltProgram.missingReason("mystash") }
        if ProcessRunner.which("tmux") == nil { return "tmux is not installed" }
        return nil
    }()
}

/// A temporary directory with a stash path, and `mystash` launched on it in tmux.
final class StashSession {
    let directory: URL
    var database: String { directory.appendingPathComponent("stash.sqlite").path }
    private var runs = 0

    init() throws {
        directory = TemporaryDirectory.create("mystash-e2e")
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// The environment of the app: a fast KDF (tests only), UTF-8, a known terminal.
    static let environment = [
        "MYSTASH_KDF": "min", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "screen",
        "HOME": NSTemporaryDirectory(),
    ]

    /// Starts `mystash --db <store>` in a new tmux pane; the pane's shell then
    /// records the exit status and `stty -a` in `exit-N.txt` / `stty-N.txt`.
    /// `environment` replaces the app's (`StashSession.environment`) when given.
    func launch(
        _ extra: [String] = [],
        subcommand: [String] = [],
        environment: [String: String]? = nil
    ) throws -> (pane: TmuxSession, run: Int) {
        guard let binary = EndToEnd.binary else { throw EndToEndError(EndToEnd.unavailableReason ?? "unavailable") }
        runs += 1
        let n = runs
        let script = directory.appendingPathComponent("run-\(n).sh")
        let command = ([binary] + subcommand + ["--db", database] + extra).map(ProcessRunner.shellQuoted).joined(
            separator: " "
        )
        let text = """
            #!/bin/sh
            cd \(ProcessRunner.shellQuoted(directory.path))
            \(command) 2> stderr-\(n).txt
            status=$?
            stty -a > stty-\(n).txt 2>&1
            echo "$status" > exit-\(n).txt
            printf '\\nEXITED %s\\n' "$status"
            exec sleep 3600

            """
        try text.write(to: script, atomically: true, encoding: .utf8)
        let pane = try TmuxSession(
            command: ["/bin/sh", script.path],
            environment: environment ?? StashSession.environment
        )
        return (pane, n)
    }

    /// The exit status of run `n`, once recorded.
    func exitStatus(of n: Int, timeout: Double = 30) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        let file = directory.appendingPathComponent("exit-\(n).txt").path
        while Date() < deadline {
            if let text = try? String(contentsOfFile: file, encoding: .utf8),
                let status = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return status
            }
            usleep(40_000)
        }
        return nil
    }

    func file(_ name: String) -> String {
        (try? String(contentsOfFile: directory.appendingPathComponent(name).path, encoding: .utf8)) ?? ""
    }

    /// The store and its companions, byte for byte.
    func storeBytes() -> [String: Data] {
        var result: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm"] {
            if let data = FileManager.default.contents(atPath: database + suffix) { result[suffix] = data }
        }
        return result
    }

    /// `mystash list KIND --db <store>`.
    func list(_ kind: String) throws -> ProcessResult {
        try ProcessRunner.runDetaching(EndToEnd.binary!, ["list", kind, "--db", database])
    }
}
