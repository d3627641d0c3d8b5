import CSQLite
import Foundation
import Synchronization

/// One connection to a SQLite file, with a prepared-statement cache and transactions.
///
/// Writable connections use WAL (readers never block the writer), wait up to
/// `busyTimeoutMilliseconds` for another process's lock instead of failing,
/// and enforce foreign keys. Every failure throws ``SQLiteError`` with SQLite's
/// extended code, its message and the SQL.
///
/// A `Database` is used from one thread at a time (it is not `Sendable`).
///
///     let db = try Database(path: "/tmp/books.sqlite")
///     try db.execute("CREATE TABLE IF NOT EXISTS book(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
///     try db.transaction {
///         try db.run("INSERT INTO book(name) VALUES (?)", [.text("Dune")])
///     }
///     let count = try db.scalar("SELECT count(*) FROM book").int64 // 1
public final class Database {
    /// How to open the file.
    public struct Options: Sendable {
        /// Open with SQLITE_OPEN_READONLY: no writes, no WAL switch, no file created.
        public var readOnly = false
        /// Create the file when missing (ignored when read-only).
        public var create = true
        /// How long to wait for another connection's lock before SQLITE_BUSY.
        public var busyTimeoutMilliseconds = 5000
        /// Switch a writable connection to WAL journal mode.
        public var walMode = true
        /// Let the last connection to a WAL file checkpoint it and remove its `-wal` when it
        /// closes (SQLite's default). False leaves the `-wal` and the main file as they are
        /// unless this connection wrote: for another program's file that has frames not yet
        /// checkpointed, which merely reading must not move into the main file.
        package var checkpointsOnClose = true
        /// The defaults: read-write, created when missing.
        public init() {}
    }

    /// The file path as given.
    public let path: String
    /// The raw connection handle (for this module's helpers).
    let handle: OpaquePointer
    private var cache: [String: Statement] = [:]
    /// What the connection's progress handler reads: whether to stop (``interruptUntilResumed()``)
    /// and whom to tell of the steps (``observingSteps(_:_:)``).
    private let stepHandler = StepHandler()

    /// The state the connection's progress handler reads (on the thread running a statement).
    final class StepHandler: @unchecked Sendable {
        private let stopRequested = Atomic<Bool>(false)
        /// Set and read only on the thread that runs the connection's statements.
        var observer: (() -> Void)?
        func setStopRequested(_ on: Bool) { stopRequested.store(on, ordering: .releasing) }
        /// The progress handler's answer: nonzero stops the statement.
        func step() -> Int32 {
            if stopRequested.load(ordering: .acquiring) { return 1 }
            observer?()
            return 0
        }
    }
    /// Beyond this many cached statements, idle ones are dropped.
    static let cacheLimit = 512
    private var transactionDepth = 0
    /// For each open transaction level, outermost first: what to call when it is known whether
    /// the writes made in it last (``onTransactionEnd(_:)``).
    private var endHandlers: [[(Bool) -> Void]] = []

    /// Opens (or creates) the database at `path`.
    public convenience init(path: String, options: Options = Options()) throws {
        var flags = options.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if !options.readOnly && options.create { flags |= SQLITE_OPEN_CREATE }
        try self.init(filename: path, displayPath: path, flags: flags, options: options)
    }

