import Glibc
import Timekeeping

/// A calendar date without a time or time zone, parsed from the common English
/// and numeric forms and written as ISO 8601 (`YYYY-MM-DD`).
///
/// Accepted (surrounding white space, no-break spaces included, is ignored;
/// month names in English, any case, abbreviated or full, `Sept` too):
///
/// | format          | example           |
/// |-----------------|-------------------|
/// | `D-Mon-YY`      | `26-Apr-24`, `3-Nov-23`, `03-Nov-23`, `3-Nov-2023` |
/// | `M/D/YYYY`      | `12/15/2017`, `3/9/10` |
/// | `Month D, YYYY` | `June 27, 2025`, `Jun 27, 2025`, `Sept. 5, 2025` |
/// | `D Month YYYY`  | `27 June 2025` |
/// | `YYYY-MM-DD`    | `2024-04-26` |
///
/// **Two-digit years** are read as the latest year ending in those digits
/// that is not after `pivotYear` (by default next year): with the default in
/// 2026, `00`…`27` mean 2000…2027 and `28`…`99` mean 1928…1999: a sliding
/// window for dates of things that happened (at most a year ahead, up to a
/// century back). Data with another range passes its own `pivotYear` (an app
/// whose dates may lie decades ahead passes a later one).
///
/// Dates are validated against the calendar: `31-Feb-24` and `29-Feb-23` are
/// refused, `29-Feb-24` is accepted.
///
///     CalendarDay.parse("3-Nov-23")?.isoText       // "2023-11-03"
///     CalendarDay.parse("June 27, 2025")?.isoText  // "2025-06-27"
///     CalendarDay.parse("31-Feb-24")               // nil
package struct CalendarDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year (1–9999).
    package let year: Int
    /// The month (1–12).
    package let month: Int
    /// The day of the month (1–31, valid for the month).
    package let day: Int

    /// A validated date; nil when the day does not exist (or the year is outside 1–9999).
    package init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= CalendarDay.daysIn(month: month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `dayNumber` days after 1970-01-01 (negative before).
    package init(dayNumber: Int) {
        // The same day numbering as the store's (days since 1970-01-01, proleptic Gregorian).
        (year, month, day) = CivilCalendar.civil(fromDays: Int64(dayNumber))
    }

    /// Days since 1970-01-01 (negative before).
    package var dayNumber: Int { Int(CivilCalendar.days(year: year, month: month, day: day)) }

    /// Next year (UTC) at the time the process started: the default pivot for two-digit years.
    package static let defaultPivotYear: Int = {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        return Int(parts.tm_year) + 1900 + 1
    }()

    /// The year a two-digit year `yy` stands for: the latest year ending in `yy` that is ≤ `pivotYear`.
    package static func expandTwoDigitYear(_ yy: Int, pivotYear: Int = defaultPivotYear) -> Int {
        let century = pivotYear - pivotYear % 100
        let candidate = century + yy
        return candidate <= pivotYear ? candidate : candidate - 100
    }

    /// Number of days in a month of the proleptic Gregorian calendar.
    package static func daysIn(month: Int, year: Int) -> Int { CivilCalendar.daysIn(month: month, year: year) }

    package static func < (a: CalendarDay, b: CalendarDay) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// `YYYY-MM-DD`.
    package var isoText: String {
        withISOBytes { String(decoding: $0, as: UTF8.self) }
    }

    package var description: String { isoText }

    /// Calls `body` with the ten ASCII bytes of ``isoText``, without allocating.
    @inlinable
    package func withISOBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var buffer: (UInt64, UInt64) = (0, 0)
        return try Swift.withUnsafeMutableBytes(of: &buffer) { raw in
            let zero: UInt8 = 0x30
            var y = year
            for i in stride(from: 3, through: 0, by: -1) {
                raw[i] = zero + UInt8(y % 10)
                y /= 10
            }
            raw[4] = 0x2D
            raw[5] = zero + UInt8(month / 10)
            raw[6] = zero + UInt8(month % 10)
            raw[7] = 0x2D
            raw[8] = zero + UInt8(day / 10)
            raw[9] = zero + UInt8(day % 10)
            return try body(UnsafeRawBufferPointer(rebasing: raw[0..<10]))
        }
    }

    /// Parses text in any accepted format; nil when it is not a valid date.
    package static func parse(_ text: String, pivotYear: Int = defaultPivotYear) -> CalendarDay? {
        var text = text
        return text.withUTF8 { parse(bytes: UnsafeRawBufferPointer($0), pivotYear: pivotYear) }
    }

    /// Parses ASCII/UTF-8 bytes in any accepted format; nil when they are not a valid date.
    package static func parse(bytes: UnsafeRawBufferPointer, pivotYear: Int = defaultPivotYear) -> CalendarDay? {
        var scanner = DateScanner(bytes: bytes)
        scanner.trim()
        guard let first = scanner.peek() else { return nil }
        if isDigit(first) {
            let (n1, l1) = scanner.number()
            guard let sep = scanner.next() else { return nil }
            switch sep {
            case 0x2D:  // '-'
                if l1 == 4 {
                    // YYYY-MM-DD
                    let (m, lm) = scanner.number()
                    guard lm == 2, scanner.next() == 0x2D else { return nil }
                    let (d, ld) = scanner.number()
                    guard ld == 2, scanner.atEnd else { return nil }
                    return CalendarDay(year: n1, month: m, day: d)
                }
                // D-Mon-YY
                guard l1 <= 2, let m = scanner.monthName(), scanner.next() == 0x2D else { return nil }
                guard let y = scanner.year(pivotYear: pivotYear), scanner.atEnd else { return nil }
                return CalendarDay(year: y, month: m, day: n1)
            case 0x2F:  // '/': M/D/YYYY
                guard l1 <= 2 else { return nil }
                let (d, ld) = scanner.number()
                guard (1...2).contains(ld), scanner.next() == 0x2F else { return nil }
                guard let y = scanner.year(pivotYear: pivotYear), scanner.atEnd else { return nil }
                return CalendarDay(year: y, month: n1, day: d)
            case 0x20:  // ' ': D Month YYYY
                guard l1 <= 2 else { return nil }
                scanner.skipSpaces()
                guard let m = scanner.monthName() else { return nil }
                scanner.skip(0x2E)
                scanner.skip(0x2C)
                scanner.skipSpaces()
                guard let y = scanner.year(pivotYear: pivotYear), scanner.atEnd else { return nil }
                return CalendarDay(year: y, month: m, day: n1)
            default:
                return nil
            }
        }
        // Month D, YYYY
        guard let m = scanner.monthName() else { return nil }
        scanner.skip(0x2E)
        guard scanner.skipSpaces() else { return nil }
        let (d, ld) = scanner.number()
        guard (1...2).contains(ld) else { return nil }
        scanner.skip(0x2C)
        scanner.skipSpaces()
        guard let y = scanner.year(pivotYear: pivotYear), scanner.atEnd else { return nil }
        return CalendarDay(year: y, month: m, day: d)
    }

    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
}

