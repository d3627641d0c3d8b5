import Testing

@testable import CSVImport

@Suite struct CalendarDayTests {
    @Test(arguments: [
        ("26-Apr-24", "2024-04-26"),
        ("3-Nov-23", "2023-11-03"),
        ("03-Nov-23", "2023-11-03"),
        ("3-nov-2023", "2023-11-03"),
        ("14-Dec-00", "2000-12-14"),
        ("12/15/2017", "2017-12-15"),
        ("3/9/10", "2010-03-09"),
        ("June 27, 2025", "2025-06-27"),
        ("Jun 27, 2025", "2025-06-27"),
        ("Sept. 5, 2025", "2025-09-05"),
        ("September 5 2025", "2025-09-05"),
        ("27 June 2025", "2025-06-27"),
        ("2024-04-26", "2024-04-26"),
        ("  26-Apr-24 ", "2024-04-26"),
        ("26-Apr-24\u{a0}", "2024-04-26"),
        ("29-Feb-24", "2024-02-29"),
        ("29-Feb-2000", "2000-02-29"),
    ])
    func acceptedFormatsGiveISODates(input: String, iso: String) {
        #expect(CalendarDay.parse(input, pivotYear: 2027)?.isoText == iso)
    }

    @Test(arguments: [
        "", "31-Foo-24", "31-Feb-24", "29-Feb-23", "30-Feb-2024", "31-Apr-24", "0-Jan-24", "32-Jan-24",
        "13/01/2024", "2024-13-01", "2024-4-26", "26-Apr", "26-Apr-2", "26-Apr-202", "June 31, 2025",
        "June, 2025", "Juno 27, 2025", "26/Apr/24", "2024-04-26x", "yesterday", "1-Ma-24",
    ])
    func invalidDatesAreRefused(input: String) {
        #expect(CalendarDay.parse(input, pivotYear: 2027) == nil)
    }

    @Test func twoDigitYearsSlideUpToNextYear() {
        #expect(CalendarDay.expandTwoDigitYear(0, pivotYear: 2027) == 2000)
        #expect(CalendarDay.expandTwoDigitYear(27, pivotYear: 2027) == 2027)
        #expect(CalendarDay.expandTwoDigitYear(28, pivotYear: 2027) == 1928)
        #expect(CalendarDay.expandTwoDigitYear(34, pivotYear: 2027) == 1934)
        #expect(CalendarDay.expandTwoDigitYear(99, pivotYear: 2027) == 1999)
        #expect(CalendarDay.parse("13-Oct-00")?.year == 2000)
        #expect(CalendarDay.defaultPivotYear >= 2026)
    }

    @Test func dayNumbersRoundTrip() {
        #expect(CalendarDay(year: 1970, month: 1, day: 1)!.dayNumber == 0)
        #expect(CalendarDay(dayNumber: 19_839).isoText == "2024-04-26")
        for n in stride(from: -800_000, through: 800_000, by: 997) {
            #expect(CalendarDay(dayNumber: n).dayNumber == n)
        }
    }
}
