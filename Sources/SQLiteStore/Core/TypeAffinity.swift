import Foundation

/// SQLite's type affinity of a column, and what it does to a comparison.
///
/// A column's declared type gives it an affinity (SQLite's "Datatypes In SQLite", §3.1):
/// `INT` anywhere → ``integer``; `CHAR`, `CLOB` or `TEXT` → ``text``; `BLOB` or no type →
/// ``blob``; `REAL`, `FLOA` or `DOUB` → ``real``; anything else (`NUMERIC`, `DECIMAL`,
/// `DATE`, `BOOLEAN`) → ``numeric``. An expression that is not a bare column (a literal, a
/// function's result, `+col`) has no affinity (nil where an affinity is optional).
///
/// When a comparison (`=`, `<`, `IN`, …) meets two values, SQLite first converts them by the
/// comparison's affinity (§4.2, ``comparison(_:_:)``): a numeric one makes text that reads as a
/// number (`'6'`, `' 7 '`, `'1e3'`) that number; a text one makes a number text (`2020` →
/// `'2020'`) when the other side is text; blob or none converts nothing. ``converted(_:_:by:)`` does
/// exactly that in Swift, so that a predicate evaluated in Swift agrees with SQLite's `WHERE`:
///
///     let affinity = TypeAffinity.comparison(TypeAffinity(declaredType: "TEXT"), nil)   // .text
///     TypeAffinity.converted(.text("2021"), .integer(2020), by: affinity)  // (.text("2021"), .text("2020"))
///     TypeAffinity.converted(.integer(7), .text("6"), by: .integer)        // (.integer(7), .integer(6))
public enum TypeAffinity: String, Sendable, Hashable, CaseIterable {
    /// Text: numbers stored into the column become text.
    case text = "TEXT"
    /// Numeric: text that reads as a number becomes one.
    case numeric = "NUMERIC"
    /// Integer: as numeric (a real with an integral value stored as an integer).
    case integer = "INTEGER"
    /// Real: as numeric, integers stored as reals.
    case real = "REAL"
    /// Blob (also "none"): values stay as they are.
    case blob = "BLOB"

    /// The affinity a column declared with `declaredType` has (SQLite's five rules, in their order).
    ///
    ///     TypeAffinity(declaredType: "VARCHAR(20)")   // .text
    ///     TypeAffinity(declaredType: "DATE")          // .numeric
    ///     TypeAffinity(declaredType: "")              // .blob
    public init(declaredType: String) {
        let d = declaredType.uppercased()
        if d.contains("INT") {
            self = .integer
        } else if d.contains("CHAR") || d.contains("CLOB") || d.contains("TEXT") {
            self = .text
        } else if d.contains("BLOB") || d.trimmingCharacters(in: .whitespaces).isEmpty {
            self = .blob
        } else if d.contains("REAL") || d.contains("FLOA") || d.contains("DOUB") {
            self = .real
        } else {
            self = .numeric
        }
    }

    /// True for numeric, integer and real.
    package var isNumeric: Bool { self == .numeric || self == .integer || self == .real }

    /// The affinity of a comparison between operands of affinities `a` and `b` (nil: an operand
    /// without one): two columns compare numerically when either is numeric, else without
    /// conversion (``blob``); a column and an expression by the column's; two expressions
    /// without conversion (nil). SQLite's `sqlite3CompareAffinity`.
    public static func comparison(_ a: TypeAffinity?, _ b: TypeAffinity?) -> TypeAffinity? {
        switch (a, b) {
        case (let a?, let b?): return a.isNumeric || b.isNumeric ? .numeric : .blob
        case (let a?, nil): return a
        case (nil, let b?): return b
        case (nil, nil): return nil
        }
    }

    /// The two operands of a comparison as SQLite compares them under `affinity`: numeric converts
    /// each text that reads as a number (``number(fromText:)``); text converts each number to its text
    /// (``text(of:)``) when the other operand is text; blob or nil converts nothing.
    public static func converted(
        _ a: StoreValue,
        _ b: StoreValue,
        by affinity: TypeAffinity?
    ) -> (StoreValue, StoreValue) {
        switch affinity {
        case .numeric?, .integer?, .real?:
            return (numericOperand(a), numericOperand(b))
        case .text?:
            let aIsText = a.string != nil
            let bIsText = b.string != nil
            guard aIsText || bIsText else { return (a, b) }
            return (aIsText ? a : textOperand(a), bIsText ? b : textOperand(b))
        case .blob?, nil:
            return (a, b)
        }
    }

