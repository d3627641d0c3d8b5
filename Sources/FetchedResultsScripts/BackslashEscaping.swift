/// Backslash escapes of Unicode scalars, the loop behind ``JSONText/string(_:)`` (the escapes of
/// text for a terminal are CLIKit's `EscapedOutput`).
enum BackslashEscaping {
    /// `text` with every scalar that `escape` gives an escape for replaced by it, the others as they are.
    static func escaping(_ text: String, _ escape: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            if let escaped = escape(scalar) { out += escaped } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// The escapes JSON shares with the terminal's: `\\`, `\t`, `\n`, `\r`; nil for any other scalar.
    static func common(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\\": return "\\\\"
        case "\t": return "\\t"
        case "\n": return "\\n"
        case "\r": return "\\r"
        default: return nil
        }
    }
}
