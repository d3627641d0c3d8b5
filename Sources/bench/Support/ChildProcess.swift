import FailedBanksKit
import Glibc
import Timekeeping

/// A child process started with `posix_spawn`, waited for with `wait4`.
///
/// `wait4` returns the child's resource usage, whose `ru_maxrss` is the
/// peak resident set the kernel measured for that process alone: the honest
/// peak-memory figure for an import. (`fork` is unavailable in Swift; spawn
/// is what `Foundation.Process` uses too.)
///
///     let result = try ChildProcess.run(["/usr/bin/sqlite3", "t.db", ".tables"])
///     print(result.seconds, result.peakResidentKilobytes, result.output)
struct ChildProcess {
    /// What a finished child left behind.
    struct Result {
        var status: Int32  // exit status, or 128 + signal
        var seconds: Double  // wall time from just before spawn to reaped
        var peakResidentKilobytes: Int
        var cpuSeconds: Double  // user + system time of the child
        var output: String  // stdout when captured, else ""
        var errorOutput: String  // stderr when captured, else ""
        var succeeded: Bool { status == 0 }
    }

    struct SpawnError: Error, CustomStringConvertible {
        var program: String
        var code: Int32
        var description: String { "cannot start \(program): \(String(cString: strerror(code)))" }
    }

    /// Runs `arguments` (first is the program path) to completion.
    /// `captureOutput`: stdout (and stderr) through pipes; else both go to /dev/null.
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        captureOutput: Bool = false
    ) throws -> Result {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if captureOutput {
            guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw SpawnError(program: arguments[0], code: errno) }
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
            for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let start = MonotonicClock.seconds()
        let pid = try spawn(arguments, environment: environment, actions: &actions, attributes: nil)
        var output: [UInt8] = []
        var errorOutput: [UInt8] = []
        if captureOutput {
            close(outPipe[1])
            close(errPipe[1])
            readBoth(outPipe[0], errPipe[0], into: &output, &errorOutput)
            close(outPipe[0])
            close(errPipe[0])
        }
        let (status, rss, cpu) = waitWithUsage(pid)
        let seconds = MonotonicClock.seconds() - start
        return Result(
            status: status,
            seconds: seconds,
            peakResidentKilobytes: rss,
            cpuSeconds: cpu,
            output: String(decoding: output, as: UTF8.self),
            errorOutput: String(decoding: errorOutput, as: UTF8.self)
        )
    }

    /// Spawns without waiting; the caller reaps with `wait(_:)`.
    static func spawn(
        _ arguments: [String],
        environment: [String: String],
        actions: inout posix_spawn_file_actions_t,
        attributes: UnsafePointer<posix_spawnattr_t>?
    ) throws -> pid_t {
        var env = ProcessEnvironment.current()
        for (key, value) in environment { env[key] = value }
        let envStrings = env.map { "\($0.key)=\($0.value)" }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = envStrings.map { strdup($0) } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, arguments[0], &actions, attributes, &argv, &envp)
        guard rc == 0 else { throw SpawnError(program: arguments[0], code: rc) }
        return pid
    }

    /// Reaps `pid`: its exit status (128 + signal when killed), peak RSS in KB,
    /// and CPU seconds (user + system).
    static func waitWithUsage(_ pid: pid_t) -> (status: Int32, peakResidentKilobytes: Int, cpuSeconds: Double) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let code: Int32
        if status & 0x7f == 0 {
            code = (status >> 8) & 0xff
        } else {
            code = 128 + (status & 0x7f)
        }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return (code, Int(usage.ru_maxrss), seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }

    /// Finds `name` on `PATH` (or returns it when it contains a slash).
    static func which(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = ProcessEnvironment.current()["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    private static func readBoth(_ a: Int32, _ b: Int32, into outA: inout [UInt8], _ outB: inout [UInt8]) {
        var open = [a: true, b: true]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while open.values.contains(true) {
            var fds = [
                pollfd(fd: open[a]! ? a : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: open[b]! ? b : -1, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0 { if errno == EINTR { continue } else { break } }
            for entry in fds where entry.fd >= 0 && entry.revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if n <= 0 {
                    open[entry.fd] = false
                } else if entry.fd == a {
                    outA.append(contentsOf: buffer[0..<n])
                } else {
                    outB.append(contentsOf: buffer[0..<n])
                }
            }
        }
    }
}
