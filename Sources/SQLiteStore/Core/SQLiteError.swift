import CSQLite

/// An error reported by SQLite, with what is needed to understand it.
///
/// `code` is SQLite's *extended* result code (e.g. `SQLITE_CONSTRAINT_UNIQUE`
/// = 2067), `message` is `sqlite3_errmsg`, and `sql` the statement that failed (in
/// ``debugDescription``, never in the ``description`` a message prints).
///
///     do { try db.run("INSERT INTO t(id) VALUES (1)") }
///     catch let error as SQLiteError where error.isConstraint { … }
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// SQLite's extended result code.
    public let code: Int32
    /// SQLite's message (`sqlite3_errmsg`), or our own for misuse detected in Swift.
    public let message: String
    /// The SQL text being prepared or run, when there was one.
    public let sql: String?
    /// The operating system's `errno` behind an I/O failure (`sqlite3_system_errno`), 0 when none
    /// or unknown: tells a full disk (`ENOSPC`), a file-size limit (`EFBIG`) or a quota (`EDQUOT`)
    /// from other `SQLITE_IOERR_*` failures.
    public let systemErrno: Int32

    /// An error with SQLite's result code, its message, and the SQL that failed.
    public init(code: Int32, message: String, sql: String? = nil, systemErrno: Int32 = 0) {
        self.code = code
        self.message = message
        self.sql = sql
        self.systemErrno = systemErrno
    }

    /// Builds an error from a connection's current error state.
    init(connection: OpaquePointer?, code: Int32, sql: String?) {
        var msg = String(cString: sqlite3_errstr(code))
        if let connection, let m = sqlite3_errmsg(connection) {
            let s = String(cString: m)
            if !s.isEmpty && s != "not an error" { msg = s }
        }
        let primary = code & 0xFF
        let errno =
            primary == SQLITE_IOERR || primary == SQLITE_FULL || primary == SQLITE_CANTOPEN
            ? connection.map { sqlite3_system_errno($0) } ?? 0 : 0
        self.init(code: code, message: msg, sql: sql, systemErrno: errno)
    }

    /// The primary result code (`code & 0xFF`), e.g. `SQLITE_CONSTRAINT`.
    public var primaryCode: Int32 { code & 0xFF }

    /// True for SQLITE_BUSY / SQLITE_LOCKED (another connection holds the lock past the busy timeout).
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// True for a constraint violation (UNIQUE, NOT NULL, FOREIGN KEY, CHECK).
    public var isConstraint: Bool { primaryCode == SQLITE_CONSTRAINT }

    /// True when the file is not a SQLite database (SQLITE_NOTADB).
    public var isNotADatabase: Bool { primaryCode == SQLITE_NOTADB }

    /// True when the database file is damaged (SQLITE_CORRUPT).
    public var isCorrupt: Bool { primaryCode == SQLITE_CORRUPT }

    /// True for a write refused because the connection or file is read-only (SQLITE_READONLY).
    public var isReadOnly: Bool { primaryCode == SQLITE_READONLY }

    /// True when SQLite could not open the file (SQLITE_CANTOPEN).
    public var isCannotOpen: Bool { primaryCode == SQLITE_CANTOPEN }

    /// True for work stopped by `Database.interrupt()` (SQLITE_INTERRUPT).
    public var isInterrupted: Bool { primaryCode == SQLITE_INTERRUPT }

    /// `SQLite error 1: too many columns in result set`: what a person may read. The statement is
    /// left out (a SELECT of two thousand columns is 19 KB); ``debugDescription`` has it.
    public var description: String {
        "SQLite error \(code): \(message)"
    }
}

extension SQLiteError: CustomDebugStringConvertible {
    /// ``description`` and the statement that failed, for logs and test failures.
    public var debugDescription: String {
        var s = description
        if let sql { s += " (SQL: \(sql))" }
        return s
    }
}
