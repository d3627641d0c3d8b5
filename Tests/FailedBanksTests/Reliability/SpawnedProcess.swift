import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process that keeps running while the test works beside it: its
/// output goes to files (no pipe can fill and stall it), its input is an
/// optional pipe, and it can be signalled (SIGKILL mid-write) and waited for
/// with a deadline. ``ProcessRunner`` covers run-to-completion; this covers
/// everything that must be interrupted or raced.
///
///     let child = try SpawnedProcess(binary, ["import", csv, "--db", db], in: directory, name: "import")
///     usleep(120_000)
///     child.signal(SIGKILL)
///     child.wait(timeout: 5)
final class SpawnedProcess {
    let name: String
    let outputPath: String
    let errorPath: String
    private let process = Process()
    private let input: Pipe?

    init(_ executable: String, _ arguments: [String], in directory: URL, name: String,
         environment: [String: String]? = nil, withInput: Bool = false) throws {
        _ = SpawnedProcess.ignoreBrokenPipes
        self.name = name
        outputPath = directory.appendingPathComponent("\(name).stdout").path
        errorPath = directory.appendingPathComponent("\(name).stderr").path
        FileManager.default.createFile(atPath: outputPath, contents: nil)
        FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        if withInput {
            let pipe = Pipe()
            process.standardInput = pipe
            input = pipe
        } else {
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
            input = nil
        }
        try process.run()
    }

    /// A write to a child that has exited must fail, not kill the test process.
    private static let ignoreBrokenPipes: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var pid: pid_t { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Sends `signal` if the process is still running; true when it was sent.
    @discardableResult
    func signal(_ signal: Int32) -> Bool {
        guard process.isRunning else { return false }
        return kill(process.processIdentifier, signal) == 0
    }

    /// Waits until the process has exited or `timeout` seconds have passed; true when it exited.
    @discardableResult
    func wait(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
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
    var exitStatus: Int32? {
        guard !process.isRunning else { return nil }
        switch process.terminationReason {
        case .exit: return process.terminationStatus
        case .uncaughtSignal: return 128 + process.terminationStatus
        @unknown default: return process.terminationStatus
        }
    }

    /// True when a signal ended the process.
    var wasSignalled: Bool { !process.isRunning && process.terminationReason == .uncaughtSignal }

    /// Writes `text` to the process's standard input (false when it is gone).
    @discardableResult
    func write(_ text: String) -> Bool {
        guard let input else { return false }
        do { try input.fileHandleForWriting.write(contentsOf: Data(text.utf8)); return true } catch { return false }
    }

    /// Closes standard input (the process sees end of file).
    func closeInput() {
        try? input?.fileHandleForWriting.close()
    }

    var standardOutput: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var standardError: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }
}
