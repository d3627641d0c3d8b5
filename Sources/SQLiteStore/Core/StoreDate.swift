import Foundation
import Timekeeping

/// Converts dates to and from the ISO-8601 text the store keeps in its columns.
///
/// Dates are stored as `YYYY-MM-DD` and date-times as `YYYY-MM-DDTHH:MM:SSZ`,
/// always in UTC, so that `sqlite3` users can read them and text order is time
/// order. The conversion is hand-written (no formatter) because importers
/// convert millions of values.
///
///     StoreDate.text(from: Date(timeIntervalSince1970: 0))   // "1970-01-01"
///     StoreDate.date(from: "2011-07-29")                     // 2011-07-29 00:00:00 UTC
public enum StoreDate {
    /// `YYYY-MM-DD` of the UTC calendar day containing `date`.
    public static func text(from date: Date) -> String {
        let secs = Int64(date.timeIntervalSince1970.rounded(.down))
        let (y, m, d) = civil(fromDays: floorDiv(secs, 86_400))
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2)
    }

    /// Parses `YYYY-MM-DD` (midnight UTC); also accepts a date-time and keeps its time. Nil when malformed.
    public static func date(from text: String) -> Date? {
        if let d = parseDate(text.utf8) { return d }
        return dateTime(from: text)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` in UTC, whole seconds.
    public static func dateTimeText(from date: Date) -> String {
        let secs = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = floorDiv(secs, 86_400)
        let rem = secs - days * 86_400
        let (y, m, d) = civil(fromDays: days)
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T"
            + pad(Int(rem / 3600), 2) + ":" + pad(Int(rem / 60 % 60), 2) + ":" + pad(Int(rem % 60), 2) + "Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SSZ` (also `YYYY-MM-DD HH:MM:SS`, and a bare date). Nil when malformed.
    public static func dateTime(from text: String) -> Date? {
        let u = Array(text.utf8)
        if u.count == 10 { return parseDate(text.utf8) }
        guard u.count == 19 || (u.count == 20 && u[19] == UInt8(ascii: "Z")) else { return nil }
        guard u[10] == UInt8(ascii: "T") || u[10] == UInt8(ascii: " "), u[13] == UInt8(ascii: ":"),
            u[16] == UInt8(ascii: ":"),
            let day = parseDate(u[0..<10]),
            let hh = number(u[11..<13]), let mm = number(u[14..<16]), let ss = number(u[17..<19]),
            hh < 24, mm < 60, ss < 61
        else { return nil }
        return day.addingTimeInterval(TimeInterval(hh * 3600 + mm * 60 + ss))
    }

    /// Days since 1970-01-01 of a civil date (proleptic Gregorian; see `CivilCalendar`).
    public static func days(year: Int, month: Int, day: Int) -> Int64 {
        CivilCalendar.days(year: year, month: month, day: day)
    }

    /// The civil date (year, month, day) of a day count since 1970-01-01.
    public static func civil(fromDays z0: Int64) -> (Int, Int, Int) {
        let civil = CivilCalendar.civil(fromDays: z0)
        return (civil.year, civil.month, civil.day)
    }

    private static func parseDate<C: Collection>(_ c: C) -> Date? where C.Element == UInt8 {
        let u = Array(c)
        guard u.count == 10, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"),
            let y = number(u[0..<4]), let m = number(u[5..<7]), let d = number(u[8..<10]),
            (1...12).contains(m), d >= 1, d <= CivilCalendar.daysIn(month: m, year: y)
        else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(days(year: y, month: m, day: d) * 86_400))
    }

    private static func number(_ s: ArraySlice<UInt8>) -> Int? {
        var v = 0
        for b in s {
            guard b >= 0x30 && b <= 0x39 else { return nil }
            v = v * 10 + Int(b - 0x30)
        }
        return v
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    private static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
