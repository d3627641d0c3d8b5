import Glibc

/// Exit statuses from `sysexits.h`, the contract scripts rely on.
///
///     exit(ExitStatus.usage)
package enum ExitStatus {
    package static let ok: Int32 = 0
    package static let failure: Int32 = 1
    package static let usage: Int32 = 64
    package static let dataError: Int32 = 65
    package static let noInput: Int32 = 66
    /// A service is unavailable: the network, a server, an HTTP error.
    package static let unavailable: Int32 = 69
    package static let software: Int32 = 70
    package static let cantCreate: Int32 = 73
    package static let ioError: Int32 = 74
    package static let tempFail: Int32 = 75
    package static let noPermission: Int32 = 77
    package static let config: Int32 = 78
}

/// The program name used in messages (`books: …`); set once by `main`.
package enum ProgramName {
    nonisolated(unsafe) package static var current: String = "program"
}

/// Writes `message` to standard error as `program: message`, one line, its characters escaped
/// by the one policy (``EscapedOutput/escapingEachLine(_:)``: a name with ESC in it reaches the
/// terminal as `\u{1B}`).
///
///     printError("no such file: books.csv")
package func printError(_ message: String) {
    writeStandardError("\(ProgramName.current): \(message)\n")
}

/// Writes `text` to standard error without a prefix or newline, each line's characters escaped by
/// the one policy (``EscapedOutput/escapingEachLine(_:)``; the line breaks kept).
package func writeStandardError(_ text: String) {
    var bytes = Array(EscapedOutput.escapingEachLine(text).utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeMutableBytes { buffer in
            write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
        }
        if written <= 0 { break }
        offset += written
    }
}

/// Runs a subcommand body, turning `CommandLineError` into help or a usage
/// error with the agreed statuses, and any other error into one line and a status.
///
/// - `--help`, `--version`: `help` gets the text (default: printed with a newline), status 0.
/// - A usage error: `errorOutput` gets the sentence, status 64.
/// - Another error: `failure` says its line and status (an app's own errors); when it
///   returns nil, the line is `program: error` and the status 70.
///
/// `errorOutput` gets each message without its newline (default: standard error,
/// with one). Commands whose output tests read in-process pass their own sinks:
///
///     exit(runCommand(spec: spec, arguments: args) { parsed in …; return ExitStatus.ok })
///     runCommand(spec: spec, arguments: args, help: { out.write($0 + "\n") }, errorOutput: { err.write($0 + "\n") },
///                failure: { ($0 as? AppError).map { ("app: \($0.message)", $0.status) } }) { parsed in … }
package func runCommand(
    spec: CommandSpec,
    arguments: [String],
    help: (String) -> Void = { print($0) },
    errorOutput: (String) -> Void = { writeStandardError("\($0)\n") },
    failure: (Error) -> (message: String, status: Int32)? = { _ in nil },
    _ body: (ParsedArguments) throws -> Int32
) -> Int32 {
    do {
        let parsed = try parseArguments(arguments, spec: spec)
        return try body(parsed)
    } catch CommandLineError.helpRequested(let text) {
        help(text)
        return ExitStatus.ok
    } catch CommandLineError.versionRequested(let line) {
        help(line)
        return ExitStatus.ok
    } catch CommandLineError.usage(let message) {
        errorOutput(message)
        return ExitStatus.usage
    } catch {
        if let (message, status) = failure(error) {
            errorOutput(message)
            return status
        }
        errorOutput("\(ProgramName.current): \(ErrorReason.text(of: error))")
        return ExitStatus.software
    }
}
