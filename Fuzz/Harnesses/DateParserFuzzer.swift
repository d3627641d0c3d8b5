// libFuzzer harness for the FDIC date parser.
//
// Property: whatever parses is a real calendar day, and its ISO text parses
// back to the same day; byte and text entry points agree.
import CSVImport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDateParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let raw = UnsafeRawBufferPointer(start: data, count: size)
    let fromBytes = CalendarDay.parse(bytes: raw)
    if let text = String(validating: raw, as: UTF8.self) {
        let fromText = CalendarDay.parse(text)
        if fromText != fromBytes { fatalError("text and bytes disagree on \(text.debugDescription)") }
    }
    if let day = fromBytes {
        guard day.month >= 1, day.month <= 12, day.day >= 1,
            day.day <= CalendarDay.daysIn(month: day.month, year: day.year)
        else {
            fatalError("impossible day \(day)")
        }
        if CalendarDay.parse(day.isoText) != day { fatalError("ISO round trip failed for \(day)") }
        if CalendarDay(dayNumber: day.dayNumber) != day { fatalError("day number round trip failed for \(day)") }
    }
    return 0
}
