/// Infers each column's type from every value of a CSV file, as the rows
/// stream by: one `CSVFieldValue.classify` per field, no second pass.
///
/// Empty fields are NULL and do not decide a type; a column with no value at
/// all is ``CSVColumnType/text``. The counts kept per column also tell a
/// loader which stored values must change once the type is known (an
/// integer stored as a number in a column that turns out to be text, say).
///
///     var inference = CSVColumnTypeInference(columnCount: 2)
///     for row in [["1", "2024-01-05"], ["2.5", ""], ["", "2024-01-06T10:00:00Z"]] {
///         for (column, field) in row.enumerated() { inference.add(CSVFieldValue.classify(Array(field.utf8)), column: column) }
///     }
///     inference.types   // [.real, .dateTime]
public struct CSVColumnTypeInference: Sendable, Equatable {
    /// How many values of each kind one column has held.
    package struct Counts: Sendable, Equatable {
        /// Empty fields (NULL).
        package var empty = 0
        /// Integers.
        package var integers = 0
        /// Reals written as SQLite writes them back (``CSVFieldValue/real(_:exact:)`` with `exact`).
        package var exactReals = 0
        /// Other reals (`1.50`, `1e3`).
        package var otherReals = 0
        /// Dates.
        package var dates = 0
        /// Date-times.
        package var dateTimes = 0
        /// Text.
        package var texts = 0
        /// Booleans (JSON's `true` and `false`: ``CSVColumnTypeInference/addBoolean(column:)``).
        package var booleans = 0
        /// Missing-value tokens (`NA`, `N/A`, `-`…: ``CSVColumnTypeInference/addMissing(column:)``), which do not
        /// decide a type: NULL when the rest of the column is numbers or dates, text in a column of text.
        package var missing = 0

        /// Values that are not empty.
        package var values: Int { integers + exactReals + otherReals + dates + dateTimes + texts + booleans }
    }

    /// The counts of each column, in order.
    package private(set) var counts: [Counts]
    /// The type of each column so far (nil: no value yet).
    package private(set) var seenTypes: [CSVColumnType?]

    /// An inference over `columnCount` columns, before any value.
    public init(columnCount: Int) {
        counts = Array(repeating: Counts(), count: columnCount)
        seenTypes = Array(repeating: nil, count: columnCount)
    }

    /// Takes one value of `column` into account.
    @inline(__always)
    public mutating func add(_ value: CSVFieldValue, column: Int) {
        switch value {
        case .empty:
            counts[column].empty += 1
            return
        case .integer: counts[column].integers += 1
        case .real(_, let exact): if exact { counts[column].exactReals += 1 } else { counts[column].otherReals += 1 }
        case .date: counts[column].dates += 1
        case .dateTime: counts[column].dateTimes += 1
        case .text: counts[column].texts += 1
        }
        let type = value.columnType!
        if let seen = seenTypes[column] {
            if seen != type { seenTypes[column] = seen.combined(with: type) }
        } else {
            seenTypes[column] = type
        }
    }

    /// Takes one boolean of `column` into account (JSON's `true` or `false`; a CSV field is never one).
    package mutating func addBoolean(column: Int) {
        counts[column].booleans += 1
        if let seen = seenTypes[column] {
            if seen != .boolean { seenTypes[column] = seen.combined(with: .boolean) }
        } else {
            seenTypes[column] = .boolean
        }
    }

    /// Adds a column after the others, with no value yet (a JSON file's key seen for the first time).
    package mutating func appendColumn() {
        counts.append(Counts())
        seenTypes.append(nil)
    }

    /// Takes one missing-value token of `column` (`NA`, `N/A`, `-`…) into account: counted, not deciding the
    /// type, as an empty field. A column of nothing else is text (the tokens stay as written).
    package mutating func addMissing(column: Int) {
        counts[column].missing += 1
    }

    /// Whether `column`'s missing-value tokens are NULL: it has some, and its other values are numbers or
    /// dates (a column of text keeps them as written).
    package func treatsMissingAsNull(column: Int) -> Bool {
        counts[column].missing > 0 && seenTypes[column] != nil && seenTypes[column] != .text
    }

    /// Takes the counts of another part of the same file into account.
    package mutating func merge(_ other: CSVColumnTypeInference) {
        for column in counts.indices where column < other.counts.count {
            let o = other.counts[column]
            counts[column].empty += o.empty
            counts[column].integers += o.integers
            counts[column].exactReals += o.exactReals
            counts[column].otherReals += o.otherReals
            counts[column].dates += o.dates
            counts[column].dateTimes += o.dateTimes
            counts[column].texts += o.texts
            counts[column].missing += o.missing
            counts[column].booleans += o.booleans
            switch (seenTypes[column], other.seenTypes[column]) {
            case (let a?, let b?): seenTypes[column] = a.combined(with: b)
            case (nil, let b): seenTypes[column] = b
            default: break
            }
        }
    }

    /// Each column's type: what its values have in common, ``CSVColumnType/text`` when it held none.
    public var types: [CSVColumnType] { seenTypes.map { $0 ?? .text } }
}
