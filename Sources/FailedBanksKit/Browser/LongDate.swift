/// Writes a store date out in words for the detail screen: "Friday, 26 April 2024".
///
/// The store keeps dates as `YYYY-MM-DD` text (a calendar date, no time zone),
/// so this works on the text itself: no `DateFormatter`, no time zone that
/// could move a closing date to the day before, no dependence on the
/// process locale.
///
///     LongDate.text(fromStoreDate: "2024-04-26")   // "Friday, 26 April 2024"
///     LongDate.text(fromStoreDate: "2024-02-30")   // nil (no such day)
package enum LongDate {
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = [
        "January", "February", "March", "April", "May", "June", "July",
        "August", "September", "October", "November", "December",
    ]

    /// The date written out, or nil when `text` is not a valid `YYYY-MM-DD`
    /// date (a date-time `YYYY-MM-DDTHH:MM:SSZ` is read by its date part).
    package static func text(fromStoreDate text: String) -> String? {
        guard let (year, month, day) = components(text) else { return nil }
        let weekday = weekdays[weekdayIndex(year: year, month: month, day: day)]
        return "\(weekday), \(day) \(months[month - 1]) \(year)"
    }

    /// Year, month and day of a `YYYY-MM-DD…` text, validated against the calendar.
    static func components(_ text: String) -> (Int, Int, Int)? {
        let parts = text.prefix(10).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        if text.count > 10, text[text.index(text.startIndex, offsetBy: 10)] != "T" { return nil }
        return (year, month, day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// 0 = Sunday (Sakamoto's method, proleptic Gregorian calendar).
    static func weekdayIndex(year: Int, month: Int, day: Int) -> Int {
        let offsets = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
        let y = month < 3 ? year - 1 : year
        let value = y + y / 4 - y / 100 + y / 400 + offsets[month - 1] + day
        return ((value % 7) + 7) % 7
    }
}
