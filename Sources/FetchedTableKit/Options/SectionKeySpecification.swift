import Foundation
import SQLiteStore

/// `--section KEY`: a column, or a key derived from one — `year(col)` (`YYYY`),
/// `month(col)` (`YYYY-MM`), `day(col)` (`YYYY-MM-DD`), `initial(col)` (the first
/// letter upper-cased, `#` for anything else). Values that are not dates are in one
/// section, `(not a date)` (``notADate``).
///
/// A derived key is a ``DerivedAttribute`` named as written (`day(ts)`): an SQL
/// expression the controller sorts, filters and sections by, and the same
/// computation in Swift for incremental changes. Dates are read as text, as
/// SQLite's `substr` reads them (`2025-06-27`, `2025-06-27T10:00:00Z`, `2025-06-27 10:00`).
///
///     let section = try SectionKeySpecification(parsing: "day(ts)")
///     section.keyPath           // "day(ts)"
///     section.column            // "ts"
///     section.derivedAttribute  // substr($.ts, 1, 10)
package struct SectionKeySpecification: Equatable, Sendable {
    /// How a derived key is made from its column.
    package enum Derivation: String, CaseIterable, Sendable {
        /// `YYYY`: the first 4 characters.
        case year
        /// `YYYY-MM`: the first 7.
        case month
        /// `YYYY-MM-DD`: the first 10.
        case day
        /// The first character upper-cased when it is an ASCII letter, else `#`.
        case initial
    }

    /// The column the key is read from.
    package var column: String
    /// Nil: the column's value itself names the section.
    package var derivation: Derivation?

    /// A key on `column`, derived by `derivation` (nil: the column itself).
    package init(column: String, derivation: Derivation? = nil) {
        self.column = column
        self.derivation = derivation
    }

    /// Parses the `--section` value.
    package init(parsing text: String) throws(OptionError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw OptionError("--section: no column given") }
        if let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") {
            let function = trimmed[..<open].trimmingCharacters(in: .whitespaces).lowercased()
            var column = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
                .trimmingCharacters(in: .whitespaces)
            if column.count >= 2, column.hasPrefix("\""), column.hasSuffix("\"") {
                column = String(column.dropFirst().dropLast())
            }
            guard let derivation = Derivation(rawValue: function) else {
                let names = Derivation.allCases.map { "\($0.rawValue)(col)" }.joined(separator: ", ")
                throw OptionError("--section: unknown key \"\(function)(…)\"; use a column or \(names)")
            }
            guard !column.isEmpty else { throw OptionError("--section: \(function)() needs a column") }
            self.init(column: column, derivation: derivation)
        } else {
            var column = trimmed
            if column.count >= 2, column.hasPrefix("\""), column.hasSuffix("\"") {
                column = String(column.dropFirst().dropLast())
            }
            self.init(column: column)
        }
    }

    /// The key path the controller sections by: the column, or `day(ts)`.
    package var keyPath: String {
        derivation.map { "\($0.rawValue)(\(column))" } ?? column
    }

    /// The name of the one section that holds the values that are not dates, for `year()`, `month()` and `day()`.
    package static let notADate = "(not a date)"

    /// The derived attribute of a derived key (nil for a plain column); a date key checks its values
    /// (see ``derivedAttribute(valuesAreDates:)``).
    package var derivedAttribute: DerivedAttribute? { derivedAttribute(valuesAreDates: false) }

    /// The derived attribute of a derived key (nil for a plain column).
    ///
    /// `year()`, `month()` and `day()` take the first 4, 7 or 10 characters of text that begins with
    /// a date to that precision (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`, digits where the letters are, no digit
    /// after them); any other value — text that is no date (`garbage`), a number (`20240101`), a BLOB —
    /// is in one section, ``notADate``; NULL stays NULL. `valuesAreDates` (a CSV file's column typed as
    /// dates from every value) leaves the check out: the plain `substr`, which an index on the column
    /// serves as fast as ever.
    package func derivedAttribute(valuesAreDates: Bool) -> DerivedAttribute? {
        guard let derivation else { return nil }
        let column = self.column
        let ref = SectionKeySpecification.sqlReference(column)
        switch derivation {
        case .year, .month, .day:
            let length = derivation == .year ? 4 : derivation == .month ? 7 : 10
            if valuesAreDates {
                return DerivedAttribute(keyPath, .text, sql: "substr(\(ref), 1, \(length))") { attribute in
                    SectionKeySpecification.prefix(attribute(column), length: length)
                }
            }
            let year = String(repeating: "[0-9]", count: 4)
            let pattern = [year, "[0-9][0-9]", "[0-9][0-9]"].prefix(length == 4 ? 1 : length == 7 ? 2 : 3)
                .joined(separator: "-")
            let sql =
                "CASE WHEN \(ref) IS NULL THEN NULL WHEN typeof(\(ref)) = 'text' AND substr(\(ref), 1, \(length)) GLOB '\(pattern)'"
                + " AND substr(\(ref), \(length + 1), 1) NOT GLOB '[0-9]' THEN substr(\(ref), 1, \(length))"
                + " ELSE '\(SectionKeySpecification.notADate)' END"
            return DerivedAttribute(keyPath, .text, sql: sql) { attribute in
                SectionKeySpecification.datePrefix(attribute(column), length: length)
            }
        case .initial:
            let first = "upper(substr(\(ref), 1, 1))"
            return DerivedAttribute(
                keyPath,
                .text,
                sql: "CASE WHEN \(first) BETWEEN 'A' AND 'Z' THEN \(first) ELSE '#' END"
            ) { attribute in
                SectionKeySpecification.initial(of: attribute(column))
            }
        }
    }

    /// The Swift twin of a checked date key's SQL: the first `length` characters of text that begins
    /// with a date to that precision and no digit after it, NULL for NULL, ``notADate`` for the rest.
    static func datePrefix(_ value: StoreValue, length: Int) -> StoreValue {
        switch value {
        case .null: return .null
        case .text(let text):
            let bytes = Array(text.utf8.prefix(length + 1))
            guard bytes.count >= length else { return .text(notADate) }
            for i in 0..<length {
                let isDash = i == 4 || i == 7
                guard isDash ? bytes[i] == 0x2D : (bytes[i] >= 0x30 && bytes[i] <= 0x39) else { return .text(notADate) }
            }
            if bytes.count > length, bytes[length] >= 0x30, bytes[length] <= 0x39 { return .text(notADate) }
            return .text(String(decoding: bytes.prefix(length), as: UTF8.self))
        default:
            return .text(notADate)
        }
    }

    /// `$.col` in a derived attribute's SQL; a name that is not a plain identifier is quoted (`$."first name"`).
    static func sqlReference(_ column: String) -> String {
        let plain =
            column.unicodeScalars.first.map { !("0"..."9").contains($0) } ?? false
            && column.unicodeScalars.allSatisfy {
                $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
            }
        return plain ? "$.\(column)" : "$.\"" + column.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// SQLite's `substr(value, 1, length)` in Swift: the first `length` characters
    /// (code points) of text, of an integer's or a real's decimal text; NULL stays NULL.
    static func prefix(_ value: StoreValue, length: Int) -> StoreValue {
        switch value {
        case .null: return .null
        case .text(let text): return .text(String(String.UnicodeScalarView(text.unicodeScalars.prefix(length))))
        case .integer(let i): return .text(String(String(i).prefix(length)))
        case .real(let d): return .text(String(SectionKeySpecification.sqliteText(d).prefix(length)))
        case .blob(let bytes): return .blob(Array(bytes.prefix(length)))
        }
    }

    /// A real as SQLite writes it as text (`%!.15g`: `2024.0`, `1.5`).
    static func sqliteText(_ d: Double) -> String {
        var text = String(format: "%.15g", d)
        if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "n" || $0 == "i" }) { text += ".0" }
        return text
    }

    /// The Swift twin of the initial's SQL: the first character upper-cased when it
    /// is an ASCII letter, else `#` (NULL and empty values too, as SQL's CASE gives).
    static func initial(of value: StoreValue) -> StoreValue {
        let text: String
        switch value {
        case .text(let t): text = t
        case .integer(let i): text = String(i)
        case .real(let d): text = sqliteText(d)
        case .null, .blob: return .text("#")
        }
        guard let first = text.unicodeScalars.first, first.isASCII,
            (first >= "a" && first <= "z") || (first >= "A" && first <= "Z")
        else { return .text("#") }
        return .text(String(first).uppercased())
    }
}
