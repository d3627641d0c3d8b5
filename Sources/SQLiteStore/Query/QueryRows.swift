import CSQLite

/// One value of a query's current row as its source holds it, without a copy: text and blobs
/// are bytes valid until the row advances.
package enum QueryField {
    /// SQL NULL.
    case null
    /// An integer.
    case integer(Int64)
    /// A real.
    case real(Double)
    /// UTF-8 text.
    case text(UnsafeRawBufferPointer)
    /// Bytes.
    case blob(UnsafeRawBufferPointer)

    /// The value, copied.
    package var value: StoreValue {
        switch self {
        case .null: .null
        case .integer(let value): .integer(value)
        case .real(let value): .real(value)
        case .text(let bytes): .text(String(decoding: bytes, as: UTF8.self))
        case .blob(let bytes): .blob(Array(bytes))
        }
    }
}

/// The rows of one run of a query, one at a time, as ``QueryResultTable`` reads them: from a
/// SQLite statement (``StatementRows``), from another server's result, or from values.
///
/// `next()` moves to the next row (false after the last); `field(_:)` is the current row's
/// value of a column, valid until `next()` is called again. `rowsRead` counts the rows so far
/// (for progress).
package protocol QueryRows: AnyObject {
    /// How many columns each row has.
    var columnCount: Int { get }
    /// Moves to the next row; false when there is none.
    func next() throws -> Bool
    /// The current row's value of column `index`.
    func field(_ index: Int) -> QueryField
    /// Whether every value reads back from a ``QueryResultTable`` as it is read here (its column's
    /// declared type keeps it as it is): the first run's rows are then only written, their index
    /// read back from the table after it (``QueryResultTable/buildIndex()``). False unless said.
    var readsBackAsWritten: Bool { get }
    /// How many rows after its own a row's text and blob bytes stay valid at least (0: until
    /// `next()`): a ``QueryResultTable`` binds them without a copy when they outlast its statement.
    var bytesOutlastRows: Int { get }
}

extension QueryRows {
    package var readsBackAsWritten: Bool { false }
    package var bytesOutlastRows: Int { 0 }
}

/// The rows of a prepared SQLite statement, stepped as they are read.
package final class StatementRows: QueryRows {
    let statement: Statement
    package let columnCount: Int

    /// The rows of `statement` (bound, not stepped yet).
    package init(_ statement: Statement) {
        self.statement = statement
        columnCount = Int(statement.columnCount)
    }

    package func next() throws -> Bool { try statement.step() }

    @inline(__always)
    package func field(_ index: Int) -> QueryField {
        let handle = statement.handle
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            let pointer = sqlite3_column_text(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            return .text(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
        case SQLITE_BLOB:
            let pointer = sqlite3_column_blob(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            return .blob(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
        default: return .null
        }
    }
}

/// Rows given as values (a test's, or another source's already decoded).
package final class ValueRows: QueryRows {
    private let rows: [[StoreValue]]
    private var index = -1
    /// The current row's texts and blobs, as bytes that stay put until the next row.
    private var bytes: [UnsafeMutableRawBufferPointer] = []
    package let columnCount: Int

    /// The rows `rows`, each of `columnCount` values.
    package init(_ rows: [[StoreValue]], columnCount: Int) {
        self.rows = rows
        self.columnCount = columnCount
    }

    deinit { freeBytes() }

    private func freeBytes() {
        for buffer in bytes { buffer.deallocate() }
        bytes = []
    }

    package func next() throws -> Bool {
        freeBytes()
        index += 1
        guard index < rows.count else { return false }
        bytes = rows[index].map { value in
            func copy(_ source: some Collection<UInt8>) -> UnsafeMutableRawBufferPointer {
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, source.count), alignment: 8)
                buffer.copyBytes(from: source)
                return UnsafeMutableRawBufferPointer(rebasing: buffer[0..<source.count])
            }
            switch value {
            case .text(let text): return copy(Array(text.utf8))
            case .blob(let blob): return copy(blob)
            default: return UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 8)
            }
        }
        return true
    }

    package func field(_ column: Int) -> QueryField {
        switch rows[index][column] {
        case .null: return .null
        case .integer(let value): return .integer(value)
        case .real(let value): return .real(value)
        case .text: return .text(UnsafeRawBufferPointer(bytes[column]))
        case .blob: return .blob(UnsafeRawBufferPointer(bytes[column]))
        }
    }
}

extension StoreValue {
    /// Calls `body` with the value as a field (text and blobs as their bytes, valid inside `body`).
    package func withField<R>(_ body: (QueryField) throws -> R) rethrows -> R {
        switch self {
        case .null: return try body(.null)
        case .integer(let value): return try body(.integer(value))
        case .real(let value): return try body(.real(value))
        case .text(var text): return try text.withUTF8 { try body(.text(UnsafeRawBufferPointer($0))) }
        case .blob(let bytes): return try bytes.withUnsafeBytes { try body(.blob($0)) }
        }
    }
}

extension Statement {
    /// Binds a field (text and blobs copied by SQLite).
    @inline(__always)
    package func bind(field: QueryField, at index: Int32, copying: Bool = true) throws {
        let rc: Int32
        switch field {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let value): rc = sqlite3_bind_int64(handle, index, value)
        case .real(let value): rc = sqlite3_bind_double(handle, index, value)
        case .text(let bytes):
            // Text of no bytes is '', not NULL: SQLite copies the literal's empty string.
            if let base = bytes.baseAddress, !bytes.isEmpty {
                rc = sqlite3_bind_text(
                    handle,
                    index,
                    base.assumingMemoryBound(to: CChar.self),
                    Int32(bytes.count),
                    copying ? csqlite_transient() : csqlite_static()
                )
            } else {
                rc = sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
            }
        case .blob(let bytes):
            rc =
                bytes.isEmpty
                ? sqlite3_bind_zeroblob(handle, index, 0)
                : sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), csqlite_transient())
        }
        try checkBind(rc)
    }
}
