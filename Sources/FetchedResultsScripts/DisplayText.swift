import CLIKit
import SQLiteStore

/// Stored values as a person reads them in the apps' cells and in their `list` commands.
///
/// A `sqlite3` shell can store anything in a text column: a BLOB name is shown
/// as its bytes in hex (`x'…'`, as `sqlite3`'s `quote()` writes it), not as an
/// empty name; and `list --format text` escapes control characters, so that a NUL
/// or a newline in a name cannot reach the terminal or break the one-object-a-line layout.
///
///     DisplayText.of(.blob([0x41, 0x00]))           // "x'4100'"
///     DisplayText.escapingControls("A\u{0}B\nC")    // "A\\0B\\nC"
public enum DisplayText {
    /// Bytes of a BLOB shown before `…`.
    public static let blobBytesShown = 32

    /// Text as it is, a number in decimal (an infinite one `Infinity` or `-Infinity`, as SQL and
    /// JavaScript write it), a BLOB as `x'…'` hex (its first ``blobBytesShown``
    /// bytes, then `…`), NULL as the empty string.
    public static func of(_ value: StoreValue) -> String {
        switch value {
        case .null: return ""
        case .text(let text): return text
        case .integer(let i): return String(i)
        case .real(let d): return d.isInfinite ? (d > 0 ? "Infinity" : "-Infinity") : String(d)
        case .blob(let bytes):
            let digits: [Character] = Array("0123456789ABCDEF")
            var out = "x'"
            for byte in bytes.prefix(blobBytesShown) {
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0x0F)])
            }
            out += "'"
            if bytes.count > blobBytesShown { out += "…" }
            return out
        }
    }

    /// A boolean column's value as a person reads it: `yes`/`no` for a stored number (SQLite keeps a
    /// boolean as `0`/`1`), as ``of(_:)`` otherwise.
    ///
    ///     DisplayText.boolean(.integer(0))   // "no"
    public static func boolean(_ value: StoreValue) -> String {
        switch value {
        case .integer(let i): return i != 0 ? "yes" : "no"
        case .real(let d): return d != 0 ? "yes" : "no"
        default: return of(value)
        }
    }

    /// A value of an attribute of `type` as a person reads it: a boolean by ``boolean(_:)``, anything
    /// else by ``of(_:)``.
    ///
    ///     DisplayText.of(.integer(1), type: .bool)   // "yes"
    public static func of(_ value: StoreValue, type: AttributeType?) -> String {
        type == .bool ? boolean(value) : of(value)
    }

    /// `text` with its control characters (Unicode category Cc: C0, DEL, C1), line separators and
    /// bidirectional formatting characters escaped, and the backslash itself, so that the escapes
    /// cannot be confused with the text: `\0`, `\t`, `\n`, `\r`, `\\`, and `\u{1B}` for the others —
    /// the one policy of every program's output, CLIKit's `EscapedOutput.escapingControls(_:)`.
    public static func escapingControls(_ text: String) -> String {
        EscapedOutput.escapingControls(text)
    }
}
