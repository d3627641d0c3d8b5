/// What one CSV field holds, read from its bytes exactly as written (no
/// trimming: ` 12` is text): the unit of ``CSVColumnTypeInference``.
///
/// A number is recognized only in the form that reads back the same, so a
/// loader can store it as a number without losing how it was written:
/// integers without leading zeros or `+` (`007` and `+5` are text: codes,
/// not quantities); reals with digits on both sides of the point or an
/// exponent (`.5` and `5.` are text). ``real(_:exact:)`` says whether the
/// real is written as SQLite writes that number back (`%!.15g`: at most 15
/// significant digits, no exponent, no trailing zero after the point except
/// in `N.0`), so that storing it as a REAL keeps the text. Decimal commas
/// (`3,50`) and thousands separators (`1,000`) are text.
///
///     CSVFieldValue.classify(Array("42".utf8))           // .integer(42)
///     CSVFieldValue.classify(Array("3.50".utf8))         // .real(3.5, exact: false)
///     CSVFieldValue.classify(Array("2024-02-29".utf8))   // .date
///     CSVFieldValue.classify(Array("007".utf8))          // .text
///     CSVFieldValue.classify([])                         // .empty
public enum CSVFieldValue: Sendable, Equatable {
    /// No bytes: a NULL, which does not decide the column's type.
    case empty
    /// A whole number.
    case integer(Int64)
    /// A decimal number; `exact` when the number's SQLite text form is the field's text.
    case real(Double, exact: Bool)
    /// `YYYY-MM-DD`, a valid calendar day.
    case date
    /// `YYYY-MM-DD` then `T` or a space, `HH:MM`, optional `:SS` and fraction, optional `Z` or offset.
    case dateTime
    /// Anything else.
    case text

    /// The column type this value asks for; nil for ``empty``.
    public var columnType: CSVColumnType? {
        switch self {
        case .empty: return nil
        case .integer: return .integer
        case .real: return .real
        case .date: return .date
        case .dateTime: return .dateTime
        case .text: return .text
        }
    }

    /// The value of `bytes` (see the type's summary).
    public static func classify(_ bytes: [UInt8]) -> CSVFieldValue {
        bytes.withUnsafeBytes { classify($0) }
    }

    /// The value of `bytes` (see the type's summary), read without allocating (but for rare reals).
    public static func classify(_ bytes: UnsafeRawBufferPointer) -> CSVFieldValue {
        let n = bytes.count
        guard n > 0 else { return .empty }
        let first = bytes[0]
        if first == 0x2D || isDigit(first) {  // '-' or a digit
            if n >= 10, isDigit(first), bytes[4] == 0x2D { return dateOrDateTime(bytes) }
            return number(bytes)
        }
        return .text
    }

    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

    /// An integer or a real, else text.
    private static func number(_ b: UnsafeRawBufferPointer) -> CSVFieldValue {
        let n = b.count
        var i = 0
        let negative = b[0] == 0x2D
        if negative { i = 1 }
        let intStart = i
        while i < n && isDigit(b[i]) { i += 1 }
        let intDigits = i - intStart
        guard intDigits > 0 else { return .text }
        // No leading zeros ("0" itself and "0.5" are fine).
        if intDigits > 1 && b[intStart] == 0x30 { return .text }
        if i == n {
            guard intDigits <= 19, let value = integerValue(b, from: intStart, to: n, negative: negative) else {
                return .text
            }
            if negative && value == 0 { return .text }  // "-0" does not read back as written
            return .integer(value)
        }
        var fractionDigits = 0
        var fractionStart = i
        if b[i] == 0x2E {  // '.'
            i += 1
            fractionStart = i
            while i < n && isDigit(b[i]) { i += 1 }
            fractionDigits = i - fractionStart
            guard fractionDigits > 0 else { return .text }
        }
        var hasExponent = false
        if i < n && (b[i] == 0x65 || b[i] == 0x45) {  // 'e' or 'E'
            hasExponent = true
            i += 1
            if i < n && (b[i] == 0x2B || b[i] == 0x2D) { i += 1 }
            let exponentStart = i
            while i < n && isDigit(b[i]) { i += 1 }
            guard i > exponentStart, i - exponentStart <= 4 else { return .text }
        }
        guard i == n else { return .text }
        if !hasExponent, let fast = fastDecimal(b, intStart, intDigits, fractionStart, fractionDigits, negative) {
            return .real(
                fast,
                exact: isSQLiteText(b, intStart, intDigits, fractionStart, fractionDigits, negative, fast)
            )
        }
        guard let value = Double(String(decoding: b, as: UTF8.self)), value.isFinite else { return .text }
        return .real(value, exact: false)
    }

