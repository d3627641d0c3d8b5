import Foundation

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
        func wait() -> Int32 {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        }
    }

    static let environment: [String: String] = {
        var environment = ProcessInfo.processInfo.environment
        environment["MYSTASH_KDF"] = "min"
        environment["LANG"] = "C.UTF-8"
        // A copy must not reach the tmux the tests may run in (a pane's own tmux is set up by the test).
        environment["TMUX"] = nil
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
    ) throws -> EndToEnd.Result {
        guard let binary = EndToEnd.binary else { throw EndToEnd.Failure("no built mystash") }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("mystash-script-\(UUID().uuidString)")
            .path
        defer { for suffix in [".in", ".fd3", ".out", ".err"] { unlink(base + suffix) } }
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
        EndToEnd.closeInheritedDescriptors(&actions, from: hasFD3 ? 4 : 3)  // (after the open of 3)
        let pid = try spawn(
            wrapper + [binary] + arguments,
            actions: &actions,
            environment: environment.merging(extraEnvironment) { $1 }
        )
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw EndToEnd.Failure("waitpid failed") }
        }
        return EndToEnd.Result(
            status: (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f),
            output: (try? String(contentsOfFile: base + ".out", encoding: .utf8)) ?? "",
            error: (try? String(contentsOfFile: base + ".err", encoding: .utf8)) ?? ""
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
                throw EndToEnd.Failure("socketpair failed")
            }
        } else {
            guard pipe(&fds) == 0 else { throw EndToEnd.Failure("pipe failed") }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[0], 3)
        posix_spawn_file_actions_addclose(&actions, fds[1])
        EndToEnd.closeInheritedDescriptors(&actions, from: 4)  // (3 is the pipe, dup2'ed above)
        let pid = try spawn(
            argv,
            actions: &actions,
            environment: environment.merging(extraEnvironment) { $1 },
            newSession: newSession
        )
        close(fds[0])
        return Blocked(pid: pid, writeEnd: fds[1])
    }

    private static func spawn(
        _ argv: [String],
        actions: inout posix_spawn_file_actions_t,
        environment: [String: String],
        newSession: Bool = false
    ) throws -> pid_t {
        let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let cEnvironment: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // As a shell starts a program: no signal blocked (the test runner's threads may block
        // some), every signal at its default. POSIX_SPAWN_SETSID (glibc 2.26+; Swift does not
        // see it without _GNU_SOURCE) gives the child a session of its own.
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        let flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | (newSession ? 0x80 : 0)
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var pid = pid_t()
        let rc = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        guard rc == 0 else { throw EndToEnd.Failure("cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
        return pid
    }
}
