/// The type of a CSV column, inferred from its values by ``CSVColumnTypeInference``.
///
/// Types combine as values are seen: integers and reals make ``real``,
/// dates and date-times make ``dateTime``, anything else with anything
/// makes ``text``. (A CSV field is never ``boolean``: only JSON's `true` and `false` are.)
///
///     CSVColumnType.integer.combined(with: .real)     // .real
///     CSVColumnType.date.combined(with: .dateTime)    // .dateTime
///     CSVColumnType.integer.combined(with: .date)     // .text
public enum CSVColumnType: String, Sendable, Hashable, CaseIterable {
    /// Whole numbers (`-12`, `0`, `4096`) that fit in 64 bits, written without leading zeros or `+`.
    case integer
    /// Decimal numbers (`3.25`, `-0.5`, `1e-3`), possibly with integers among them.
    case real
    /// ISO 8601 dates, `YYYY-MM-DD`.
    case date
    /// ISO 8601 date-times, `YYYY-MM-DDTHH:MM[:SS[.fff]][Z|±HH:MM]` (a space for `T` too), possibly with dates.
    case dateTime
    /// Anything else.
    case text
    /// JSON's `true` and `false` (stored as 1 and 0).
    case boolean

    /// The type of a column holding values of both types.
    public func combined(with other: CSVColumnType) -> CSVColumnType {
        switch (self, other) {
        case _ where self == other: return self
        case (.integer, .real), (.real, .integer): return .real
        case (.date, .dateTime), (.dateTime, .date): return .dateTime
        default: return .text
        }
    }
}
