import Foundation
import SQLiteStore

/// What one column of the rows a request selects holds: how many values, NULLs and
/// distinct values, the least and the greatest, and for numbers their mean, median and
/// standard deviation — every figure exact, read from all the rows.
///
/// Made by ``read(keyPath:request:on:progress:)`` with two queries: one pass counting the
/// rows, the values and the numbers, then one pass over the values in SQLite's order
/// (`ORDER BY value`, as `count(DISTINCT …)` sorts them too) that gives the rest in Swift:
/// distinct values where one differs from the last, the least and the greatest at the
/// ends, the median at the middle, the mean and variance by Welford's method (stable
/// where a sum of squares is not).
///
///     let summary = try ColumnSummary.read(keyPath: "fund", request: request, model: store.model, on: store.database)
///     summary.nulls      // 12
///     summary.median     // 42.5
package struct ColumnSummary: Sendable, Equatable {
    /// The key path summarized.
    package var keyPath: String
    /// The rows the request selects.
    package var rows: Int
    /// The rows where the value is NULL.
    package var nulls: Int
    /// The distinct values (not counting NULL), under SQLite's equality (1 and 1.0 are one).
    package var distinct: Int
    /// The least value in SQLite's order (numbers before text before BLOBs); NULL when there is none.
    package var minimum: StoreValue
    /// The greatest value in SQLite's order; NULL when there is none.
    package var maximum: StoreValue
    /// The values that are numbers (integers or reals).
    package var numbers: Int
    /// The mean of the numbers (nil: none).
    package var mean: Double?
    /// The median of the numbers: the middle one, or the mean of the two middle ones (nil: none).
    package var median: Double?
    /// The sample standard deviation of the numbers (n − 1; nil: fewer than two).
    package var standardDeviation: Double?

    /// The values that are not NULL.
    package var values: Int { rows - nulls }

    /// Summarizes `keyPath` over the rows `request` selects (its entity and predicate), on `database`.
    /// `progress` gets the values read so far and the values there are, now and then; returning
    /// false stops the read (the summary is then nil).
    package static func read(
        keyPath: String,
        request: FetchRequest,
        model: Model,
        on database: Database,
        progress: (_ read: Int, _ of: Int) -> Bool = { _, _ in true }
    ) throws -> ColumnSummary? {
        let source = try model.sqlSource(
            root: request.entityName,
            keyPaths: [keyPath] + (request.predicate?.keyPaths ?? [])
        )
        let e = try source.expression(forKeyPath: keyPath)
        let predicate = try request.predicate.map { try $0.sql(in: source) }
        let filter = predicate.map { " WHERE (" + $0.sql + ")" } ?? ""
        let arguments = predicate?.arguments ?? []
        let counts = try database.query(
            "SELECT count(*), count(\(e)), coalesce(sum(typeof(\(e)) IN ('integer', 'real')), 0) FROM \(source.from)\(filter)",
            arguments
        )
        let rows = Int(counts.first?[0].int64 ?? 0)
        let values = Int(counts.first?[1].int64 ?? 0)
        let numbers = Int(counts.first?[2].int64 ?? 0)
        var summary = ColumnSummary(
            keyPath: keyPath,
            rows: rows,
            nulls: rows - values,
            distinct: 0,
            minimum: .null,
            maximum: .null,
            numbers: numbers
        )
        let ordered =
            "SELECT \(e) FROM \(source.from) WHERE \(predicate.map { "(" + $0.sql + ") AND " } ?? "")\(e) IS NOT NULL "
            + "ORDER BY \(e) COLLATE BINARY"
        let statement = try database.statement(ordered)
        defer { statement.reset() }
        try statement.bind(arguments)
        var welford = Welford()
        var last: StoreValue = .null
        var read = 0
        let middle = numbers / 2
        var lowerMiddle: Double?
        while try statement.step() {
            let value = statement.value(at: 0)
            if read == 0 { summary.minimum = value }
            if read == 0 || StoreValue.compare(value, last) != 0 { summary.distinct += 1 }
            // Numbers come first in SQLite's order: the n-th value read is the n-th number.
            if read < numbers, let number = value.number {
                welford.add(number)
                if numbers % 2 == 0 && read == middle - 1 { lowerMiddle = number }
                if read == middle {
                    summary.median = numbers % 2 == 1 ? number : ((lowerMiddle ?? number) + number) / 2
                }
            }
            last = value
            read += 1
            if read & 0x3FFF == 0, !progress(read, values) { return nil }
        }
        summary.maximum = last
        if numbers > 0 {
            summary.mean = welford.mean
            summary.standardDeviation = welford.sampleStandardDeviation
        }
        return summary
    }

    private init(
        keyPath: String,
        rows: Int,
        nulls: Int,
        distinct: Int,
        minimum: StoreValue,
        maximum: StoreValue,
        numbers: Int
    ) {
        self.keyPath = keyPath
        self.rows = rows
        self.nulls = nulls
        self.distinct = distinct
        self.minimum = minimum
        self.maximum = maximum
        self.numbers = numbers
    }

    /// The running mean and sum of squared differences of Welford's method.
    struct Welford {
        private(set) var count = 0
        private(set) var mean = 0.0
        private var m2 = 0.0

        mutating func add(_ x: Double) {
            count += 1
            let delta = x - mean
            mean += delta / Double(count)
            m2 += delta * (x - mean)
        }

        /// √(Σ(x − mean)² / (n − 1)); nil below two values.
        var sampleStandardDeviation: Double? { count > 1 ? (m2 / Double(count - 1)).squareRoot() : nil }
    }
}

extension StoreValue {
    /// The value as a number when it is an integer or a real.
    fileprivate var number: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .real(let d): return d
        default: return nil
        }
    }
}
