import Foundation

/// The derived attributes that lists section by: the year, month or day of a date, and the initial
/// of a name, each as SQL and its Swift twin, which agree on every stored value (text, numbers,
/// BLOBs, NULL), so that the controller places a changed object where a refetch would.
///
///     Entity(
///         "Book",
///         attributes: [Attribute("title", .text), Attribute("published", .date)],
///         derived: [
///             .initial("titleInitial", of: "title"),
///             .year("publishedYear", of: "published"),
///         ]
///     )
///
/// The controller accepts such a key as a section key when the first sort is its attribute
/// (`title`, `published`): a year, month or day preserves the order of dates; an initial does
/// not (`#` gathers digits and `É`), and the controller orders by the key first to keep its
/// sections whole.
extension DerivedAttribute {
    /// The one section of the values of a date's attribute that are not dates (`garbage`, a number, a BLOB).
    public static let notADate = "(not a date)"

    /// The initial of `attribute`: its first character upper-cased when it is an ASCII letter, `#`
    /// for anything else (a digit, `é`, an empty text, a number, NULL). `column` is the attribute's
    /// column in SQL (default: the attribute's name).
    ///
    ///     DerivedAttribute.initial("nameInitial", of: "name")
    ///     DerivedAttribute.initial(of: .text("élan"))   // .text("#")
    public static func initial(_ name: String, of attribute: String, column: String? = nil) -> DerivedAttribute {
        let first = "upper(substr(\(sqlReference(column ?? attribute)), 1, 1))"
        return DerivedAttribute(name, .text, sql: "CASE WHEN \(first) BETWEEN 'A' AND 'Z' THEN \(first) ELSE '#' END") {
            value in
            initial(of: value(attribute))
        }
    }

    /// The year (`2025`) of a date's attribute stored as text that begins `YYYY`, no digit after
    /// (see ``DatePart``).
    ///
    ///     DerivedAttribute.year("publishedYear", of: "publishedOn", column: "published_on")
    public static let year = DatePart(length: 4)

    /// The month (`2025-06`) of a date's attribute (see ``DatePart``).
    ///
    ///     DerivedAttribute.month("closeMonth", of: "publishedOn", column: "published_on")
    public static let month = DatePart(length: 7)

    /// The day (`2025-06-27`) of a date's or a timestamp's attribute (see ``DatePart``).
    ///
    ///     DerivedAttribute.day("createdDay", of: "created")
    public static let day = DatePart(length: 10)

    /// The factory of one of the date parts a list sections by — ``year``, ``month`` or ``day``:
    /// the first 4, 7 or 10 characters of a date's attribute stored as text that begins with a
    /// date to that precision, no digit after. Call it with the derived attribute's name.
    ///
    ///     DerivedAttribute.year("publishedYear", of: "publishedOn")   // a DatePart, called
    public struct DatePart: Sendable {
        /// How many characters of the date the part keeps (4, 7 or 10).
        public let length: Int

        /// The derived attribute `name`: this part of `attribute`'s value. NULL stays NULL and
        /// anything else is `notADate` (default: the section ``DerivedAttribute/notADate``), which
        /// sorts after every date in both directions (``DerivedAttribute/sortsLast``). `column` is
        /// the attribute's column in SQL (default: the attribute's name). `valuesAreDates` (every
        /// value is known to be a date) leaves the check out: the plain `substr`, which an index on
        /// the column serves. `inLocalTime` reads a date-time with an offset (`2024-12-31T20:30:00-05:00`)
        /// in the local time zone first (``DerivedAttribute/localTime(of:)``): its part of the local
        /// date (`2025-01-01` in Tokyo), which no index serves.
        ///
        ///     DerivedAttribute.month("publishedMonth", of: "publishedOn", column: "published_on", valuesAreDates: true)
        public func callAsFunction(
            _ name: String,
            of attribute: String,
            column: String? = nil,
            notADate: StoreValue = .text(DerivedAttribute.notADate),
            valuesAreDates: Bool = false,
            inLocalTime: Bool = false
        ) -> DerivedAttribute {
            let ref = sqlReference(column ?? attribute)
            if inLocalTime {
                // The local date's part when it is a date-time with an offset; else the part as written.
                let plain = self(
                    name,
                    of: attribute,
                    column: column,
                    notADate: notADate,
                    valuesAreDates: valuesAreDates
                )
                let sql = "coalesce(substr(\(localDateSQL(ref)), 1, \(length)), \(plain.sql))"
                return DerivedAttribute(name, .text, sql: sql, sortsLast: plain.sortsLast) { [length] value in
                    let local = localTime(of: value(attribute))
                    if local != value(attribute) { return prefix(of: local, length: length) }
                    return plain.compute(value)
                }
            }
            if valuesAreDates {
                // `length` characters: at most 4 bytes each.
                return DerivedAttribute(name, .text, sql: "substr(\(ref), 1, \(length))", decidingBytes: 4 * length) {
                    [length] value in
                    prefix(of: value(attribute), length: length)
                }
            }
            let pattern = ["[0-9][0-9][0-9][0-9]", "[0-9][0-9]", "[0-9][0-9]"]
                .prefix(length == 4 ? 1 : length == 7 ? 2 : 3).joined(separator: "-")
            let sql =
                "CASE WHEN \(ref) IS NULL THEN NULL WHEN typeof(\(ref)) = 'text' AND substr(\(ref), 1, \(length)) GLOB '\(pattern)'"
                + " AND substr(\(ref), \(length + 1), 1) NOT GLOB '[0-9]' THEN substr(\(ref), 1, \(length))"
                + " ELSE \(sqlLiteral(notADate)) END"
            // The pattern reads `length` ASCII characters and the byte after them.
            // Its own section sorts after the dates, ascending or descending (NULL keeps SQLite's place).
            let last: StoreValue? = notADate == .null ? Optional.none : notADate  // StoreValue reads `nil` as `.null`
            return DerivedAttribute(name, .text, sql: sql, decidingBytes: length + 1, sortsLast: last) {
                [length] value in
                datePrefix(of: value(attribute), length: length, notADate: notADate)
            }
        }
    }

