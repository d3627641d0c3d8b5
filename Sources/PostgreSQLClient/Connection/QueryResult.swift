import CLibPQ

/// The rows of one statement, held in libpq's own memory and decoded on
/// demand: a million ids cost what libpq stores, not a million Swift values.
///
/// A result is immutable and may be read from any thread.
///
///     let result = try connection.query("SELECT id, title FROM book WHERE language = $1", ["en"])
///     for row in 0..<result.rowCount {
///         print(result[row, 0].displayText, result[row, 1].displayText)
///     }
public final class QueryResult: @unchecked Sendable {
    /// A column of a result: its name and its type's OID.
    public struct Column: Hashable, Sendable {
        /// The column's name (or alias).
        public let name: String
        /// The OID of the column's type (`pg_type.oid`): 20 for `bigint`, 25 for `text`…
        public let typeOID: UInt32
        /// The OID of the table the column is read from when it is a plain reference to a
        /// table's column (libpq's `PQftable`), 0 for an expression.
        public var tableOID: UInt32 = 0
        /// The number of that table column (`pg_attribute.attnum`, `PQftablecol`), 0 for an expression.
        public var tableColumn: Int = 0
    }

    private let handle: OpaquePointer
    /// The columns, in order.
    public let columns: [Column]
    /// How many rows there are.
    public let rowCount: Int
    /// How many rows an INSERT, UPDATE, DELETE (…) changed; nil for other statements.
    public let affectedRowCount: Int?

    init(handle: OpaquePointer) {
        self.handle = handle
        rowCount = Int(PQntuples(handle))
        columns = (0..<PQnfields(handle)).map { index in
            Column(
                name: String(cString: PQfname(handle, index)),
                typeOID: PQftype(handle, index),
                tableOID: PQftable(handle, index),
                tableColumn: Int(PQftablecol(handle, index))
            )
        }
        let affected = String(cString: PQcmdTuples(handle))
        affectedRowCount = affected.isEmpty ? nil : Int(affected)
    }

    deinit { PQclear(handle) }

    /// The value at `row`, `column` (both from 0), decoded by the column's type.
    public subscript(row: Int, column: Int) -> PostgresValue {
        guard let text = text(row: row, column: column) else { return .null }
        return .decode(text: text, type: columns[column].typeOID)
    }

    /// The value at `row` of the column named `name`, or nil when there is no such column.
    public subscript(row: Int, name: String) -> PostgresValue? {
        columns.firstIndex { $0.name == name }.map { self[row, $0] }
    }

    /// The server's text for the value at `row`, `column`; nil for NULL.
    public func text(row: Int, column: Int) -> String? {
        let r = Int32(row)
        let c = Int32(column)
        if PQgetisnull(handle, r, c) == 1 { return nil }
        return String(cString: PQgetvalue(handle, r, c))
    }

    /// The server's text for the value at `row`, `column` as bytes in libpq's memory, without a
    /// copy (valid as long as the result), or nil for NULL: the fast path for reading many rows.
    public func textBytes(row: Int, column: Int) -> UnsafeRawBufferPointer? {
        let r = Int32(row)
        let c = Int32(column)
        if PQgetisnull(handle, r, c) == 1 { return nil }
        return UnsafeRawBufferPointer(start: PQgetvalue(handle, r, c), count: Int(PQgetlength(handle, r, c)))
    }

    /// Whether ``text(row:column:)`` holds the server's bytes exactly: NULL, or valid UTF-8.
    /// A `SQL_ASCII` database sends its bytes unconverted, and bytes that are not UTF-8 are read
    /// with U+FFFD in their place — a value that must not be written back.
    package func textIsExact(row: Int, column: Int) -> Bool {
        let r = Int32(row)
        let c = Int32(column)
        if PQgetisnull(handle, r, c) == 1 { return true }
        return String(validatingCString: PQgetvalue(handle, r, c)) != nil
    }

    /// The value at `row`, `column` as an integer without making a string:
    /// the fast path for reading many keys. Nil for NULL or a non-integer.
    public func int64(row: Int, column: Int) -> Int64? {
        let r = Int32(row)
        let c = Int32(column)
        if PQgetisnull(handle, r, c) == 1 { return nil }
        var pointer = PQgetvalue(handle, r, c)!
        var negative = false
        if pointer.pointee == 45 {  // "-"
            negative = true
            pointer += 1
        }
        var value: Int64 = 0
        var digits = 0
        while pointer.pointee >= 48 && pointer.pointee <= 57 {
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int64(pointer.pointee - 48))
            if overflowTimes || overflowSum { return text(row: row, column: column).flatMap { Int64($0) } }
            value = sum
            digits += 1
            pointer += 1
        }
        guard digits > 0, pointer.pointee == 0 else { return nil }
        return negative ? -value : value
    }

    /// Every row, decoded.
    public var rows: [[PostgresValue]] {
        (0..<rowCount).map { row in (0..<columns.count).map { self[row, $0] } }
    }
}