    /// Opens a `file:` URI (used to inspect a file read-only, e.g. with `immutable=1`).
    convenience init(uri: String, path: String, options: Options) throws {
        var flags = (options.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_URI
        if !options.readOnly && options.create { flags |= SQLITE_OPEN_CREATE }
        try self.init(filename: uri, displayPath: path, flags: flags, options: options)
    }

    /// SQLite's process-wide settings, made once before the process's first connection (SQLite
    /// accepts them only then):
    /// - the global memory statistics off: with them on, every allocation of every connection
    ///   takes one global mutex to count itself; nothing here reads the counts;
    /// - the sorter's smallest run 32 pages instead of 250 (4 MB with 16 KB pages), so that a
    ///   connection's `cache_size` sets it: a bulk load builds its indexes with runs that fit in
    ///   the CPU's cache (`EmptyStoreLoad`; the unique index of 200,000 random integers took
    ///   0.18 s with 4 MB runs, 0.12 s with 512 KB ones). A connection with the default cache
    ///   (2 MB) sorts in 2 MB runs.
    private static let processConfiguration: Void = {
        _ = csqlite_config_int(SQLITE_CONFIG_MEMSTATUS, 0)
        _ = csqlite_config_int(SQLITE_CONFIG_PMASZ, 32)
    }()

    private init(filename: String, displayPath: String, flags: Int32, options: Options) throws {
        _ = Database.processConfiguration
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(filename, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let error = SQLiteError(connection: db, code: db.map { sqlite3_extended_errcode($0) } ?? rc, sql: nil)
            sqlite3_close_v2(db)
            throw SQLiteError(
                code: error.code,
                message: "\(error.message): \(displayPath)",
                sql: nil,
                systemErrno: error.systemErrno
            )
        }
        self.handle = db
        self.path = displayPath
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, Int32(options.busyTimeoutMilliseconds))
        // Every 1,000 virtual-machine steps (a few rows): stop when interruptUntilResumed() asked.
        sqlite3_progress_handler(
            db,
            1000,
            { context in Unmanaged<StepHandler>.fromOpaque(context!).takeUnretainedValue().step() },
            Unmanaged.passUnretained(stepHandler).toOpaque()
        )
        checkpointsOnClose = options.checkpointsOnClose
        if !options.checkpointsOnClose {
            var now: Int32 = 0
            csqlite_db_config_int(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, &now)
        }
        do {
            try execute("PRAGMA foreign_keys = ON")
            if !options.readOnly && options.walMode && sqlite3_db_readonly(db, "main") == 0 {
                try enterWAL()
            }
        } catch {
            cache.removeAll()
            sqlite3_close_v2(db)
            throw error
        }
    }

    /// Switches the file to WAL (an in-memory or special file may refuse it; that is fine) with
    /// `synchronous = NORMAL`, which WAL makes safe. Outside any transaction.
    package func enterWAL() throws {
        _ = try scalar("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
    }

    deinit {
        cache.removeAll()
        if !checkpointsOnClose && (hasCommittedWrite || sqlite3_total_changes64(handle) > 0) {
            // This connection wrote: the file is changed anyway, so it is checkpointed as SQLite does.
            var now: Int32 = 0
            csqlite_db_config_int(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, &now)
        }
        sqlite3_close_v2(handle)
    }

    /// Whether `Options/checkpointsOnClose` was set.
    private let checkpointsOnClose: Bool
    /// Set when a write transaction (``transaction(_:)`` at the outermost level) committed.
    private var hasCommittedWrite = false

    /// Makes the statement running on this connection (on whatever thread)
    /// stop soon with `SQLITE_INTERRUPT`; safe to call from another thread
    /// while the connection is open. Used to stop long background reads.
    ///
    ///     reader.interrupt()   // the other thread's step() throws SQLiteError (code 9)
    public func interrupt() { sqlite3_interrupt(handle) }

    /// Like ``interrupt()``, and every statement that starts afterwards stops too (`SQLITE_INTERRUPT`)
    /// until ``resume()``: a request that comes just before the other thread's statement starts
    /// is not lost (`sqlite3_interrupt` alone does nothing while no statement runs).
    ///
    ///     reader.interruptUntilResumed()   // the background job's query throws, whenever it starts
    ///     …
    ///     reader.resume()                  // before the connection's next user runs anything
    package func interruptUntilResumed() {
        stepHandler.setStopRequested(true)
        sqlite3_interrupt(handle)
    }

    /// Ends `interruptUntilResumed()`: statements run again.
    package func resume() { stepHandler.setStopRequested(false) }

    /// Runs `body` with `observer` called every 1,000 virtual-machine steps of the statements it
    /// runs (a few rows each), on this thread, between steps: it may read the connection's state
    /// (``lastInsertRowID``), not run a statement.
    ///
    ///     try database.observingSteps({ report(database.lastInsertRowID) }) { _ = try insert.step() }
    package func observingSteps<T>(_ observer: @escaping () -> Void, _ body: () throws -> T) rethrows -> T {
        stepHandler.observer = observer
        defer { stepHandler.observer = nil }
        return try body()
    }

    /// True when the connection cannot write (opened read-only, or the file is not writable).
    public var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    private func error(_ rc: Int32, sql: String?) -> SQLiteError {
        let ext = sqlite3_extended_errcode(handle)
        return SQLiteError(connection: handle, code: ext != 0 ? ext : rc, sql: sql)
    }

    // MARK: Running SQL

    /// Runs one or more statements that take no arguments (schema scripts, pragmas).
    public func execute(_ sql: String) throws {
        var errmsg: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errmsg)
        if rc != SQLITE_OK {
            let message = errmsg.map { String(cString: $0) }
            sqlite3_free(errmsg)
            let ext = sqlite3_extended_errcode(handle)
            let code = ext != 0 ? ext : rc
            let primary = code & 0xFF
            let errno =
                primary == SQLITE_IOERR || primary == SQLITE_FULL || primary == SQLITE_CANTOPEN
                ? sqlite3_system_errno(handle) : 0
            throw SQLiteError(
                code: code,
                message: message ?? String(cString: sqlite3_errstr(rc)),
                sql: sql,
                systemErrno: errno
            )
        }
    }

