import CSVImport

/// Where each column sits in one file, and the checking of its rows.
///
/// Checking works on the field bytes: numbers and dates are parsed without
/// making strings, and text is handed on as trimmed UTF-8 (ASCII fields as
/// they are; others decoded — UTF-8 when valid, else Windows-1252 — trimmed
/// of white space including no-break spaces, and re-encoded).
///
///     let layout = try BankRowLayout(header: headerRecord)
///     switch layout.check(record) {
///     case .success(let values): print(values.cert, values.closeDate)
///     case .failure(let problem): print(problem.reason)
///     }
struct BankRowLayout {
    let fieldCount: Int
    let name: Int
    let city: Int
    let state: Int
    let cert: Int
    let closingDate: Int
    let acquirer: Int?
    let updatedDate: Int?
    let fund: Int?
    let pivotYear: Int

    /// Maps the header row; throws ``CSVError/missingColumns(_:found:)``.
    init(header: CSVRecord, pivotYear: Int = CalendarDay.defaultPivotYear) throws {
        let map = try CSVHeaderMap(header: header.fields, columns: BankListColumns.all)
        fieldCount = header.count
        name = map.index(of: BankListColumns.bankName.name)!
        city = map.index(of: BankListColumns.city.name)!
        state = map.index(of: BankListColumns.state.name)!
        cert = map.index(of: BankListColumns.cert.name)!
        closingDate = map.index(of: BankListColumns.closingDate.name)!
        acquirer = map.index(of: BankListColumns.acquiringInstitution.name)
        updatedDate = map.index(of: BankListColumns.updatedDate.name)
        fund = map.index(of: BankListColumns.fund.name)
        self.pivotYear = pivotYear
    }

    /// The parsed, checked non-text values of a row.
    struct Values {
        var cert: Int64
        var closeDate: CalendarDay
        var updatedDate: CalendarDay?
        var fund: Int64?
    }

    /// What is wrong with a row.
    struct Problem: Error {
        var reason: String
        var column: String?
        var value: String?
    }

    /// Checks field count, name, cert, dates and fund (not duplicates).
    func check(_ record: CSVRecord) -> Result<Values, Problem> {
        guard record.count == fieldCount else {
            return .failure(Problem(reason: "expected \(fieldCount) fields, found \(record.count)"))
        }
        if BankRowLayout.isBlank(record, name) {
            return .failure(problem("missing bank name", BankListColumns.bankName, record, name))
        }
        let certValue: Int64
        switch BankRowLayout.integer(record, cert) {
        case .value(let v): certValue = v
        case .empty: return .failure(problem("missing cert", BankListColumns.cert, record, cert))
        case .invalid: return .failure(problem("not a whole number", BankListColumns.cert, record, cert))
        }
        guard let close = record.withUnsafeBytes(at: closingDate, { CalendarDay.parse(bytes: $0, pivotYear: pivotYear) }) else {
            let empty = BankRowLayout.isBlank(record, closingDate)
            return .failure(problem(empty ? "missing closing date" : "not a valid date", BankListColumns.closingDate, record, closingDate))
        }
        var updated: CalendarDay?
        if let updatedDate, !BankRowLayout.isBlank(record, updatedDate) {
            guard let day = record.withUnsafeBytes(at: updatedDate, { CalendarDay.parse(bytes: $0, pivotYear: pivotYear) }) else {
                return .failure(problem("not a valid date", BankListColumns.updatedDate, record, updatedDate))
            }
            updated = day
        }
        var fundValue: Int64?
        if let fund {
            switch BankRowLayout.integer(record, fund) {
            case .value(let v): fundValue = v
            case .empty: fundValue = nil
            case .invalid: return .failure(problem("not a whole number", BankListColumns.fund, record, fund))
            }
        }
        return .success(Values(cert: certValue, closeDate: close, updatedDate: updated, fund: fundValue))
    }

    private func problem(_ reason: String, _ column: CSVColumn, _ record: CSVRecord, _ index: Int) -> Problem {
        Problem(reason: reason, column: column.name, value: BankRowLayout.text(record, index))
    }

    // MARK: Field access

    /// True when the field is empty or white space only (usually decided by its first byte).
    @inline(__always)
    static func isBlank(_ record: CSVRecord, _ index: Int) -> Bool {
        record.withUnsafeBytes(at: index) { raw in
            for b in raw {
                if b == 0x20 || b == 0x09 { continue }
                if b < 0x80 { return false }
                return trimmed(CSVTextDecoding.string(from: raw)).isEmpty
            }
            return true
        }
    }

