import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Finding the built `mystash`, running programs, and a launch script that
/// records the app's exit status and terminal settings (end-to-end tests).
enum EndToEnd {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    struct Result {
        var status: Int32
        var output: String
        var error: String
    }

    /// The package root, from this file's path.
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }  // EndToEnd, MyStashTests, Tests
        return url
    }()

    /// The built executable (``BuiltProgram``).
    static let binary = BuiltProgram.path("mystash")

    /// Why the end-to-end tests cannot run here, or nil.
    static let unavailableReason: String? = {
        if binary == nil { return BuiltProgram.missingReason("mystash") }
        if which("tmux") == nil { return "tmux is not installed" }
        return nil
    }()

    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs a program to completion, collecting its output.
    ///
    /// With `posix_spawn` and `waitpid`, output through temporary files:
    /// Foundation's `Process` on Linux learns of the exit through a descriptor
    /// the child inherits, and `tmux new-session` leaves a server holding it,
    /// so `waitUntilExit()` would wait for the tmux server to end.
    /// Closes every descriptor above stderr in the child: a tmux server started by
    /// `new-session` lives on and would otherwise hold the pipes, ptys and database files
    /// other tests running in this process have open (a pipe whose write end it holds never
    /// reaches end-of-file). `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+, looked
    /// up at run time: not visible to Swift without `_GNU_SOURCE`), else what `/proc/self/fd` lists.
    static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t, from lowest: Int32 = 3) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np"),
            unsafeBitCast(symbol, to: CloseFrom.self)(&actions, lowest) == 0
        {
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd >= lowest { posix_spawn_file_actions_addclose(&actions, fd) }
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Result
    {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("mystash-run-\(UUID().uuidString)")
            .path
        let outPath = base + ".out"
        let errPath = base + ".err"
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        closeInheritedDescriptors(&actions)
        let environment = environment ?? ProcessInfo.processInfo.environment
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let rc = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard rc == 0 else { throw Failure("cannot start \(executable): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure("waitpid failed for \(executable)") }
        }
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(
            status: exitCode,
            output: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            error: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        )
    }

    static func shellQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// A temporary directory with a stash path, and `mystash` launched on it in tmux.
final class StashSession {
    let directory: URL
    var database: String { directory.appendingPathComponent("stash.sqlite").path }
    private var runs = 0

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mystash-e2e-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
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
        guard let binary = EndToEnd.binary else { throw EndToEnd.Failure(EndToEnd.unavailableReason ?? "unavailable") }
        runs += 1
        let n = runs
        let script = directory.appendingPathComponent("run-\(n).sh")
        let command = ([binary] + subcommand + ["--db", database] + extra).map(EndToEnd.shellQuote).joined(
            separator: " "
        )
        let text = """
            #!/bin/sh
            cd \(EndToEnd.shellQuote(directory.path))
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
    func list(_ kind: String) throws -> EndToEnd.Result {
        try EndToEnd.run(EndToEnd.binary!, ["list", kind, "--db", database])
    }
}
