import CSQLite

/// A prepared SQL statement: bind arguments, step through rows, read columns.
///
/// Bind indexes are 1-based and column indexes 0-based, as in SQLite. Reading
/// does not allocate except for `text(at:)`/`value(at:)` results, so a loop over
/// a million rows stays cheap. Statements come from ``Database/statement(_:)``
/// (cached) and are reused after ``reset()``.
///
///     let insert = try db.statement("INSERT INTO book(name, pages) VALUES (?, ?)")
///     try insert.bind("Dune", at: 1)
///     try insert.bind(Int64(57_046), at: 2)
///     _ = try insert.step()
///     insert.reset()
public final class Statement {
    /// The underlying handle; valid for the statement's lifetime.
    public let handle: OpaquePointer
    /// The SQL text as prepared.
    public let sql: String
    let connection: OpaquePointer

    init(connection: OpaquePointer, sql: String, persistent: Bool) throws {
        var stmt: OpaquePointer?
        let flags: UInt32 = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let rc = sqlite3_prepare_v3(connection, sql, -1, flags, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            if let stmt { sqlite3_finalize(stmt) }
            throw SQLiteError(
                connection: connection,
                code: sqlite3_extended_errcode(connection) != 0 ? sqlite3_extended_errcode(connection) : rc,
                sql: sql
            )
        }
        self.handle = stmt
        self.sql = sql
        self.connection = connection
    }

