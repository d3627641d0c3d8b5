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
    package static let notADate = DerivedAttribute.notADate

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
    /// serves as fast as ever. `inLocalTime` (a column of date-times written with offsets) takes the
    /// part of the local date, in the terminal's time zone: `2024-12-31T20:30:00-05:00` is in
    /// `2025-01` in Tokyo.
    package func derivedAttribute(valuesAreDates: Bool, inLocalTime: Bool = false) -> DerivedAttribute? {
        guard let derivation else { return nil }
        let dates = valuesAreDates
        let local = inLocalTime
        switch derivation {
        case .year: return .year(keyPath, of: column, valuesAreDates: dates, inLocalTime: local)
        case .month: return .month(keyPath, of: column, valuesAreDates: dates, inLocalTime: local)
        case .day: return .day(keyPath, of: column, valuesAreDates: dates, inLocalTime: local)
        case .initial: return .initial(keyPath, of: column)
        }
    }
}