    /// Runs one statement (from the cache) with arguments, ignoring result rows.
    public func run(_ sql: String, _ arguments: [StoreValue] = []) throws {
        let stmt = try statement(sql)
        defer { stmt.reset() }
        try stmt.bind(arguments)
        while try stmt.step() {}
    }

    /// Runs a query and returns all rows as values.
    public func query(_ sql: String, _ arguments: [StoreValue] = []) throws -> [[StoreValue]] {
        var rows: [[StoreValue]] = []
        try forEachRow(sql, arguments) { rows.append($0.row()) }
        return rows
    }

    /// The first column of the first row, `.null` when there is no row.
    public func scalar(_ sql: String, _ arguments: [StoreValue] = []) throws -> StoreValue {
        let stmt = try statement(sql)
        defer { stmt.reset() }
        try stmt.bind(arguments)
        return try stmt.step() ? stmt.value(at: 0) : .null
    }

    /// Calls `body` for each result row; the statement is only valid inside `body`.
    ///
    ///     try db.forEachRow("SELECT id, name FROM book ORDER BY name") { row in
    ///         print(row.int64(at: 0), row.text(at: 1))
    ///     }
    public func forEachRow(_ sql: String, _ arguments: [StoreValue] = [], _ body: (Statement) throws -> Void) throws {
        let stmt = try statement(sql)
        defer { stmt.reset() }
        try stmt.bind(arguments)
        while try stmt.step() { try body(stmt) }
    }

    /// A prepared statement for `sql`, from the cache, reset and unbound.
    ///
    /// When the cached statement is still being stepped by someone (a nested
    /// query with the same SQL), a fresh statement replaces it in the cache.
    public func statement(_ sql: String) throws -> Statement {
        if let cached = cache[sql] {
            if !cached.isBusy {
                sqlite3_clear_bindings(cached.handle)
                return cached
            }
        }
        let stmt = try Statement(connection: handle, sql: sql, persistent: true)
        if cache.count >= Database.cacheLimit {
            // Ad-hoc SQL (fetches with literal values) must not grow the cache forever.
            cache = cache.filter { $0.value.isBusy }
        }
        cache[sql] = stmt
        return stmt
    }

    /// A statement outside the cache (for one-off SQL that should not stay prepared).
    package func uncachedStatement(_ sql: String) throws -> Statement {
        try Statement(connection: handle, sql: sql, persistent: false)
    }

    /// Drops all cached statements (needed before schema changes in some SQLite versions; cheap).
    package func clearStatementCache() {
        cache.removeAll()
    }

    // MARK: Transactions

