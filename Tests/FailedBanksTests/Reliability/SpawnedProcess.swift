import Foundation

#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A child process that keeps running while the test works beside it: its
/// output goes to files (no pipe can fill and stall it), its input is an
/// optional pipe, and it can be signalled (SIGKILL mid-write) and waited for
/// with a deadline. ``ProcessRunner`` covers run-to-completion; this covers
/// everything that must be interrupted or raced.
///
/// Started with `posix_spawn` rather than `Foundation.Process`, for two
/// reasons that matter to these tests: the child gets the signal mask and
/// dispositions a shell would give it (test threads are dispatch workers that
/// block nearly every signal, and a child inherits that mask, so SIGINT,
/// SIGTERM, SIGHUP or SIGTSTP would silently not arrive), and no descriptor
/// of the test process leaks into it (`Foundation.Process` notices an exit by
/// a socket the child inherits; a grandchild that keeps it — a daemon —
/// makes the parent wait forever).
///
///     let child = try SpawnedProcess(binary, ["import", csv, "--db", db], in: directory, name: "import")
///     usleep(120_000)
///     child.signal(SIGKILL)
///     child.wait(timeout: 5)
final class SpawnedProcess {
    let name: String
    let outputPath: String
    let errorPath: String
    let pid: pid_t
    private var input: FileHandle?
    private var status: Int32?
    private let lock = NSLock()

    init(
        _ executable: String,
        _ arguments: [String],
        in directory: URL,
        name: String,
        environment: [String: String]? = nil,
        withInput: Bool = false
    ) throws {
        _ = SpawnedProcess.ignoreBrokenPipes
        self.name = name
        outputPath = directory.appendingPathComponent("\(name).stdout").path
        errorPath = directory.appendingPathComponent("\(name).stderr").path

        var inputPipe: [Int32] = [-1, -1]
        if withInput {
            guard pipe(&inputPipe) == 0 else { throw EndToEndError("pipe: errno \(errno)") }
            _ = fcntl(inputPipe[1], F_SETFD, FD_CLOEXEC)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if withInput {
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        SpawnedProcess.closeInheritedDescriptors(&actions, keeping: withInput ? [inputPipe[0]] : [])
        _ = SpawnedProcess.addChdir?(&actions, directory.path)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let variables =
            (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in variables { free(pointer) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, variables)
        if withInput { close(inputPipe[0]) }
        guard result == 0 else {
            if withInput { close(inputPipe[1]) }
            throw EndToEndError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        if withInput { input = FileHandle(fileDescriptor: inputPipe[1], closeOnDealloc: true) }
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias Chdir =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    /// glibc ≥ 2.34's `posix_spawn_file_actions_addclosefrom_np` (not visible to Swift without _GNU_SOURCE).
    private static let addCloseFrom: CloseFrom? = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0),
        "posix_spawn_file_actions_addclosefrom_np"
    )
    .map { unsafeBitCast($0, to: CloseFrom.self) }
    private static let addChdir: Chdir? = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0),
        "posix_spawn_file_actions_addchdir_np"
    )
    .map { unsafeBitCast($0, to: Chdir.self) }

    /// Closes every descriptor above 2 in the child (but `keeping`, already dup2'ed by then).
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t, keeping: [Int32]) {
        if let addCloseFrom {
            _ = addCloseFrom(&actions, 3)
            return
        }
        let open = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap {
            Int32($0)
        }
        for fd in open where fd > 2 && !keeping.contains(fd) { posix_spawn_file_actions_addclose(&actions, fd) }
    }

    /// A write to a child that has exited must fail, not kill the test process.
    private static let ignoreBrokenPipes: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            wait(timeout: 5)
        }
    }

    /// Reaps the child if it has ended; the status is kept.
    private func poll() -> Int32? {
        lock.withLock {
            if status == nil {
                var raw: Int32 = 0
                if waitpid(pid, &raw, WNOHANG) == pid {
                    let signalled = raw & 0x7f
                    status = signalled == 0 ? (raw >> 8) & 0xff : 128 + signalled
                }
            }
            return status
        }
    }

    var isRunning: Bool { poll() == nil }

    /// Sends `signal` if the process is still running; true when it was sent.
    @discardableResult
    func signal(_ signal: Int32) -> Bool {
        guard isRunning else { return false }
        return kill(pid, signal) == 0
    }

    /// Waits until the process has exited or `timeout` seconds have passed; true when it exited.
    @discardableResult
    func wait(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning {
            if Date() > deadline { return false }
            usleep(5_000)
        }
        return true
    }

    /// Waits, then kills a process that outlived `timeout` (a hang); true when it exited by itself.
    @discardableResult
    func finish(timeout: Double) -> Bool {
        if wait(timeout: timeout) { return true }
        signal(SIGKILL)
        wait(timeout: 5)
        return false
    }

    /// The exit status, or 128 + the signal that ended it; nil while running.
    var exitStatus: Int32? { poll() }

    /// True when a signal ended the process.
    var wasSignalled: Bool { (poll() ?? 0) > 128 }

    /// Writes `text` to the process's standard input (false when it is gone).
    @discardableResult
    func write(_ text: String) -> Bool {
        guard let input else { return false }
        do {
            try input.write(contentsOf: Data(text.utf8))
            return true
        } catch { return false }
    }

    /// Closes standard input (the process sees end of file).
    func closeInput() {
        try? input?.close()
        input = nil
    }

    var standardOutput: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var standardError: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }
}
