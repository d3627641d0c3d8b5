import CLIKit

/// The process side of a `list` command, the same for every app: the output buffered on
/// standard output (flushed when the command ends), messages a line each on standard error,
/// and control characters escaped when a terminal reads the output
/// (``ResultsListWriter/escapesForTerminal``).
///
/// The command gets the three as arguments, so that tests run it in-process with their own:
///
///     package static func run(_ arguments: [String]) -> Int32 {
///         ListProcess.run { output, errorOutput, escapesForTerminal in
///             run(arguments, output: output, errorOutput: errorOutput, escapesForTerminal: escapesForTerminal)
///         }
///     }
package enum ListProcess {
    /// Runs `body` with the output writer, the message writer and whether a terminal reads
    /// the output; returns what `body` returns, once the output is flushed.
    package static func run(
        _ body: (
            _ output: (String) -> Void, _ errorOutput: (String) -> Void, _ escapesForTerminal: Bool
        ) -> Int32
    ) -> Int32 {
        let out = StandardOutput()
        defer { out.flush() }
        return body(
            { out.write($0) },
            { writeStandardError($0 + "\n") },
            EscapedOutput.standardOutputIsTerminal
        )
    }
}