    /// A statement already prepared on `connection` (``Database/prepareReadOnlyQuery(_:)`` prepares it itself).
    init(prepared handle: OpaquePointer, connection: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    @inline(__always) private func check(_ rc: Int32) throws {
        if rc != SQLITE_OK {
            throw SQLiteError(connection: connection, code: sqlite3_extended_errcode(connection), sql: sql)
        }
    }

    // MARK: Binding

    /// Binds any store value.
    public func bind(_ value: StoreValue, at index: Int32) throws {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let v): try bind(v, at: index)
        case .real(let d): try bind(d, at: index)
        case .text(let s): try bind(s, at: index)
        case .blob(let b): try bind(bytes: b, at: index)
        }
    }

    /// Binds an integer.
    @inlinable public func bind(_ value: Int64, at index: Int32) throws {
        try checkBind(sqlite3_bind_int64(handle, index, value))
    }

    /// Binds a real.
    @inlinable public func bind(_ value: Double, at index: Int32) throws {
        try checkBind(sqlite3_bind_double(handle, index, value))
    }

    /// Binds text (copied).
    public func bind(_ value: String, at index: Int32) throws {
        var value = value
        let rc = value.withUTF8 { p in bindText(UnsafeRawBufferPointer(p), at: index) }
        try checkBind(rc)
    }

    /// Binds UTF-8 text straight from a buffer (copied by SQLite); the importers' fast path.
    public func bind(utf8 bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        try checkBind(bindText(bytes, at: index))
    }

    /// Binds UTF-8 text WITHOUT copying it (SQLITE_STATIC): the bytes must stay
    /// valid and unchanged until the statement has been stepped and reset.
    /// The bulk importer's hot path: it saves a malloc, a copy and a free per field.
    ///
    ///     try buffer.withUnsafeBytes { try insert.bind(utf8NoCopy: $0, at: 1) }   // step and reset inside
    public func bind(utf8NoCopy bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        try checkBind(bindText(bytes, at: index, destructor: csqlite_static()))
    }

    /// Binds text; an empty buffer binds '' (not NULL).
    @inline(__always) private func bindText(
        _ bytes: UnsafeRawBufferPointer,
        at index: Int32,
        destructor: sqlite3_destructor_type? = csqlite_transient()
    ) -> Int32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            return sqlite3_bind_text(handle, index, "", 0, csqlite_static())
        }
        return sqlite3_bind_text(
            handle,
            index,
            base.assumingMemoryBound(to: CChar.self),
            Int32(bytes.count),
            destructor
        )
    }

    /// Binds a blob (copied).
    public func bind(bytes: [UInt8], at index: Int32) throws {
        let rc = bytes.withUnsafeBytes { p in
            // A zero-length blob needs a non-NULL pointer, or SQLite binds NULL.
            p.count == 0
                ? sqlite3_bind_zeroblob(handle, index, 0)
                : sqlite3_bind_blob(handle, index, p.baseAddress, Int32(p.count), csqlite_transient())
        }
        try checkBind(rc)
    }

    /// Binds SQL NULL.
    public func bindNull(at index: Int32) throws {
        try checkBind(sqlite3_bind_null(handle, index))
    }

    /// Binds values to parameters 1...n.
    public func bind(_ values: [StoreValue]) throws {
        let expected = sqlite3_bind_parameter_count(handle)
        guard Int(expected) == values.count else {
            throw SQLiteError(
                code: SQLITE_RANGE,
                message: "expected \(expected) arguments, got \(values.count)",
                sql: sql
            )
        }
        for (i, v) in values.enumerated() { try bind(v, at: Int32(i + 1)) }
    }

    @usableFromInline func checkBind(_ rc: Int32) throws {
        if rc != SQLITE_OK {
            throw SQLiteError(
                connection: connection,
                code: rc == SQLITE_RANGE ? rc : sqlite3_extended_errcode(connection),
                sql: sql
            )
        }
    }

    // MARK: Stepping

    /// Advances to the next row: true when a row is available, false when done.
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let code = sqlite3_extended_errcode(connection)
        let error = SQLiteError(connection: connection, code: code != 0 ? code : rc, sql: sql)
        sqlite3_reset(handle)
        throw error
    }

    /// Resets the statement and clears its bindings, ready to run again.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// True while the statement has been stepped and not yet reset or finished.
    public var isBusy: Bool { sqlite3_stmt_busy(handle) != 0 }

    // MARK: Reading

    /// Number of result columns.
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// Name of a result column.
    public func columnName(at index: Int32) -> String { String(cString: sqlite3_column_name(handle, index)) }

    /// The column as an integer (0 for NULL; text is converted as SQLite does).
    @inlinable public func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }
    /// The column as a real (0 for NULL).
    @inlinable public func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }
    /// True when the column is NULL.
    @inlinable public func isNull(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }
    /// True when the column holds TEXT (its storage class; nothing is converted).
    ///
    ///     if row.isText(at: 1) { row.withUTF8(at: 1) { bytes in … } }
    @inlinable public func isText(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_TEXT }

    /// Text of a column ("" for NULL); one String allocation, no intermediate copies.
    public func text(at index: Int32) -> String {
        guard let p = sqlite3_column_text(handle, index) else { return "" }
        let n = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// Calls `body` with the column's UTF-8 bytes without copying them (valid only inside `body`).
    public func withUTF8<R>(at index: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        guard let p = sqlite3_column_text(handle, index) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        let n = Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeRawBufferPointer(start: p, count: n))
    }

    /// The column's UTF-8 bytes when it holds TEXT, nil for any other storage class (nothing is
    /// converted, nothing copied); valid until the statement steps, resets or is finalized. For loops
    /// over millions of rows, where a closure per row (``withUTF8(at:_:)``) shows.
    ///
    ///     if let bytes = row.textBytes(at: 1), bytes.count >= 4 { … }
    ///
    /// One `sqlite3_column_value` and three reads of that value, where three `sqlite3_column_*` calls
    /// would each look the column up again and check the connection's error state. ``Database``
    /// opens every connection with `SQLITE_OPEN_NOMUTEX`, SQLite's multi-thread mode, in which it
    /// makes no distinction between protected and unprotected values, so the column's value may be
    /// read directly. `sqlite3_value_blob` gives a text's bytes as stored (no conversion; NULL for
    /// empty text).
    @inlinable package func textBytes(at index: Int32) -> UnsafeRawBufferPointer? {
        guard let value = sqlite3_column_value(handle, index), sqlite3_value_type(value) == SQLITE_TEXT else {
            return nil
        }
        let p = sqlite3_value_blob(value)
        return UnsafeRawBufferPointer(start: p, count: Int(sqlite3_value_bytes(value)))
    }

    /// Bytes of a blob column ([] for NULL).
    public func bytes(at index: Int32) -> [UInt8] {
        guard let p = sqlite3_column_blob(handle, index) else { return [] }
        let n = Int(sqlite3_column_bytes(handle, index))
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }

    /// The column's value in its storage class.
    public func value(at index: Int32) -> StoreValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: return .text(text(at: index))
        case SQLITE_BLOB: return .blob(bytes(at: index))
        default: return .null
        }
    }

    /// All columns of the current row.
    public func row() -> [StoreValue] {
        let n = columnCount
        var r = [StoreValue]()
        r.reserveCapacity(Int(n))
        for i in 0..<n { r.append(value(at: i)) }
        return r
    }
}
