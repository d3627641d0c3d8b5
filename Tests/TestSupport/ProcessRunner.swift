import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion and collects its output (test helper).
public struct ProcessResult {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String

    /// A program's exit status and what it wrote.
    public init(status: Int32, standardOutput: String, standardError: String) {
        self.status = status
        self.standardOutput = standardOutput
        self.standardError = standardError
    }
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
    /// tmux server) and waits for the program itself, not the daemon; standard input is
    /// `/dev/null`, `environment` (by default this process's) the program's.
    ///
    /// Not Foundation's `Process`: on Linux it notices a child's exit through a
    /// descriptor the child inherits, which the daemon keeps open forever, and
    /// pipes for the output would never reach end-of-file either. So
    /// ``spawn(_:actions:environment:newSession:)`` with every descriptor above stderr
    /// closed (the daemon must not hold a neighbouring test's pipes, ptys or database
    /// files), output to files, and `waitpid`.
    @discardableResult
    public static func runDetaching(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]? = nil
    ) throws -> ProcessResult {
        let folder = TemporaryDirectory("detach")
        defer { folder.remove() }
        let base = folder.path("run")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, base + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, base + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        closeInheritedDescriptors(&actions)
        let pid = try spawn([executable] + arguments, actions: &actions, environment: environment)
        let status = try waitForExit(pid)
        return ProcessResult(
            status: status,
            standardOutput: (try? String(contentsOfFile: base + ".out", encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: base + ".err", encoding: .utf8)) ?? ""
        )
    }

    /// Starts `argv` (`argv[0]` a path) with `actions`, as a shell starts a program: no signal
    /// blocked (the test runner's threads block most, and a tmux server that cannot see SIGCHLD
    /// or SIGTERM never finishes kill-server), every signal at its default; `environment` (by
    /// default this process's). `newSession` gives the child a session of its own, without a
    /// controlling terminal (`POSIX_SPAWN_SETSID`, glibc 2.26+, which Swift does not see
    /// without `_GNU_SOURCE`). The caller waits for it (``waitForExit(_:)``).
    public static func spawn(
        _ argv: [String],
        actions: inout posix_spawn_file_actions_t,
        environment: [String: String]? = nil,
        newSession: Bool = false
    ) throws -> pid_t {
        let environment = environment ?? ProcessInfo.processInfo.environment
        let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let cEnvironment: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in cArguments + cEnvironment { free(pointer) } }
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
        let flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | (newSession ? 0x80 : 0)
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var pid = pid_t()
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        guard spawned == 0 else {
            throw EndToEndError("cannot start \(argv[0]): \(String(cString: strerror(spawned)))")
        }
        return pid
    }

    /// Waits for the child `pid` to end; its exit status as a shell gives it (128 + the
    /// signal for one that a signal ended).
    public static func waitForExit(_ pid: pid_t) throws -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw EndToEndError("waitpid failed for process \(pid)") }
        }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Makes `actions` close every descriptor from `lowest` up in the child:
    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+; not visible to
    /// Swift without `_GNU_SOURCE`, so looked up at run time), else closing
    /// what `/proc/self/fd` lists now.
    public static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t, from lowest: Int32 = 3) {
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

    /// `text` quoted for `/bin/sh` (single quotes; a quote inside becomes `'\''`).
    public static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
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
