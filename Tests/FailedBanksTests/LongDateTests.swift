import Testing

@testable import FailedBanksKit

@Test func closingDateIsWrittenOutWithWeekdayDayMonthAndYear() {
    #expect(LongDate.text(fromStoreDate: "2024-04-26") == "Friday, 26 April 2024")
    #expect(LongDate.text(fromStoreDate: "2025-06-27") == "Friday, 27 June 2025")
    #expect(LongDate.text(fromStoreDate: "2000-10-13") == "Friday, 13 October 2000")
    #expect(LongDate.text(fromStoreDate: "2010-03-26") == "Friday, 26 March 2010")
    #expect(LongDate.text(fromStoreDate: "2008-09-25") == "Thursday, 25 September 2008")
}

@Test func leapDaysAndCenturyRulesFollowTheGregorianCalendar() {
    #expect(LongDate.text(fromStoreDate: "2024-02-29") == "Thursday, 29 February 2024")
    #expect(LongDate.text(fromStoreDate: "2000-02-29") == "Tuesday, 29 February 2000")
    #expect(LongDate.text(fromStoreDate: "1900-02-29") == nil)
    #expect(LongDate.text(fromStoreDate: "2023-02-29") == nil)
}

@Test func dateTimeTextIsReadByItsDatePart() {
    #expect(LongDate.text(fromStoreDate: "2024-04-26T23:59:59Z") == "Friday, 26 April 2024")
}

@Test func malformedDatesGiveNil() {
    for text in ["", "2024-4-26", "26-Apr-24", "2024-13-01", "2024-04-31", "2024-04-26 junk", "abcd-ef-gh"] {
        #expect(LongDate.text(fromStoreDate: text) == nil, "\(text)")
    }
}