    private static func numericOperand(_ value: StoreValue) -> StoreValue {
        guard case .text(let text) = value, let number = number(fromText: text) else { return value }
        return number
    }

    private static func textOperand(_ value: StoreValue) -> StoreValue {
        switch value {
        case .integer(let i): return .text(String(i))
        case .real(let d): return .text(text(of: d))
        default: return value
        }
    }

    /// The number a text reads as under a numeric affinity, nil when it is not one: optional
    /// white space, a sign, digits with an optional point and fraction (at least one digit), an
    /// optional exponent, optional white space — SQLite's `sqlite3AtoF` on the whole text. An
    /// integer that fits in 64 bits is an integer; anything else a real.
    ///
    ///     TypeAffinity.number(fromText: " 6 ")    // .integer(6)
    ///     TypeAffinity.number(fromText: "1e3")    // .real(1000)
    ///     TypeAffinity.number(fromText: "0x10")   // nil
    public static func number(fromText text: String) -> StoreValue? {
        let bytes = Array(text.utf8)
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        var i = 0
        let n = bytes.count
        while i < n && isSpace(bytes[i]) { i += 1 }
        let start = i
        if i < n && (bytes[i] == 0x2B || bytes[i] == 0x2D) { i += 1 }
        var digits = 0
        while i < n && isDigit(bytes[i]) {
            i += 1
            digits += 1
        }
        var isInteger = true
        if i < n && bytes[i] == 0x2E {
            isInteger = false
            i += 1
            while i < n && isDigit(bytes[i]) {
                i += 1
                digits += 1
            }
        }
        guard digits > 0 else { return nil }
        if i < n && (bytes[i] == 0x65 || bytes[i] == 0x45) {
            isInteger = false
            i += 1
            if i < n && (bytes[i] == 0x2B || bytes[i] == 0x2D) { i += 1 }
            var exponentDigits = 0
            while i < n && isDigit(bytes[i]) {
                i += 1
                exponentDigits += 1
            }
            guard exponentDigits > 0 else { return nil }
        }
        let end = i
        while i < n && isSpace(bytes[i]) { i += 1 }
        guard i == n else { return nil }
        var literal = String(decoding: bytes[start..<end], as: UTF8.self)
        if isInteger {
            if literal.hasPrefix("+") { literal.removeFirst() }
            if let integer = Int64(literal) { return .integer(integer) }
        }
        // Swift's Double() refuses "5." and ".5" forms only with a sign before the point: give it digits.
        if literal.hasSuffix(".") { literal += "0" }
        if let point = literal.firstIndex(of: "."),
            point == literal.startIndex || !literal[literal.index(before: point)].isNumber
        {
            literal.insert("0", at: point)
        }
        if let e = literal.firstIndex(where: { $0 == "e" || $0 == "E" }), e > literal.startIndex,
            literal[literal.index(before: e)] == "."
        {
            literal.insert("0", at: e)
        }
        guard let real = Double(literal) else { return nil }
        return .real(real)
    }

    /// A real as SQLite writes it as text (`CAST(x AS TEXT)`, `%!.15g`): 15 significant digits, a
    /// point and a digit always (`100.0`, `1.0e+20`), an exponent below 1e-4 and from 1e15.
    ///
    ///     TypeAffinity.text(of: 2.5)     // "2.5"
    ///     TypeAffinity.text(of: 1e20)    // "1.0e+20"
    public static func text(of real: Double) -> String {
        if real.isNaN { return "NaN" }
        if real.isInfinite { return real < 0 ? "-Inf" : "Inf" }
        if real == 0 { return "0.0" }
        var text = String(format: "%.15g", real)
        if let e = text.firstIndex(of: "e") {
            if !text[..<e].contains(".") { text.insert(contentsOf: ".0", at: e) }
        } else if !text.contains(".") {
            text += ".0"
        }
        return text
    }
}