/// A tiny cursor over the bytes of a date field.
private struct DateScanner {
    let bytes: UnsafeRawBufferPointer
    var start = 0
    var end: Int

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.end = bytes.count
    }

    var atEnd: Bool { start >= end }

    func peek() -> UInt8? { start < end ? bytes[start] : nil }

    mutating func next() -> UInt8? {
        guard start < end else { return nil }
        defer { start += 1 }
        return bytes[start]
    }

    /// Drops ASCII white space and no-break spaces (U+00A0 as UTF-8 or Windows-1252) at both ends.
    mutating func trim() {
        while start < end {
            let b = bytes[start]
            if b == 0x20 || b == 0x09 || b == 0xA0 {
                start += 1
            } else if b == 0xC2 && start + 1 < end && bytes[start + 1] == 0xA0 {
                start += 2
            } else {
                break
            }
        }
        while end > start {
            let b = bytes[end - 1]
            if b == 0x20 || b == 0x09 {
                end -= 1
            } else if b == 0xA0 {
                end -= (end - 2 >= start && bytes[end - 2] == 0xC2) ? 2 : 1
            } else {
                break
            }
        }
    }

    /// Skips spaces; true when at least one was skipped.
    @discardableResult mutating func skipSpaces() -> Bool {
        let before = start
        while start < end && bytes[start] == 0x20 { start += 1 }
        return start > before
    }

    mutating func skip(_ byte: UInt8) {
        if start < end && bytes[start] == byte { start += 1 }
    }

    /// Reads up to 4 digits: (value, digit count).
    mutating func number() -> (Int, Int) {
        var value = 0
        var length = 0
        while start < end, length < 5, CalendarDay.isDigit(bytes[start]) {
            value = value * 10 + Int(bytes[start] - 0x30)
            length += 1
            start += 1
        }
        return (value, length)
    }

    /// A two- or four-digit year.
    mutating func year(pivotYear: Int) -> Int? {
        let (value, length) = number()
        switch length {
        case 2: return CalendarDay.expandTwoDigitYear(value, pivotYear: pivotYear)
        case 4: return value
        default: return nil
        }
    }

    /// An English month name, abbreviated (3 letters, or "Sept") or full; 1–12.
    mutating func monthName() -> Int? {
        var length = 0
        let s = start
        while start < end {
            let b = bytes[start] | 0x20
            guard b >= 0x61 && b <= 0x7A else { break }
            length += 1
            start += 1
        }
        guard length >= 3, length <= 9 else { return nil }
        // The first three letters decide the month; longer words must then spell the full name (or "sept").
        let key = UInt32(bytes[s] | 0x20) << 16 | UInt32(bytes[s + 1] | 0x20) << 8 | UInt32(bytes[s + 2] | 0x20)
        let month: Int
        switch key {
        case 0x6A616E: month = 1  // jan
        case 0x666562: month = 2  // feb
        case 0x6D6172: month = 3  // mar
        case 0x617072: month = 4  // apr
        case 0x6D6179: month = 5  // may
        case 0x6A756E: month = 6  // jun
        case 0x6A756C: month = 7  // jul
        case 0x617567: month = 8  // aug
        case 0x736570: month = 9  // sep
        case 0x6F6374: month = 10  // oct
        case 0x6E6F76: month = 11  // nov
        case 0x646563: month = 12  // dec
        default: return nil
        }
        if length == 3 || (length == 4 && month == 9 && bytes[s + 3] | 0x20 == 0x74) { return month }
        let full = DateScanner.monthNames[month - 1].utf8
        guard length == full.count else { return nil }
        for i in 3..<length where bytes[s + i] | 0x20 != full[i] { return nil }
        return month
    }

    static let monthNames: [StaticString] = [
        "january", "february", "march", "april", "may", "june",
        "july", "august", "september", "october", "november", "december",
    ]
}

extension StaticString {
    fileprivate var utf8: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount) }
}
