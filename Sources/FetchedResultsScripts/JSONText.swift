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
        let escaped = BackslashEscaping.escaping(s) { scalar in
            if scalar == "\"" { return "\\\"" }
            if let escaped = BackslashEscaping.common(scalar) { return escaped }
            return scalar.value < 0x20 ? String(format: "\\u%04x", scalar.value) : nil
        }
        return "\"" + escaped + "\""
    }

    /// Whether `text` is a number as JSON writes one (`-1.10`, `3`, `1e3`; not `+1`, `.5`, `01`, `1.`),
    /// so that it can be written as it is.
    ///
    ///     JSONText.isNumber("1.10")   // true
    ///     JSONText.isNumber(".5")     // false
    package static func isNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == 0x2D { bytes = bytes.dropFirst() }
        if bytes.first == 0x30 {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == 0x2E {
            bytes = bytes.dropFirst()
            if digits() == 0 { return false }
        }
        if bytes.first == 0x65 || bytes.first == 0x45 {
            bytes = bytes.dropFirst()
            if bytes.first == 0x2B || bytes.first == 0x2D { bytes = bytes.dropFirst() }
            if digits() == 0 { return false }
        }
        return bytes.isEmpty
    }

    /// A boolean column's value as JSON: `true`/`false` for a stored number (SQLite keeps a boolean
    /// as `0`/`1`), as ``value(_:)`` otherwise (a `sqlite3` shell can store text in any column).
    ///
    ///     JSONText.boolean(.integer(1))   // "true"
    ///     JSONText.boolean(.null)         // "null"
    public static func boolean(_ value: StoreValue) -> String {
        switch value {
        case .integer(let i): return i != 0 ? "true" : "false"
        case .real(let d): return d != 0 ? "true" : "false"
        default: return self.value(value)
        }
    }

    /// A stored value as JSON: a number for an integer or a finite real, `null` for NULL,
    /// `"Infinity"` or `"-Infinity"` for an infinite real (JSON has no such number), a string for
    /// text, a BLOB as its ``DisplayText`` (`"x'…'"`).
    public static func value(_ value: StoreValue) -> String {
        switch value {
        case .null: return "null"
        case .integer(let i): return String(i)
        case .real(let d): return d.isFinite ? String(d) : d.isNaN ? "null" : string(DisplayText.of(value))
        case .text(let t): return string(t)
        case .blob: return string(DisplayText.of(value))
        }
    }
}