    /// The field as trimmed text.
    static func text(_ record: CSVRecord, _ index: Int) -> String {
        withText(record, index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the field as trimmed UTF-8.
    @inline(__always)
    static func withText<R>(_ record: CSVRecord, _ index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try record.withUnsafeBytes(at: index) { raw in
            if CSVTextDecoding.isASCII(raw) {
                var start = 0, end = raw.count
                while start < end && (raw[start] == 0x20 || raw[start] == 0x09) { start += 1 }
                while end > start && (raw[end - 1] == 0x20 || raw[end - 1] == 0x09) { end -= 1 }
                return try body(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
            }
            if CSVTextDecoding.isValidUTF8(raw) {
                return try body(UnsafeRawBufferPointer(rebasing: raw[trimmedRange(utf8: raw)]))
            }
            var text = trimmed(CSVTextDecoding.string(from: raw))
            return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        }
    }

    /// The range of valid UTF-8 `bytes` without leading and trailing white space: the same
    /// characters as `Character.isWhitespace`-style trimming (`Unicode.Scalar.Properties.isWhitespace`,
    /// no-break spaces included) plus U+FEFF, found on the bytes without decoding.
    static func trimmedRange(utf8 bytes: UnsafeRawBufferPointer) -> Range<Int> {
        var start = 0, end = bytes.count
        while start < end, let n = spaceLength(bytes, from: start, end: end) { start += n }
        while end > start, let n = spaceLength(bytes, endingAt: end, start: start) { end -= n }
        return start..<end
    }

    /// The byte length of a white-space scalar starting at `i`, or nil.
    private static func spaceLength(_ b: UnsafeRawBufferPointer, from i: Int, end: Int) -> Int? {
        let b0 = b[i]
        if b0 == 0x20 || (b0 >= 0x09 && b0 <= 0x0D) { return 1 }
        if b0 < 0xC2 { return nil }
        if i + 1 < end && isSpace2(b0, b[i + 1]) { return 2 }
        if i + 2 < end && isSpace3(b0, b[i + 1], b[i + 2]) { return 3 }
        return nil
    }

    /// The byte length of a white-space scalar ending just before `end`, or nil.
    private static func spaceLength(_ b: UnsafeRawBufferPointer, endingAt end: Int, start: Int) -> Int? {
        let last = b[end - 1]
        if last == 0x20 || (last >= 0x09 && last <= 0x0D) { return 1 }
        if last < 0x80 { return nil }
        if end - 2 >= start && isSpace2(b[end - 2], last) { return 2 }
        if end - 3 >= start && isSpace3(b[end - 3], b[end - 2], last) { return 3 }
        return nil
    }

    /// U+0085, U+00A0.
    @inline(__always) private static func isSpace2(_ a: UInt8, _ b: UInt8) -> Bool {
        a == 0xC2 && (b == 0xA0 || b == 0x85)
    }

    /// U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF.
    @inline(__always) private static func isSpace3(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Bool {
        switch (a, b) {
        case (0xE2, 0x80): return (c >= 0x80 && c <= 0x8A) || c == 0xA8 || c == 0xA9 || c == 0xAF
        case (0xE2, 0x81): return c == 0x9F
        case (0xE1, 0x9A): return c == 0x80
        case (0xE3, 0x80): return c == 0x80
        case (0xEF, 0xBB): return c == 0xBF
        default: return false
        }
    }

    /// `text` without leading and trailing white space (no-break spaces included).
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isBlank($0) })!
        return String(scalars[first...last])
    }

    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar == "\u{FEFF}"
    }

    /// The careful path: decode, trim every kind of white space, then digits only.
    private static func slowInteger(_ raw: UnsafeRawBufferPointer) -> ParsedInteger {
        let text = trimmed(CSVTextDecoding.string(from: raw))
        if text.isEmpty { return .empty }
        guard text.utf8.count <= 18, text.utf8.allSatisfy({ $0 &- 0x30 < 10 }), let value = Int64(text) else { return .invalid }
        return .value(value)
    }

    enum ParsedInteger { case value(Int64), empty, invalid }

    /// A whole number (digits only, surrounding spaces allowed).
    @inline(__always)
    static func integer(_ record: CSVRecord, _ index: Int) -> ParsedInteger {
        record.withUnsafeBytes(at: index) { raw in
            var start = 0, end = raw.count
            while start < end && (raw[start] == 0x20 || raw[start] == 0x09) { start += 1 }
            while end > start && (raw[end - 1] == 0x20 || raw[end - 1] == 0x09) { end -= 1 }
            guard start < end, end - start <= 18 else { return slowInteger(raw) }
            var value: Int64 = 0
            for i in start..<end {
                let digit = raw[i] &- 0x30
                guard digit < 10 else { return slowInteger(raw) }
                value = value * 10 + Int64(digit)
            }
            return .value(value)
        }
    }
}
