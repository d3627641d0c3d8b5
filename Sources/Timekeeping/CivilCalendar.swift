/// Day arithmetic of the proleptic Gregorian calendar, with days counted
/// from 1970-01-01: the one copy that the store's dates (`StoreDate` in
/// SQLiteStore) and the CSV layer's `CalendarDay` both use.
///
/// The algorithms are Howard Hinnant's `days_from_civil` and
/// `civil_from_days`: exact for every year, negative ones included.
///
///     CivilCalendar.days(year: 2025, month: 6, day: 27)   // 20266
///     CivilCalendar.civil(fromDays: 20266)                // (2025, 6, 27)
///     CivilCalendar.daysIn(month: 2, year: 2024)          // 29
package enum CivilCalendar {
    /// Days since 1970-01-01 of a civil date (negative before).
    package static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64((month + 9) % 12)
        let doy = (153 * mp + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date (year, month, day) of a day count since 1970-01-01.
    package static func civil(fromDays z0: Int64) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d))
    }

    /// The number of days of `month` (1–12) in `year`.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