    /// True while inside ``transaction(_:)``.
    public var isInTransaction: Bool { transactionDepth > 0 }

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE` at the outermost level, a
    /// `SAVEPOINT` when nested. A throw rolls back this level only and rethrows.
    ///
    ///     try db.transaction {
    ///         try db.run("INSERT INTO book(name) VALUES ('A')")
    ///         try? db.transaction { try db.run("INSERT INTO nope VALUES (1)") } // only this level rolls back
    ///     }
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        let depth = transactionDepth
        let savepoint = "sp\(depth)"
        if depth == 0 {
            try execute(isReadOnly ? "BEGIN DEFERRED" : "BEGIN IMMEDIATE")
        } else {
            try execute("SAVEPOINT \(savepoint)")
        }
        transactionDepth += 1
        endHandlers.append([])
        let result: T
        do {
            result = try body()
        } catch {
            transactionDepth -= 1
            if depth == 0 {
                try? execute("ROLLBACK")
            } else {
                try? execute("ROLLBACK TO \(savepoint)")
                try? execute("RELEASE \(savepoint)")
            }
            endLevel(committed: false)
            throw error
        }
        transactionDepth -= 1
        if depth == 0 {
            do { try execute("COMMIT") } catch {
                try? execute("ROLLBACK")
                endLevel(committed: false)
                throw error
            }
            if !isReadOnly { hasCommittedWrite = true }
            endLevel(committed: true)
        } else {
            // Released or not, the level's writes now stand or fall with the level around it.
            defer { endLevel(committed: true) }
            try execute("RELEASE \(savepoint)")
        }
        return result
    }

    /// Calls `handler` once it is known whether what was written so far in the open transaction
    /// lasts: with true after the outermost transaction commits, with false as soon as the
    /// level open now rolls back (the outermost transaction, or a savepoint around the writes);
    /// at once with true outside a transaction. For what is kept in memory about the writes —
    /// a context's saved state, its undo stack — and must follow the file.
    ///
    ///     try db.transaction {
    ///         try db.run("INSERT INTO book(name) VALUES ('Dune')")
    ///         db.onTransactionEnd { committed in if !committed { cache.removeAll() } }
    ///     }
    package func onTransactionEnd(_ handler: @escaping (_ committed: Bool) -> Void) {
        guard !endHandlers.isEmpty else { return handler(true) }
        endHandlers[endHandlers.count - 1].append(handler)
    }

    /// Ends the innermost level's handlers: a committed savepoint hands them to the level
    /// around it; the outermost commit calls them in order, a rollback in reverse order.
    private func endLevel(committed: Bool) {
        guard let handlers = endHandlers.popLast() else { return }
        if committed, !endHandlers.isEmpty {
            endHandlers[endHandlers.count - 1] += handlers
        } else if committed {
            for handler in handlers { handler(true) }
        } else {
            for handler in handlers.reversed() { handler(false) }
        }
    }

    /// Runs `body` in a read transaction (`BEGIN DEFERRED`) so that several
    /// queries see one consistent snapshot; inside a transaction it just runs `body`.
    ///
    ///     let (count, newest) = try db.read { (try db.scalar("SELECT count(*) FROM t"), try db.scalar("SELECT max(id) FROM t")) }
    public func read<T>(_ body: () throws -> T) throws -> T {
        if transactionDepth > 0 { return try body() }
        try execute("BEGIN DEFERRED")
        transactionDepth += 1
        endHandlers.append([])
        let result: T
        do { result = try body() } catch {
            transactionDepth -= 1
            try? execute("ROLLBACK")
            endLevel(committed: false)
            throw error
        }
        transactionDepth -= 1
        do { try execute("COMMIT") } catch {
            try? execute("ROLLBACK")
            endLevel(committed: false)
            throw error
        }
        endLevel(committed: true)
        return result
    }

    // MARK: Connection state

    /// Row id of the last successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// `PRAGMA data_version`: changes whenever *another* connection commits.
    public func dataVersion() throws -> Int64 {
        try scalar("PRAGMA data_version").int64 ?? 0
    }

    /// `PRAGMA user_version`, the schema version.
    public func userVersion() throws -> Int {
        Int(try scalar("PRAGMA user_version").int64 ?? 0)
    }

    /// Sets `PRAGMA user_version`.
    public func setUserVersion(_ v: Int) throws {
        try execute("PRAGMA user_version = \(v)")
    }

    /// `PRAGMA application_id`.
    public func applicationID() throws -> Int32 {
        Int32(truncatingIfNeeded: try scalar("PRAGMA application_id").int64 ?? 0)
    }

    /// Sets `PRAGMA application_id`.
    public func setApplicationID(_ id: Int32) throws {
        try execute("PRAGMA application_id = \(id)")
    }

    /// Quotes an identifier for SQL ("name" with inner quotes doubled).
    public static func quote(identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Quotes a text literal for SQL ('text' with inner quotes doubled).
    public static func quote(literal: String) -> String {
        "'" + literal.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
