import Glibc
import Timekeeping

/// A program running in a real terminal: a pseudo-terminal whose master side
/// this process reads and writes, as a terminal emulator would.
///
/// The child is started with `posix_spawn` in a new session (`setsid`) with
/// the slave as stdin, stdout and stderr, so the slave becomes its
/// controlling terminal and it sees an ordinary tty of the given size.
/// Everything it draws arrives here byte for byte, which is what a
/// benchmark of terminal output counts.
///
///     let tty = try PseudoTerminal(["/usr/bin/vd", "banks.csv"], rows: 24, columns: 80)
///     let shown = tty.waitFor("Silicon Valley", timeout: 10)
///     tty.send([UInt8]("q".utf8))
///     tty.finish()
final class PseudoTerminal {
    let pid: pid_t
    let master: Int32
    /// MonotonicClock.seconds() just before the spawn.
    let startTime: Double
    /// Everything read from the master so far.
    private(set) var output: [UInt8] = []
    private(set) var isClosed = false
    private var exitStatus: Int32?

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `POSIX_SPAWN_SETSID` (glibc ≥ 2.26) is hidden behind `_GNU_SOURCE`, so Swift does not see it.
    private static let spawnSetSID: Int16 = 0x80

    init(_ arguments: [String], environment: [String: String] = [:], rows: UInt16 = 24, columns: UInt16 = 80) throws {
        var masterFD: Int32 = -1
        var slaveFD: Int32 = -1
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&masterFD, &slaveFD, nil, nil, &size) == 0 else {
            throw Failure(description: "openpty failed: \(String(cString: strerror(errno)))")
        }
        guard let namePointer = ttyname(slaveFD) else {
            close(masterFD)
            close(slaveFD)
            throw Failure(description: "ttyname failed")
        }
        let slaveName = String(cString: namePointer)
        _ = fcntl(masterFD, F_SETFD, FD_CLOEXEC)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, PseudoTerminal.spawnSetSID)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Opening the slave after setsid() makes it the controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, slaveName, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_addclose(&actions, slaveFD)
        var env = environment
        env["TERM"] = env["TERM"] ?? "xterm-256color"
        env["LINES"] = nil
        env["COLUMNS"] = nil
        let start = MonotonicClock.seconds()
        let spawned: pid_t
        do {
            spawned = try withUnsafePointer(to: &attributes) { pointer in
                try ChildProcess.spawn(arguments, environment: env, actions: &actions, attributes: pointer)
            }
        } catch {
            close(masterFD)
            close(slaveFD)
            throw error
        }
        close(slaveFD)
        self.pid = spawned
        self.master = masterFD
        self.startTime = start
    }

    deinit {
        finish(timeout: 1)
        close(master)
    }

    /// Reads whatever arrives within `timeout` seconds (returns after the
    /// first chunk, or at the timeout). Returns the bytes read; empty on
    /// timeout or when the child has closed the terminal.
    @discardableResult
    func readChunk(timeout: Double) -> [UInt8] {
        guard !isClosed else { return [] }
        var fds = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let ready = poll(&fds, 1, Int32(max(0, timeout * 1000).rounded(.up)))
        guard ready > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        if n <= 0 {
            // EIO: every slave descriptor is closed (the child exited).
            if n < 0 && errno == EINTR { return [] }
            isClosed = true
            return []
        }
        let chunk = Array(buffer[0..<n])
        output.append(contentsOf: chunk)
        return chunk
    }

    /// Reads until `pattern` appears in the output after offset `from`.
    /// Returns the Clock time at which the chunk completing it was read, or nil at the timeout.
    func waitFor(_ pattern: [UInt8], from: Int = 0, timeout: Double) -> Double? {
        let deadline = MonotonicClock.seconds() + timeout
        var searched = from
        while true {
            if let _ = PseudoTerminal.find(pattern, in: output, from: searched) { return MonotonicClock.seconds() }
            searched = max(from, output.count - pattern.count + 1)
            let remaining = deadline - MonotonicClock.seconds()
            if remaining <= 0 || isClosed { return nil }
            readChunk(timeout: min(remaining, 0.5))
        }
    }

    /// Reads until nothing arrives for `quiet` seconds (or `timeout` passes).
    /// Returns the number of bytes read and the Clock time of the last one.
    @discardableResult
    func drain(quiet: Double, timeout: Double = 10) -> (bytes: Int, lastByteTime: Double?) {
        let deadline = MonotonicClock.seconds() + timeout
        var count = 0
        var last: Double?
        while MonotonicClock.seconds() < deadline && !isClosed {
            let chunk = readChunk(timeout: quiet)
            if chunk.isEmpty { break }
            count += chunk.count
            last = MonotonicClock.seconds()
        }
        return (count, last)
    }

    /// Writes `bytes` to the terminal, as if typed.
    func send(_ bytes: [UInt8]) {
        FileDescriptor.writeAll(master, bytes)
    }

    /// Waits up to `timeout` seconds for the child to exit (reading its output
    /// meanwhile), then SIGTERM, then SIGKILL. Returns its exit status.
    @discardableResult
    func finish(timeout: Double = 3) -> Int32 {
        if let exitStatus { return exitStatus }
        var deadline = MonotonicClock.seconds() + timeout
        var status: Int32 = 0
        var signalled = false
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR {
                exitStatus = -1
                return -1
            }
            if MonotonicClock.seconds() > deadline {
                kill(pid, signalled ? SIGKILL : SIGTERM)
                signalled = true
                deadline = MonotonicClock.seconds() + 1
            }
            if isClosed { usleep(10_000) } else { readChunk(timeout: 0.05) }
        }
        let code: Int32 = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        exitStatus = code
        return code
    }

    /// The first index of `pattern` in `bytes` at or after `from`.
    static func find(_ pattern: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
        var i = max(0, from)
        let last = bytes.count - pattern.count
        let first = pattern[0]
        while i <= last {
            if bytes[i] == first {
                var j = 1
                while j < pattern.count && bytes[i + j] == pattern[j] { j += 1 }
                if j == pattern.count { return i }
            }
            i += 1
        }
        return nil
    }
}
