import CSVImport
import SQLiteStore

/// Imports FDIC Failed Bank List CSV files into a failedbanks store.
///
/// Banks are matched by cert (the FDIC's stable key): a new cert adds a bank,
/// a known one is updated only where a value differs, so re-importing a file
/// writes nothing. One file is one transaction. By default it is
/// all-or-nothing: any bad row (wrong number of fields, a bad date or number,
/// a missing name or cert, a cert repeated within the file) aborts the file
/// with ``BankImportError/badRows(path:issues:total:)`` and the store is left
/// as it was; with ``Options/skipBadRows`` the good rows are imported and the
/// bad ones reported in the summary.
///
/// Two write paths:
/// - **Empty store** — bulk load: inside ``Store/bulkWrite(_:)`` (history
///   suppressed, readers get one reset), secondary indexes dropped and rebuilt
///   after the load, rows appended with explicit ids through multi-row
///   INSERTs, foreign-key checks off for the load (the rows are consistent by
///   construction), and the rollback journal instead of WAL when no other
///   connection has the file open (so the data is written once, not to the WAL
///   and then again). Atomic even if the process is killed: SQLite's journal
///   undoes a partial load.
/// - **Store with banks** — upsert: each row looked up by cert through the
///   unique index, differences written with ordinary statements so the
///   history triggers let a running browser animate the new banks in. Large
///   files (``Options/bulkThresholdBytes``) run this inside `bulkWrite` instead.
///
/// Memory is independent of the file's size: the file is streamed, and the
/// duplicate-cert check keeps one bit per cert.
///
///     let store = try FailedBankStore.open(path: "/tmp/banks.sqlite")
///     let importer = BankImporter(store: store)
///     let summary = try importer.importFile("Data/banklist.csv")
///     print(summary.summaryLine)  // imported 500 rows from Data/banklist.csv: 500 added, 0 updated, …
public final class BankImporter {
    /// How to import.
    public struct Options: Sendable {
        /// Import the good rows and report the bad ones, instead of refusing the file.
        public var skipBadRows = false
        /// How many bad rows to list (the rest are counted).
        public var maxListedIssues = 20
        /// Files at least this large are upserted inside `bulkWrite` (one reset for readers instead of
        /// a history entry per row) even when the store is not empty.
        public var bulkThresholdBytes: Int64 = 16 << 20
        /// Let the empty-store path leave WAL for the rollback journal during the load (faster; needs
        /// no other connection to have the file open, else WAL is kept).
        public var allowJournalSwitch = true
        /// The pivot for two-digit years (see ``CalendarDay``).
        public var pivotYear = CalendarDay.defaultPivotYear
        public init() {}
    }

    public let store: Store

    public init(store: Store) {
        self.store = store
    }

    /// Imports one file; see the type's summary. `progress` is called at most ~10 times a second.
    public func importFile(_ path: String, options: Options = Options(),
                           progress: ((BankImportProgress) -> Void)? = nil) throws -> BankImportSummary {
        let started = MonotonicClock.now()
        let reader: CSVReader
        do {
            reader = try CSVReader(path: path)
        } catch let error as CSVError {
            throw BankImportError.unreadable(path: path, error)
        }
        var header = CSVRecord()
        do {
            guard try reader.read(into: &header) else { throw BankImportError.emptyFile(path: path) }
        } catch CSVError.unterminatedQuote(let line) {
            throw BankImportError.unterminatedQuote(path: path, line: line)
        } catch let error as CSVError {
            throw BankImportError.unreadable(path: path, error)
        }
        let layout: BankRowLayout
        do {
            layout = try BankRowLayout(header: header, pivotYear: options.pivotYear)
        } catch CSVError.missingColumns(let names, let found) {
            throw BankImportError.missingColumns(path: path, names: names, header: found)
        }
        let run = ImportRun(path: path, reader: reader, layout: layout, options: options, progress: progress, started: started)

        do {
            if try !bulkLoadIntoEmptyStore(run) {
                try upsert(run, bulk: (reader.totalBytes ?? 0) >= options.bulkThresholdBytes)
            }
        } catch let error as BankImportError {
            throw error
        } catch let error as Abort {
            switch error {
            case .badRows: throw run.badRowsError()
            case .nothingToWrite: break
            case .storeNotEmpty: break
            }
        } catch {
            throw BankImportError.store(path: path, error)
        }

        if run.dataRowCount == 0 { throw BankImportError.headerOnly(path: path) }
        if run.badRowCount > 0 && run.summary.rows == 0 {
            // --skip-bad-rows, but every row was bad: nothing imported.
            throw run.badRowsError()
        }
        run.resolveDuplicateLines()
        var summary = run.summary
        summary.issues = run.issues
        summary.skipped = run.badRowCount
        summary.seconds = MonotonicClock.now() - started
        return summary
    }

