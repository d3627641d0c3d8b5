import Glibc

/// The process side of a `watch` command, the same for every app: SIGINT and SIGTERM
/// ask it to stop (it ends at its next poll, exit status 0), SIGPIPE is ignored, and
/// each line goes to standard output at once, the writer answering false once the
/// reader is gone (`watch … | head -1`).
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
    nonisolated(unsafe) static var stopRequested: sig_atomic_t = 0

    /// Installs the signal handlers and runs `body` with the line writer and the stop question;
    /// returns what `body` returns.
    public static func run(
        _ body: (_ output: @escaping (String) -> Bool, _ shouldStop: @escaping () -> Bool) -> Int32
    ) -> Int32 {
        stopRequested = 0
        signal(SIGINT) { _ in WatchProcess.stopRequested = 1 }
        signal(SIGTERM) { _ in WatchProcess.stopRequested = 1 }
        signal(SIGPIPE, SIG_IGN)
        let out = StandardOutput()
        return body(
            { line in
                out.write(line + "\n")
                return out.flush()
            },
            { stopRequested != 0 }
        )
    }
}
