import Glibc

/// The one escaping policy of every program's standard output and standard error.
///
/// Text that comes from a file, a server or the command line (a table's name, a column's,
/// an option's value, a file name) can hold characters a terminal acts on: ESC starts a
/// control sequence (`\e]52;c;…\a` writes the clipboard, `\e[2J` clears the screen), BEL
/// rings, a line separator or a right-to-left override makes a line read as something else.
/// Every message goes through ``escapingEachLine(_:)`` (``printError(_:)`` and
/// ``writeStandardError(_:)`` do it), and every line of data a program prints through
/// ``escapingControls(_:)`` (``printLine(_:)``): such a character reaches the terminal or the pipe
/// as a visible escape, `\u{1B}`, never as an action.
///
/// Escaped: the control characters (Unicode's Cc: C0, DEL, C1), the line and paragraph
/// separators (U+2028, U+2029), the bidirectional formatting characters (U+061C, U+200E,
/// U+200F, U+202A–U+202E, U+2066–U+2069), and the backslash itself, so that an escape
/// cannot be confused with the text: `\0`, `\t`, `\n`, `\r`, `\\`, and `\u{1B}` for the others.
///
///     EscapedOutput.escapingControls("evil\u{1B}[2J")        // "evil\\u{1B}[2J"
///     EscapedOutput.escapingControls("abc\u{202E}fed")       // "abc\\u{202E}fed"
///     EscapedOutput.escapingEachLine("one\ntwo\u{7}")        // "one\ntwo\\u{7}"
package enum EscapedOutput {
    /// `text` as one line with every character of the policy escaped (a line break as `\n`).
    package static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isEscaped($0) || $0 == "\\" }) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\u{0}": out += "\\0"
            default:
                if isEscaped(scalar) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// `text` with each line escaped by ``escapingControls(_:)``, the line breaks (`\n`) between them kept:
    /// a message of several lines stays several lines.
    package static func escapingEachLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isEscaped($0) || $0 == "\\" }) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { escapingControls(String($0)) }
            .joined(separator: "\n")
    }

    /// Whether `scalar` is escaped by the policy (the backslash aside, which is escaped only so
    /// that escapes read unambiguously).
    package static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x2028, 0x2029: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Whether standard output is a terminal: data formats meant for programs (CSV, JSON) are written
    /// as they are to a pipe or a file, and escaped by the policy when a person's terminal reads them.
    package static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}

/// One line on standard output, its characters escaped by ``EscapedOutput/escapingControls(_:)``
/// (a line break in `text` as `\n`).
///
///     printLine(name)   // "evil\\u{1B}[2J"
package func printLine(_ text: String) {
    print(EscapedOutput.escapingControls(text))
}
