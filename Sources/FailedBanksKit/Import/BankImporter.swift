import CSVImport
import SQLiteStore
import CLIKit
import Foundation
import Timekeeping

/// Imports FDIC Failed Bank List CSV files into a failedbanks store.
///
/// It also reads the original app's SQLite stores (a Core Data store, the
/// tutorial's database), recognised by their content, never modified: see
/// ``LegacyBankStore``.
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
///     print(summary.summaryLine)  // imported 572 rows from Data/banklist.csv: 572 added, 0 updated, …
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
        /// The defaults: all-or-nothing, 20 listed issues.
        public init() {}
    }

    /// The store imported into.
    public let store: Store

    /// An importer writing into `store` (its connection is used from this thread; parsing may use a second one).
    public init(store: Store) {
        self.store = store
    }

    /// Imports one file; see the type's summary. `progress` is called at most ~10 times a second.
    ///
    /// `displayName` names the file in the summary and in error messages instead of `path` (a
    /// download kept in a temporary file is named by its URL).
    public func importFile(_ filePath: String, displayName: String? = nil, options: Options = Options(),
                           progress: ((BankImportProgress) -> Void)? = nil) throws -> BankImportSummary {
        let started = MonotonicClock.seconds()
        let path = displayName ?? filePath
        let reader: CSVReader
        var rereadablePath: String? = filePath
        if let legacy = try LegacyBankStore(path: filePath) {
            // One of the original app's SQLite stores: its banks as CSV rows, through the same checks and upsert.
            reader = CSVReader(bytes: try legacy.csvBytes())
            rereadablePath = nil
        } else {
            do {
                reader = try CSVReader(path: filePath)
            } catch let error as CSVError {
                throw BankImportError.unreadable(path: path, error)
            }
        }
        var header = CSVRecord()
        do {
            guard try reader.read(into: &header) else { throw BankImportError.emptyFile(path: path) }
        } catch let error as CSVError {
            throw BankImportError.reading(path, error)
        }
        let layout: BankRowLayout
        do {
            layout = try BankRowLayout(header: header, pivotYear: options.pivotYear)
        } catch CSVError.missingColumns(let names, let found) {
            throw BankImportError.missingColumns(path: path, names: names, header: found)
        }
        let run = ImportRun(path: path, filePath: rereadablePath, reader: reader, layout: layout, options: options, progress: progress, started: started)

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
        summary.seconds = MonotonicClock.seconds() - started
        return summary
    }

    /// Internal control flow that rolls a transaction back without it being an error.
    enum Abort: Error {
        case badRows, nothingToWrite, storeNotEmpty
    }

    // MARK: Empty store

    /// `FAILEDBANKS_TRACE_IMPORT=1` prints the phases of the bulk path with their times (for tuning).
    private let tracing = FailedBankStore.currentEnvironment()["FAILEDBANKS_TRACE_IMPORT"] == "1"
    private var lastTrace = MonotonicClock.seconds()
    private var lastCPU = 0.0
    private func trace(_ phase: String) {
        guard tracing else { return }
        let now = MonotonicClock.seconds()
        var usage = rusage()
        getrusage(__rusage_who_t(0) /* RUSAGE_SELF */, &usage)
        let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        writeStandardError(String(format: "%7.3f s (cpu %6.3f s)  %@\n", now - lastTrace, cpu - lastCPU, phase))
        lastTrace = now
        lastCPU = cpu
    }

    /// The bulk path; false (nothing done) when the store already holds banks.
    private func bulkLoadIntoEmptyStore(_ run: ImportRun) throws -> Bool {
        let db = store.database
        guard try isEmpty(db) else { return false }

        // Connection settings, outside the transaction.
        let foreignKeys = try db.scalar("PRAGMA foreign_keys").int64 ?? 1
        try db.execute("PRAGMA foreign_keys = OFF")
        let journal = run.options.allowJournalSwitch ? switchToRollbackJournal(db) : nil
        trace(journal == nil ? "journal: WAL kept" : "journal: rollback journal for the load")
        if journal != nil { enlargePages(db) }
        defer {
            if let journal { restoreJournal(db, to: journal) }
            try? db.execute("PRAGMA foreign_keys = \(foreignKeys)")
        }

        do {
            try store.bulkWrite { db in
                // Re-check under the write lock: another process may have imported meanwhile.
                guard try isEmpty(db) else { throw Abort.storeNotEmpty }
                let indexes = try dropSecondaryIndexes(db, keepingLeadingColumn: "info_id")
                let loader = try BulkBankLoader(database: db)
                trace("prepared")
                try loadOnTwoThreads(run, into: loader)
                trace("loaded")
                if run.mustAbort { throw Abort.badRows }
                run.summary.added = loader.count
                if loader.count == 0 { throw Abort.nothingToWrite }
                // Sorting for the indexes may use a helper thread.
                // A small sorter memory sorts faster here (its chunks stay in the CPU cache);
                // PRAGMA threads = 2 was measured slower.
                let cacheSize = try db.scalar("PRAGMA cache_size").int64 ?? -2000
                try db.execute("PRAGMA cache_size = -500")
                defer { try? db.execute("PRAGMA cache_size = \(cacheSize)") }
                for sql in indexes { try db.execute(sql); trace(sql) }
            }
            trace("committed")
            run.summary.usedBulkLoad = true
        } catch Abort.storeNotEmpty {
            return false
        }
        return true
    }

    /// Parses on a second thread (``BulkProducer``) while this thread, which owns the
    /// connection, writes the batches.
    private func loadOnTwoThreads(_ run: ImportRun, into loader: BulkBankLoader) throws {
        let pipe = BatchPipe()
        let producer = BulkProducer(run: run, pipe: pipe)
        let thread = Thread { producer.main() }
        thread.stackSize = 1 << 20
        thread.start()
        do {
            while let batch = try pipe.nextFull() {
                try loader.write(batch)
                pipe.recycle(batch)
            }
        } catch {
            pipe.cancelAndWait()
            throw error
        }
        pipe.waitUntilFinished()
        run.summary.added = loader.count
    }

    private func isEmpty(_ db: Database) throws -> Bool {
        try db.scalar("SELECT NOT EXISTS (SELECT 1 FROM failed_bank_details) AND NOT EXISTS (SELECT 1 FROM failed_bank_info)").int64 == 1
    }

    /// Drops the indexes of the two tables (not the automatic ones) and returns their SQL, to recreate them.
    /// Indexes that lead with `keepingLeadingColumn` stay: the loader appends to them in order (info_id = id,
    /// increasing), which costs less than sorting them afterwards.
    private func dropSecondaryIndexes(_ db: Database, keepingLeadingColumn kept: String) throws -> [String] {
        let rows = try db.query("""
            SELECT name, sql FROM sqlite_master
            WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('failed_bank_info', 'failed_bank_details')
            ORDER BY name
            """)
        var sql: [String] = []
        for row in rows {
            guard let name = row[0].string, let create = row[1].string else { continue }
            let first = try db.query("SELECT name FROM pragma_index_info(?) ORDER BY seqno LIMIT 1", [.text(name)])
            if first.first?.first == .text(kept) { continue }
            try db.execute("DROP INDEX \(Database.quote(identifier: name))")
            sql.append(create)
        }
        return sql
    }

    /// Leaves WAL for the rollback journal when no other connection has the file open.
    /// Returns the mode to restore, or nil when nothing was changed.
    private func switchToRollbackJournal(_ db: Database) -> String? {
        let current: StoreValue
        do { current = try db.scalar("PRAGMA journal_mode") } catch { trace("journal mode unknown: \(error)"); return nil }
        guard let mode = current.string?.lowercased(), mode == "wal" else { trace("journal mode \(current)"); return nil }
        // Do not wait for other connections: if any has the file open, keep WAL.
        let timeout = (try? db.scalar("PRAGMA busy_timeout"))?.int64 ?? 5000
        try? db.execute("PRAGMA busy_timeout = 0")
        defer { try? db.execute("PRAGMA busy_timeout = \(timeout)") }
        let result: StoreValue
        do { result = try db.scalar("PRAGMA journal_mode = DELETE") } catch { trace("journal switch refused: \(error)"); return nil }
        guard let now = result.string?.lowercased(), now == "delete" else { trace("journal switch refused: \(result)"); return nil }
        return mode
    }

    /// Gives a store that holds no banks 16 KB pages (a one-off `VACUUM` of an almost empty file):
    /// a big load then needs fewer page splits and writes. Only in rollback-journal mode (WAL cannot
    /// change the page size) and only when nobody else has the file open (checked by the switch).
    private func enlargePages(_ db: Database) {
        guard let size = (try? db.scalar("PRAGMA page_size"))?.int64, size < 16384 else { return }
        do {
            try db.execute("PRAGMA page_size = 16384")
            try db.execute("VACUUM")
            trace("page size 16384")
        } catch {
            trace("page size kept: \(error)")
        }
    }

    private func restoreJournal(_ db: Database, to mode: String) {
        _ = try? db.scalar("PRAGMA journal_mode = \(mode)")
    }

    // MARK: Store with banks

    private func upsert(_ run: ImportRun, bulk: Bool) throws {
        let body: (Database) throws -> Void = { db in
            let writer = try BankUpsertWriter(database: db, layout: run.layout)
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
        // Another writer (a second import) may hold the store for longer than one
        // busy timeout: while nothing has been read yet, wait for it twice more
        // before saying it is locked.
        var waits = 0
        while true {
            var started = false
            do {
                if bulk {
                    try store.bulkWrite { db in started = true; try body(db) }
                } else {
                    try store.database.transaction { started = true; try body(store.database) }
                }
                return
            } catch let error as SQLiteError where error.isBusy && !started && waits < BankImporter.extraBusyWaits {
                waits += 1
            }
        }
    }

    /// How many more busy timeouts an import waits for another writer before giving up.
    static let extraBusyWaits = 2
}