    /// The integer in `b[from..<to]` (digits only), nil when it does not fit in 64 bits.
    private static func integerValue(_ b: UnsafeRawBufferPointer, from: Int, to: Int, negative: Bool) -> Int64? {
        var magnitude: UInt64 = 0
        for k in from..<to {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(b[k] &- 0x30))
            if o1 || o2 { return nil }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// Exact decimal → double for up to 15 digits (Clinger's fast path: both the digits and the power of
    /// ten are exact doubles, so one division rounds correctly); nil otherwise.
    private static func fastDecimal(
        _ b: UnsafeRawBufferPointer,
        _ intStart: Int,
        _ intDigits: Int,
        _ fractionStart: Int,
        _ fractionDigits: Int,
        _ negative: Bool
    ) -> Double? {
        guard intDigits + fractionDigits <= 15 else { return nil }
        var digits: Int64 = 0
        for k in intStart..<(intStart + intDigits) { digits = digits * 10 + Int64(b[k] &- 0x30) }
        for k in fractionStart..<(fractionStart + fractionDigits) { digits = digits * 10 + Int64(b[k] &- 0x30) }
        let value = Double(digits) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { r, _ in r * 10 } }

    /// True when SQLite writes the number back as these very bytes (`%!.15g`): at most 15 significant
    /// digits, no trailing zero after the point (but `N.0`), not below 1e-4 (written with an exponent),
    /// not a negative zero.
    private static func isSQLiteText(
        _ b: UnsafeRawBufferPointer,
        _ intStart: Int,
        _ intDigits: Int,
        _ fractionStart: Int,
        _ fractionDigits: Int,
        _ negative: Bool,
        _ value: Double
    ) -> Bool {
        let last = b[fractionStart + fractionDigits - 1]
        if last == 0x30 && fractionDigits > 1 { return false }  // 1.50
        if value == 0 { return !negative && fractionDigits == 1 }  // 0.0, not -0.0
        if intDigits == 1 && b[intStart] == 0x30 {
            // 0.000123 is 1.23e-04 in SQLite: at most three zeros after the point.
            var zeros = 0
            while zeros < fractionDigits && b[fractionStart + zeros] == 0x30 { zeros += 1 }
            return zeros <= 3
        }
        return true
    }

    /// A date, a date-time, or text.
    private static func dateOrDateTime(_ b: UnsafeRawBufferPointer) -> CSVFieldValue {
        guard b[7] == 0x2D, let year = digits(b, 0, 4), let month = digits(b, 5, 2), let day = digits(b, 8, 2),
            (1...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= CalendarDay.daysIn(month: month, year: year)
        else { return .text }
        let n = b.count
        if n == 10 { return .date }
        // HH:MM after 'T' or ' '.
        guard n >= 16, b[10] == 0x54 || b[10] == 0x20, b[13] == 0x3A, let hour = digits(b, 11, 2),
            let minute = digits(b, 14, 2), hour < 24, minute < 60
        else { return .text }
        var i = 16
        if i < n && b[i] == 0x3A {
            guard let second = digits(b, 17, 2), second < 61 else { return .text }
            i = 19
            if i < n && (b[i] == 0x2E || b[i] == 0x2C) {  // a fraction of a second
                i += 1
                let start = i
                while i < n && isDigit(b[i]) { i += 1 }
                guard i > start else { return .text }
            }
        }
        if i == n { return .dateTime }
        if b[i] == 0x5A { return i + 1 == n ? .dateTime : .text }  // 'Z'
        guard b[i] == 0x2B || b[i] == 0x2D else { return .text }  // '+' or '-'
        // ±HH:MM or ±HHMM or ±HH
        guard let offsetHours = digits(b, i + 1, 2), offsetHours < 24 else { return .text }
        let rest = n - (i + 3)
        switch rest {
        case 0: return .dateTime
        case 2: return digits(b, i + 3, 2).map { $0 < 60 } == true ? .dateTime : .text
        case 3: return b[i + 3] == 0x3A && digits(b, i + 4, 2).map { $0 < 60 } == true ? .dateTime : .text
        default: return .text
        }
    }

    /// The number written by `count` digits at `start`, nil when one is not a digit or the field is shorter.
    private static func digits(_ b: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> Int? {
        guard start + count <= b.count else { return nil }
        var value = 0
        for k in start..<(start + count) {
            let d = b[k] &- 0x30
            guard d < 10 else { return nil }
            value = value * 10 + Int(d)
        }
        return value
    }
}
