import PostgreSQLClient
import SQLiteStore

/// The rows of a server's result as a ``QueryResultTable`` reads them, decoded as a replica
/// keeps a server's values (``ReplicaColumn``): integers and floating-point numbers as numbers
/// (`NaN` as the text `NaN`), a boolean as 1 or 0, every other value as the server's text
/// (`numeric` exact, `timestamptz` with its offset) — read in libpq's memory, without a copy.
package final class PostgresResultRows: QueryRows {
    private let result: QueryResult
    private let kinds: [Kind]
    private var row = -1
    package let columnCount: Int

    /// How a column's values are read.
    enum Kind {
        case integer, real, boolean, text
    }

    /// The rows of `result`.
    package init(_ result: QueryResult) {
        self.result = result
        columnCount = result.columns.count
        kinds = result.columns.map { PostgresResultRows.kind(of: $0.typeOID) }
    }

    package func next() throws -> Bool {
        row += 1
        return row < result.rowCount
    }

    /// True: each value is stored as it is read, under its column's ``declaredType(of:)`` —
    /// integers in `INTEGER`, reals in `REAL` (`NaN`, text, stays text there), booleans as 1 or 0,
    /// the rest as text in `TEXT`, `DATE` or `TIMESTAMP` (a date's text never reads as a number).
    package var readsBackAsWritten: Bool { true }

    package func field(_ index: Int) -> QueryField {
        guard let bytes = result.textBytes(row: row, column: index) else { return .null }
        switch kinds[index] {
        case .integer:
            if let value = result.int64(row: row, column: index) { return .integer(value) }
        case .boolean:
            return .integer(bytes.first == UInt8(ascii: "t") ? 1 : 0)
        case .real:
            let text = String(decoding: bytes, as: UTF8.self)
            if let value = Double(text), !value.isNaN { return .real(value) }
        case .text: break
        }
        return .text(bytes)
    }

    /// The declared type a result column of type `oid` has in the result table: `INTEGER`,
    /// `REAL`, `BOOLEAN`, `DATE`, `TIMESTAMP` (without a zone) or `TEXT`.
    package static func declaredType(of oid: UInt32) -> String {
        switch oid {
        case 20, 21, 23, 26: "INTEGER"
        case 700, 701: "REAL"
        case 16: "BOOLEAN"
        case 1082: "DATE"
        case 1114: "TIMESTAMP"
        default: "TEXT"
        }
    }

    static func kind(of oid: UInt32) -> Kind {
        switch oid {
        case 20, 21, 23, 26: .integer
        case 700, 701: .real
        case 16: .boolean
        default: .text
        }
    }
}
