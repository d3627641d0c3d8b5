import CLIKit
import FetchedResultsScripts
import FetchedResultsUI

/// Every line a `mystash` command prints goes through the one control-character escaper
/// the other apps' `list` commands use (``DisplayText/escapingControls(_:)``): a name or
/// title imported from a hostile export (`evil\e]52;c;…\a\e[2J`) reaches the terminal or
/// the pipe as `evil\u{1B}]52;c;…\u{7}\u{1B}[2J`, never as a clipboard write or a screen clear.
///
/// The functions below have the names and signatures of CLIKit's and shadow them inside
/// MyStashKit, so every message of every command, including one written later, is escaped
/// without its author having to remember it. Line breaks in a message are kept (each line
/// is escaped on its own); stdout goes through ``printLine(_:)``.
///
///     printError("no entry named “\(name)”")   // "mystash: no entry named “evil\u{1B}[2J”"
///     printLine(name)                          // "evil\u{1B}[2J"
enum EscapedOutput {
    /// `text` with the control characters of each line escaped; the line breaks between them kept.
    static func escapingEachLine(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { DisplayText.escapingControls(String($0)) }
            .joined(separator: "\n")
    }
}

/// `mystash: message` on stderr, one line, its control characters escaped (shadows CLIKit's).
func printError(_ message: String) {
    CLIKit.writeStandardError("\(ProgramName.current): \(EscapedOutput.escapingEachLine(message))\n")
}

/// `text` on stderr, each line's control characters escaped (shadows CLIKit's).
func writeStandardError(_ text: String) {
    CLIKit.writeStandardError(EscapedOutput.escapingEachLine(text))
}

/// One line on stdout, its control characters escaped (a line break in `text` as `\n`).
func printLine(_ text: String) {
    print(DisplayText.escapingControls(text))
}

/// CLIKit's `runCommand`, with usage errors (which quote what was typed) escaped (shadows CLIKit's).
func runCommand(
    spec: CommandSpec,
    arguments: [String],
    help: (String) -> Void = { print($0) },
    errorOutput: (String) -> Void = { writeStandardError("\($0)\n") },
    failure: (Error) -> (message: String, status: Int32)? = { _ in nil },
    _ body: (ParsedArguments) throws -> Int32
) -> Int32 {
    CLIKit.runCommand(
        spec: spec,
        arguments: arguments,
        help: help,
        errorOutput: errorOutput,
        failure: failure,
        body
    )
}
