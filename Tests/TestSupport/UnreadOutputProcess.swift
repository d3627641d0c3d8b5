import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program whose standard output is a pipe that nobody reads (a reader that stopped
/// reading, or went to sleep): the pipe holds one page, so the program's writes block as
/// soon as it has printed that much. Standard input is `/dev/null`, standard error goes
/// nowhere, signals are as a shell leaves them (``ProcessRunner/spawn(_:actions:environment:newSession:)``).
///
///     let watch = try UnreadOutputProcess([failedbanks, "watch", "--db", store])
///     #expect(watch.waitUntilOutputIsFull(timeout: 60))
///     #expect(watch.signal(SIGTERM, waitingUpTo: 20) == 0)
public final class UnreadOutputProcess {
    public let pid: pid_t
    private let readEnd: Int32
    private var status: Int32?

    /// Starts `argv` (`argv[0]` a path) with its output into a one-page pipe.
    public init(_ argv: [String], environment: [String: String]? = nil) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw EndToEndError("pipe: \(String(cString: strerror(errno)))") }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ (Linux), hidden from Swift without _GNU_SOURCE
        _ = fcntl(ends[0], setPipeSize, 4096)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        ProcessRunner.closeInheritedDescriptors(&actions)
        do {
            pid = try ProcessRunner.spawn(argv, actions: &actions, environment: environment)
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
        close(ends[1])
        readEnd = ends[0]
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            _ = try? ProcessRunner.waitForExit(pid)
        }
        close(readEnd)
    }

    /// Bytes waiting in the pipe.
    public var bytesWaiting: Int {
        var count: Int32 = 0
        return ioctl(readEnd, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
    }

    /// Waits until the pipe holds a page (the program's next write blocks); false at the deadline.
    public func waitUntilOutputIsFull(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while bytesWaiting < 4096 {
            if Date() > deadline || hasExited { return false }
            usleep(20_000)
        }
        return true
    }

    /// Whether the program has ended (reaped here).
    public var hasExited: Bool {
        if status != nil { return true }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return false }
        status = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        return true
    }

    /// Sends `signo` and waits up to `timeout` seconds for the program to end: its exit
    /// status as a shell gives it, or nil when it is still running (it is then killed).
    public func signal(_ signo: Int32, waitingUpTo timeout: Double) -> Int32? {
        kill(pid, signo)
        let deadline = Date().addingTimeInterval(timeout)
        while !hasExited {
            if Date() > deadline {
                kill(pid, SIGKILL)
                _ = try? ProcessRunner.waitForExit(pid)
                status = -1
                return nil
            }
            usleep(20_000)
        }
        return status
    }
}
