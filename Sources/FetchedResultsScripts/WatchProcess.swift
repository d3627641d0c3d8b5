import Glibc
import Synchronization

/// The process side of a `watch` command, the same for every app: SIGINT and SIGTERM
/// ask it to stop (it ends at its next poll, exit status 0), SIGPIPE is ignored, and
/// each line goes to standard output at once, the writer answering false once the
/// reader is gone (`watch … | head -1`).
///
/// A reader that stops reading without going away (a paused pager, a stuck pipeline)
/// leaves the writer blocked in `write(2)` once the pipe is full, where no poll comes: a
/// SIGINT or SIGTERM that arrives then ends the process at once (`_exit(0)` in the
/// handler; the line being written goes nowhere anyway), so `systemctl stop` and `timeout`
/// end a watch whatever its reader does.
///
/// The command's loop gets the two as closures, so that tests run it in-process with
/// their own:
///
///     public static func run(_ arguments: [String]) -> Int32 {
///         WatchProcess.run { output, shouldStop in
///             run(arguments, output: output, errorOutput: { writeStandardError($0 + "\n") }, shouldStop: shouldStop)
///         }
///     }
public enum WatchProcess {
    /// Set by SIGINT / SIGTERM.
    static let stopRequested = Atomic<Bool>(false)
    /// True while a line is being written: a stop signal then ends the process in its handler.
    static let writing = Atomic<Bool>(false)

    /// Installs the signal handlers and runs `body` with the line writer and the stop question;
    /// returns what `body` returns.
    public static func run(
        _ body: (_ output: @escaping (String) -> Bool, _ shouldStop: @escaping () -> Bool) -> Int32
    ) -> Int32 {
        stopRequested.store(false, ordering: .sequentiallyConsistent)
        signal(SIGINT, stopHandler)
        signal(SIGTERM, stopHandler)
        signal(SIGPIPE, SIG_IGN)
        let out = StandardOutput()
        return body(
            { line in
                whileWriting {
                    out.write(line + "\n")
                    return out.flush()
                }
            },
            { stopRequested.load(ordering: .sequentiallyConsistent) }
        )
    }

    /// A stop signal: ends the process now if it is (or is about to be) blocked writing,
    /// else asks the command's loop to end.
    private static let stopHandler: @convention(c) (Int32) -> Void = { _ in
        if WatchProcess.writing.load(ordering: .sequentiallyConsistent) { _exit(0) }
        WatchProcess.stopRequested.store(true, ordering: .sequentiallyConsistent)
    }

    /// `write`, with ``writing`` set around it; false without writing once a stop was asked.
    /// The flag is set before the stop is looked at: a signal in between is seen either here
    /// or by the handler, which then exits — never lost while the write blocks.
    private static func whileWriting(_ write: () -> Bool) -> Bool {
        writing.store(true, ordering: .sequentiallyConsistent)
        defer { writing.store(false, ordering: .sequentiallyConsistent) }
        if stopRequested.load(ordering: .sequentiallyConsistent) { return false }
        return write()
    }
}
