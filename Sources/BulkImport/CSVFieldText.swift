import CSVImport

/// Reading a field of a `CSVRecord` as trimmed text or a whole number, on its bytes.
///
/// Text is handed on as trimmed UTF-8: ASCII fields as they are; others
/// decoded (UTF-8 when valid, else Windows-1252), trimmed of white space
/// including no-break spaces and U+FEFF, and re-encoded. Numbers are parsed
/// without making strings.
///
///     let record = CSVRecord(line: 2, fields: [" Ada ", "17", ""])
///     CSVFieldText.text(record, 0)     // "Ada"
///     CSVFieldText.integer(record, 1)  // .value(17)
///     CSVFieldText.isBlank(record, 2)  // true
package enum CSVFieldText {
    /// True when the field is empty or white space only (usually decided by its first byte).
    @inlinable
    package static func isBlank(_ record: CSVRecord, _ index: Int) -> Bool {
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
    package static func text(_ record: CSVRecord, _ index: Int) -> String {
        withText(record, index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the field as trimmed UTF-8.
    @inlinable
    package static func withText<R>(
        _ record: CSVRecord,
        _ index: Int,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R {
        try record.withUnsafeBytes(at: index) { raw in
            if CSVTextDecoding.isASCII(raw) {
                var start = 0
                var end = raw.count
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
    package static func trimmedRange(utf8 bytes: UnsafeRawBufferPointer) -> Range<Int> {
        var start = 0
        var end = bytes.count
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
    package static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isBlank($0) })!
        return String(scalars[first...last])
    }

    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar == "\u{FEFF}"
    }

    /// The careful path: decode, trim every kind of white space, then digits only.
    @usableFromInline static func slowInteger(_ raw: UnsafeRawBufferPointer) -> ParsedInteger {
        let text = trimmed(CSVTextDecoding.string(from: raw))
        if text.isEmpty { return .empty }
        guard text.utf8.count <= 18, text.utf8.allSatisfy({ $0 &- 0x30 < 10 }), let value = Int64(text) else {
            return .invalid
        }
        return .value(value)
    }

    /// A field read as a whole number.
    package enum ParsedInteger: Sendable, Equatable {
        /// The field's whole number.
        case value(Int64)
        /// The field is empty or white space.
        case empty
        /// Something other than digits (or more than 18 of them).
        case invalid
    }

    /// A whole number (digits only, surrounding spaces allowed).
    @inlinable
    package static func integer(_ record: CSVRecord, _ index: Int) -> ParsedInteger {
        record.withUnsafeBytes(at: index) { raw in
            var start = 0
            var end = raw.count
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