    /// The Swift twin of ``initial(_:of:column:)``'s SQL: the first character upper-cased when it is an
    /// ASCII letter (a BLOB's first byte, as SQLite's `upper` reads it), `.text("#")` for anything else.
    ///
    ///     DerivedAttribute.initial(of: .text("book"))   // .text("B")
    ///     DerivedAttribute.initial(of: .integer(7))     // .text("#")
    public static func initial(of value: StoreValue) -> StoreValue {
        let first: UInt32?
        switch value {
        case .text(let text): first = text.unicodeScalars.first?.value
        case .blob(let bytes): first = bytes.first.map(UInt32.init)
        case .null, .integer, .real: first = nil
        }
        switch first {
        case .some(let c) where c >= 0x41 && c <= 0x5A: return .text(String(Unicode.Scalar(UInt8(c))))
        case .some(let c) where c >= 0x61 && c <= 0x7A: return .text(String(Unicode.Scalar(UInt8(c - 0x20))))
        default: return .text("#")
        }
    }

    /// The Swift twin of a checked ``DatePart``'s SQL: the first `length` characters (4, 7 or 10) of text
    /// that begins with a date to that precision and no digit after it; NULL for NULL; `notADate` otherwise.
    ///
    ///     DerivedAttribute.datePrefix(of: .text("2025-06-27"), length: 7)   // .text("2025-06")
    ///     DerivedAttribute.datePrefix(of: .text("20250627"), length: 4)     // .text("(not a date)")
    public static func datePrefix(
        of value: StoreValue,
        length: Int,
        notADate: StoreValue = .text(notADate)
    ) -> StoreValue {
        switch value {
        case .null: return .null
        case .text(let text):
            // On the text's own UTF-8 (a fetch reads this once per row: no array, no decoding).
            return withUTF8(of: text) { bytes -> StoreValue in
                guard bytes.count >= length else { return notADate }
                for i in 0..<length {
                    let isDash = i == 4 || i == 7
                    guard isDash ? bytes[i] == 0x2D : (bytes[i] >= 0x30 && bytes[i] <= 0x39) else { return notADate }
                }
                if bytes.count > length && bytes[length] >= 0x30 && bytes[length] <= 0x39 { return notADate }
                // The first `length` bytes are ASCII digits and dashes: as many characters.
                if bytes.count == length { return .text(text) }
                return .text(String(decoding: UnsafeBufferPointer(rebasing: bytes[..<length]), as: UTF8.self))
            }
        default:
            return notADate
        }
    }

    /// SQLite's `substr(value, 1, length)` in Swift: the first `length` characters (code points) of
    /// text, or of a number's decimal text as SQLite writes it; a BLOB's first bytes; NULL stays NULL.
    ///
    ///     DerivedAttribute.prefix(of: .real(2024), length: 4)   // .text("2024")
    public static func prefix(of value: StoreValue, length: Int) -> StoreValue {
        switch value {
        case .null: return .null
        case .text(let text): return .text(prefix(ofText: text, length: length))
        case .integer(let i): return .text(String(String(i).prefix(length)))
        case .real(let d): return .text(String(sqliteText(d).prefix(length)))
        case .blob(let bytes): return .blob(Array(bytes.prefix(length)))
        }
    }

    /// The first `length` code points of `text` (all of it when it has no more), found on its UTF-8
    /// bytes: a code point starts at every byte that is not a continuation byte (`10xxxxxx`).
    static func prefix(ofText text: String, length: Int) -> String {
        guard length > 0 else { return "" }
        return withUTF8(of: text) { bytes -> String in
            var starts = 0
            for (i, byte) in bytes.enumerated() where byte & 0xC0 != 0x80 {
                if starts == length {
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<i]), as: UTF8.self)
                }
                starts += 1
            }
            return text
        }
    }

    /// Calls `body` with the UTF-8 bytes of `text`: its own storage when contiguous, else a copy.
    @inline(__always)
    private static func withUTF8<R>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// `$.column` in a derived attribute's SQL; a name that is not a plain identifier is quoted (`$."first name"`).
    static func sqlReference(_ column: String) -> String {
        let plain =
            column.unicodeScalars.first.map { !("0"..."9").contains($0) } ?? false
            && column.unicodeScalars.allSatisfy {
                $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
            }
        return plain ? "$.\(column)" : "$.\"" + column.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A value as an SQL literal (`'(not a date)'`, `x'0A'`, `NULL`): the value of the values that
    /// are not dates, and the controller's `ORDER BY (e IS last)` of a ``sortsLast`` value.
    package static func sqlLiteral(_ value: StoreValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let i): return String(i)
        case .real(let d): return sqliteText(d)
        case .text(let t): return "'" + t.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes): return "x'" + bytes.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    /// A real as SQLite writes it as text (`%!.15g`: `2024.0`, `1.5`).
    static func sqliteText(_ d: Double) -> String {
        var text = String(format: "%.15g", d)
        if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "n" || $0 == "i" }) { text += ".0" }
        return text
    }
}
