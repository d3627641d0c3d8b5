import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Date-times written with their offset from UTC (`2024-12-31T20:30:00-05:00`, `… 20:30:00+01`,
/// `…Z`) read in one time zone — the process's (`TZ`), as SQLite's `localtime` modifier reads it:
/// shown, sorted and sectioned by the same local wall time, so that a New York evening on
/// 31 December is in January in Tokyo and in December in New York.
///
///     DerivedAttribute.localTime("local(ts)", of: "ts")                     // sorts by the instant
///     DerivedAttribute.day("day(ts)", of: "ts", inLocalTime: true)        // the local day
///     DerivedAttribute.localTime(of: .text("2024-12-31T20:30:00-05:00"))  // .text("2025-01-01T10:30:00") in Tokyo
///
/// A value without an offset (`2024-12-31 20:30:00`) is a local time already and stays as it is;
/// so does any other value (a date, text, a number, NULL), and a date-time SQLite does not read
/// (month 13). The converted text keeps the value's separator (`T` or a space) and drops its
/// fraction of a second: `YYYY-MM-DDTHH:MM:SS`. In the hour a clock turned back, two instants read
/// the same; the order is the local clock's.
extension DerivedAttribute {
    /// The derived attribute `name`: `attribute`'s date-time with an offset as the local wall time,
    /// any other value as it is (see the extension's summary). `column` is the attribute's column in
    /// SQL (default: the attribute's name). Sorting by it orders date-times with offsets by their
    /// instant.
    public static func localTime(_ name: String, of attribute: String, column: String? = nil) -> DerivedAttribute {
        let ref = sqlReference(column ?? attribute)
        let format = "'%Y-%m-%d' || substr(\(ref), 11, 1) || '%H:%M:%S'"
        let sql = "coalesce(CASE WHEN \(hasOffsetSQL(ref)) THEN \(strftimeSQL(format, ref)) END, \(ref))"
        return DerivedAttribute(name, .text, sql: sql) { value in localTime(of: value(attribute)) }
    }

    /// The Swift twin of ``localTime(_:of:column:)``'s SQL: text that is a date-time with an offset,
    /// as the local wall time (`YYYY-MM-DD`, its separator, `HH:MM:SS`); any other value as it is.
    public static func localTime(of value: StoreValue) -> StoreValue {
        guard case .text(let text) = value, let local = LocalDateTime(offsetText: text) else { return value }
        return .text(local.text)
    }

    /// SQL true when `ref` is text that begins `YYYY-MM-DD HH:MM` (or `T`) and ends with an offset
    /// after a digit: `Z`, `±HH` or `±HH:MM`.
    static func hasOffsetSQL(_ ref: String) -> String {
        "(typeof(\(ref)) = 'text' AND \(ref) GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9][T ][0-9][0-9]:[0-9][0-9]*'"
            + " AND (\(ref) GLOB '*[0-9]Z' OR \(ref) GLOB '*[0-9][+-][0-9][0-9]'"
            + " OR \(ref) GLOB '*[0-9][+-][0-9][0-9]:[0-9][0-9]'))"
    }

    /// `strftime(format, ref, 'localtime')`, an offset `±HH` written `±HH:00` for SQLite to read it.
    static func strftimeSQL(_ format: String, _ ref: String) -> String {
        "strftime(\(format), CASE WHEN \(ref) GLOB '*[+-][0-9][0-9]' THEN \(ref) || ':00' ELSE \(ref) END, 'localtime')"
    }

    /// The local date (`YYYY-MM-DD`) of `ref` when it is a date-time with an offset SQLite reads,
    /// else NULL: what a date part in local time takes its first characters from.
    static func localDateSQL(_ ref: String) -> String {
        "CASE WHEN \(hasOffsetSQL(ref)) THEN \(strftimeSQL("'%Y-%m-%d'", ref)) END"
    }
}

/// A date-time with an offset read as SQLite reads it, in local time as its `localtime` modifier
/// makes it (``localFields(at:)``).
struct LocalDateTime {
    /// The local time, `YYYY-MM-DD`, the separator, `HH:MM:SS`.
    let text: String

    /// Nil unless `offsetText` begins `YYYY-MM-DD` `T`/space `HH:MM`, then `:SS` and `.fff…` if
    /// any, and ends with `Z`, `±HH` or `±HH:MM` right after a digit, each field in SQLite's range.
    init?(offsetText: String) {
        let u = Array(offsetText.utf8)
        guard u.count >= 17 else { return nil }
        func digit(_ i: Int) -> Int? { i < u.count && u[i] >= 0x30 && u[i] <= 0x39 ? Int(u[i] - 0x30) : nil }
        func two(_ i: Int) -> Int? {
            guard let a = digit(i), let b = digit(i + 1) else { return nil }
            return a * 10 + b
        }
        guard let y1 = two(0), let y2 = two(2), u[4] == 0x2D, let month = two(5), u[7] == 0x2D, let day = two(8),
            u[10] == 0x54 || u[10] == 0x20, let hour = two(11), u[13] == 0x3A, let minute = two(14)
        else { return nil }
        // The offset, at the end.
        var end = u.count
        var offsetMinutes = 0
        if u[end - 1] == 0x5A {  // Z
            end -= 1
        } else if end >= 6, u[end - 6] == 0x2B || u[end - 6] == 0x2D, let h = two(end - 5), u[end - 3] == 0x3A,
            let m = two(end - 2)
        {
            guard h <= 14, m <= 59 else { return nil }
            offsetMinutes = (h * 60 + m) * (u[end - 6] == 0x2D ? -1 : 1)
            end -= 6
        } else if u[end - 3] == 0x2B || u[end - 3] == 0x2D, let h = two(end - 2) {
            guard h <= 14 else { return nil }
            offsetMinutes = h * 60 * (u[end - 3] == 0x2D ? -1 : 1)
            end -= 3
        } else {
            return nil
        }
        guard end >= 16, digit(end - 1) != nil else { return nil }
        // Between the minutes and the offset: nothing, or `:SS`, then `.` and digits.
        var second = 0
        var fraction = 0.0
        var i = 16
        if i < end {
            guard u[i] == 0x3A, let s = two(i + 1) else { return nil }
            second = s
            i += 3
            if i < end {
                guard u[i] == 0x2E, i + 1 < end else { return nil }
                var scale = 0.1
                for j in (i + 1)..<end {
                    guard let d = digit(j) else { return nil }
                    fraction += Double(d) * scale
                    scale /= 10
                }
                i = end
            }
        }
        guard i == end, (1...12).contains(month), (1...31).contains(day), hour <= 24, minute <= 59, second <= 59
        else { return nil }
        let year = y1 * 100 + y2
        // Linear in the day, as SQLite's Julian day: 31 February is 2 or 3 March.
        let days = StoreDate.days(year: year, month: month, day: 1) + Int64(day - 1)
        let utc =
            ((days * 24 + Int64(hour)) * 60 + Int64(minute) - Int64(offsetMinutes)) * 60_000
            + Int64((Double(second) + fraction) * 1000 + 0.5)  // SQLite's milliseconds
        let local = LocalDateTime.localFields(at: utc)
        func pad(_ n: Int, _ width: Int) -> String {
            // As C's `%0*d`: the sign counts in the width (`-001`).
            if n < 0 { return "-" + pad(-n, width - 1) }
            let s = String(n)
            return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
        }
        let separator = u[10] == 0x54 ? "T" : " "
        text =
            pad(local.year, 4) + "-" + pad(local.month, 2) + "-" + pad(local.day, 2) + separator + pad(local.hour, 2)
            + ":" + pad(local.minute, 2) + ":" + pad(local.second, 2)
    }

    /// The local wall time of the instant `utc` (milliseconds since 1970), as SQLite's `localtime`
    /// makes it: `localtime_r` of its whole second; outside 1970-01-01 … 2038-01-18, of the same day
    /// and time in a year of 2000–2003 with the same remainder by 4, its year then moved back.
    static func localFields(at utc: Int64) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let seconds = utc >= 0 ? utc / 1000 : (utc - 999) / 1000
        var yearShift = 0
        var t = time_t(seconds)
        if utc < 0 || utc > 2_147_385_600_000 {
            let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
            let (year, month, day) = StoreDate.civil(fromDays: days)
            yearShift = (2000 + year % 4) - year  // C's remainder: -1 % 4 is -1
            let shifted = StoreDate.days(year: year + yearShift, month: month, day: day)
            t = time_t(shifted * 86_400 + (seconds - days * 86_400))
        }
        var fields = tm()
        guard localtime_r(&t, &fields) != nil else {
            let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
            let rest = Int(seconds - days * 86_400)
            let (y, m, d) = StoreDate.civil(fromDays: days)
            return (y, m, d, rest / 3600, rest / 60 % 60, rest % 60)
        }
        return (
            Int(fields.tm_year) + 1900 - yearShift, Int(fields.tm_mon) + 1, Int(fields.tm_mday), Int(fields.tm_hour),
            Int(fields.tm_min), Int(fields.tm_sec)
        )
    }
}