    /// Internal control flow that rolls a transaction back without it being an error.
    enum Abort: Error {
        case badRows, nothingToWrite, storeNotEmpty
    }

    // MARK: Empty store

    /// The bulk path; false (nothing done) when the store already holds banks.
    private func bulkLoadIntoEmptyStore(_ run: ImportRun) throws -> Bool {
        let db = store.database
        guard try isEmpty(db) else { return false }

        // Connection settings, outside the transaction.
        let foreignKeys = try db.scalar("PRAGMA foreign_keys").int64 ?? 1
        try db.execute("PRAGMA foreign_keys = OFF")
        let journal = run.options.allowJournalSwitch ? switchToRollbackJournal(db) : nil
        defer {
            try? db.execute("PRAGMA threads = 0")
            if let journal { restoreJournal(db, to: journal) }
            try? db.execute("PRAGMA foreign_keys = \(foreignKeys)")
        }

        do {
            try store.bulkWrite { db in
                // Re-check under the write lock: another process may have imported meanwhile.
                guard try isEmpty(db) else { throw Abort.storeNotEmpty }
                let indexes = try dropSecondaryIndexes(db)
                let firstID = (try db.scalar("""
                    SELECT max(coalesce((SELECT max(id) FROM failed_bank_info), 0),
                               coalesce((SELECT max(id) FROM failed_bank_details), 0))
                    """).int64 ?? 0) + 1
                var loader = BulkBankLoader(database: db, layout: run.layout, firstID: firstID)
                try run.forEachGoodRow { record, values in try loader.add(record, values) }
                try loader.finish()
                if run.mustAbort { throw Abort.badRows }
                run.summary.added = loader.count
                if loader.count == 0 { throw Abort.nothingToWrite }
                // Sorting for the indexes may use a helper thread.
                try? db.execute("PRAGMA threads = 2")
                for sql in indexes { try db.execute(sql) }
            }
            run.summary.usedBulkLoad = true
        } catch Abort.storeNotEmpty {
            return false
        }
        return true
    }

    private func isEmpty(_ db: Database) throws -> Bool {
        try db.scalar("SELECT NOT EXISTS (SELECT 1 FROM failed_bank_details) AND NOT EXISTS (SELECT 1 FROM failed_bank_info)").int64 == 1
    }

    /// Drops the indexes of the two tables (not the automatic ones) and returns their SQL, to recreate them.
    private func dropSecondaryIndexes(_ db: Database) throws -> [String] {
        let rows = try db.query("""
            SELECT name, sql FROM sqlite_master
            WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('failed_bank_info', 'failed_bank_details')
            ORDER BY name
            """)
        var sql: [String] = []
        for row in rows {
            guard let name = row[0].string, let create = row[1].string else { continue }
            try db.execute("DROP INDEX \(Database.quote(identifier: name))")
            sql.append(create)
        }
        return sql
    }

    /// Leaves WAL for the rollback journal when no other connection has the file open.
    /// Returns the mode to restore, or nil when nothing was changed.
    private func switchToRollbackJournal(_ db: Database) -> String? {
        guard let mode = (try? db.scalar("PRAGMA journal_mode"))?.string?.lowercased(), mode == "wal" else { return nil }
        // Do not wait for other connections: if any has the file open, keep WAL.
        try? db.execute("PRAGMA busy_timeout = 0")
        defer { try? db.execute("PRAGMA busy_timeout = 5000") }
        guard let now = (try? db.scalar("PRAGMA journal_mode = DELETE"))?.string?.lowercased(), now == "delete" else { return nil }
        return mode
    }

    private func restoreJournal(_ db: Database, to mode: String) {
        _ = try? db.scalar("PRAGMA journal_mode = \(mode)")
    }

    // MARK: Store with banks

    private func upsert(_ run: ImportRun, bulk: Bool) throws {
        let body: (Database) throws -> Void = { db in
            var writer = BankUpsertWriter(database: db, layout: run.layout)
            try run.forEachGoodRow { record, values in
                switch try writer.apply(record, values) {
                case .added: run.summary.added += 1
                case .updated: run.summary.updated += 1
                case .unchanged: run.summary.unchanged += 1
                }
            }
            if run.mustAbort { throw Abort.badRows }
            // Nothing changed: roll back, so that no history (or reset) is recorded.
            if !run.summary.changedStore { throw Abort.nothingToWrite }
        }
        if bulk {
            try store.bulkWrite(body)
        } else {
            try store.database.transaction { try body(store.database) }
        }
    }
}
