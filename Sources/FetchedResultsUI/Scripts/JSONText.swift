import Foundation
import SQLiteStore

/// JSON literals as the apps' `list` and `watch` commands write them, one
/// byte-for-byte form for every app.
///
///     JSONText.string("say \"hi\"\n")   // "\"say \\\"hi\\\"\\n\""
///     JSONText.value(.integer(42))      // "42"
///     JSONText.value(.null)             // "null"
public enum JSONText {
    /// A JSON string literal: quotes, backslashes and control characters escaped.
    public static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 { out += String(format: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }

    /// A stored value as JSON: a number for an integer or a finite real, `null` for NULL
    /// (and a real that is not finite), a string for text, a BLOB as its ``DisplayText`` (`"x'…'"`).
    public static func value(_ value: StoreValue) -> String {
        switch value {
        case .null: return "null"
        case .integer(let i): return String(i)
        case .real(let d): return d.isFinite ? String(d) : "null"
        case .text(let t): return string(t)
        case .blob: return string(DisplayText.of(value))
        }
    }
}
