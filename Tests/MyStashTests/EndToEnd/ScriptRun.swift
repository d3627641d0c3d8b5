import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Runs `mystash` as a script would: text on stdin and the passphrase on
/// descriptor 3 (`--passphrase-fd 3`), stdout and stderr collected.
enum ScriptRun {
    /// A running child whose descriptor 3 is a pipe the test holds open (the child blocks reading it).
    struct Blocked {
        let pid: pid_t
        let writeEnd: Int32

        /// Closes the pipe (the child sees the end of input) and waits for it.
        func finish() -> Int32 {
            close(writeEnd)
            return wait()
        }

        /// Waits for the child to end (the pipe stays open); its exit status.
        func wait() -> Int32 { (try? ProcessRunner.waitForExit(pid)) ?? -1 }
    }

    static let environment: [String: String] = {
        var environment = ProcessInfo.processInfo.environment
        environment["MYSTASH_KDF"] = "min"
        environment["LANG"] = "C.UTF-8"
        // A copy must not reach the tmux the tests may run in (a pane's own tmux is set up by the test).
        environment["TMUX"] = nil
        // What the binary remembers of each stash (SeenStashes) stays with this test run, not the account's.
        environment["XDG_STATE_HOME"] = NSTemporaryDirectory() + "/mystash-test-state-\(getpid())"
        return environment
    }()

    /// Runs `mystash arguments` with `stdin` and `fd3` (each nil for /dev/null) to completion;
    /// `fd3Path` opens that file as descriptor 3 instead (`/dev/zero`);
    /// `wrapper` goes before the binary (`["prlimit", "--fsize=65536", "--"]`).
    static func run(
        _ arguments: [String],
        stdin: String? = nil,
        fd3: String? = nil,
        fd3Path: String? = nil,
        extraEnvironment: [String: String] = [:],
        wrapper: [String] = []
    ) throws -> ProcessResult {
        guard let binary = EndToEnd.binary else { throw EndToEndError(BuiltProgram.missingReason("mystash")) }
        let folder = TemporaryDirectory("mystash-script")
        defer { folder.remove() }
        let base = folder.path("run")
        try (stdin ?? "").write(toFile: base + ".in", atomically: false, encoding: .utf8)
        try (fd3 ?? "").write(toFile: base + ".fd3", atomically: false, encoding: .utf8)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin == nil ? "/dev/null" : base + ".in", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, base + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, base + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let fd3Path {
            posix_spawn_file_actions_addopen(&actions, 3, fd3Path, O_RDONLY, 0)
        } else if fd3 != nil {
            posix_spawn_file_actions_addopen(&actions, 3, base + ".fd3", O_RDONLY, 0)
        }
        let hasFD3 = fd3 != nil || fd3Path != nil
        ProcessRunner.closeInheritedDescriptors(&actions, from: hasFD3 ? 4 : 3)  // (after the open of 3)
        let pid = try ProcessRunner.spawn(
            wrapper + [binary] + arguments,
            actions: &actions,
            environment: environment.merging(extraEnvironment) { $1 }
        )
        return ProcessResult(
            status: try ProcessRunner.waitForExit(pid),
            standardOutput: (try? String(contentsOfFile: base + ".out", encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: base + ".err", encoding: .utf8)) ?? ""
        )
    }

    /// Starts `argv` with descriptor 3 an open, empty pipe, and stdout/stderr to /dev/null.
    ///
    /// `socket` makes descriptor 3 one end of a Unix socket pair instead: a test can then tell,
    /// by sending on its end with `MSG_NOSIGNAL`, whether any process still holds the other.
    /// `newSession` starts the child in a session of its own, without a controlling terminal.
    static func startBlocked(
        _ argv: [String],
        extraEnvironment: [String: String] = [:],
        socket: Bool = false,
        newSession: Bool = false
    ) throws -> Blocked {
        var fds: [Int32] = [0, 0]
        if socket {
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else {
                throw EndToEndError("socketpair failed")
            }
        } else {
            guard pipe(&fds) == 0 else { throw EndToEndError("pipe failed") }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[0], 3)
        posix_spawn_file_actions_addclose(&actions, fds[1])
        ProcessRunner.closeInheritedDescriptors(&actions, from: 4)  // (3 is the pipe, dup2'ed above)
        let pid = try ProcessRunner.spawn(
            argv,
            actions: &actions,
            environment: environment.merging(extraEnvironment) { $1 },
            newSession: newSession
        )
        close(fds[0])
        return Blocked(pid: pid, writeEnd: fds[1])
    }
}
