import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion and collects its output (test helper).
public struct ProcessResult {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
}

public enum ProcessRunner {
    /// Runs `executable` with `arguments`; `input` is written to stdin.
    @discardableResult
    public static func run(
        _ executable: String,
        _ arguments: [String],
        input: String? = nil,
        environment: [String: String]? = nil
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inPipe = Pipe()
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try? inPipe.fileHandleForWriting.close()
        // Read both pipes concurrently so a chatty program cannot block on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self)
        )
    }

    /// Runs a program that leaves a daemon behind (`tmux new-session` forks the
    /// tmux server) and waits for the program itself, not the daemon.
    ///
    /// Not Foundation's `Process`: on Linux it notices a child's exit through a
    /// descriptor the child inherits, which the daemon keeps open forever, and
    /// pipes for the output would never reach end-of-file either. So
    /// `posix_spawn` with every descriptor above stderr closed (the daemon must
    /// not hold a neighbouring test's pipes), output to a file, and `waitpid`.
    @discardableResult
    public static func runDetaching(_ executable: String, _ arguments: [String]) throws -> ProcessResult {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("detach-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        closeFrom(3, in: &actions)
        // The test runner's threads block most signals, and a spawned program inherits the
        // mask: a tmux server that cannot see SIGCHLD or SIGTERM never finishes kill-server.
        // Start it with nothing blocked and every signal at its default.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        sigdelset(&allSignals, SIGKILL)
        sigdelset(&allSignals, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            return ProcessResult(status: -1, standardOutput: "", standardError: "posix_spawn failed: \(spawned)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ProcessResult(status: exitStatus, standardOutput: output, standardError: output)
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+; not visible to
    /// Swift without `_GNU_SOURCE`, so looked up at run time), else closing
    /// what `/proc/self/fd` lists now.
    private static func closeFrom(_ lowest: Int32, in actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
            if closeFrom(&actions, lowest) == 0 { return }
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd >= lowest {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }

    /// The full path of a program found on `$PATH`, or nil.
    public static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
