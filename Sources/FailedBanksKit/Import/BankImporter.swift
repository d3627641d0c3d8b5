import BulkImport
import CLIKit
import CSVImport
import Foundation
import SQLiteStore
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
package final class BankImporter {
    /// How to import.
    package struct Options: Sendable {
        /// Import the good rows and report the bad ones, instead of refusing the file.
        package var skipBadRows = false
        /// How many bad rows to list (the rest are counted).
        package var maxListedIssues = 20
        /// Files at least this large are upserted inside `bulkWrite` (one reset for readers instead of
        /// a history entry per row) even when the store is not empty.
        package var bulkThresholdBytes: Int64 = 16 << 20
        /// Let the empty-store path leave WAL for the rollback journal during the load (faster; needs
        /// no other connection to have the file open, else WAL is kept).
        package var allowJournalSwitch = true
        /// The pivot for two-digit years (see ``CalendarDay``): next year, since a bank cannot close
        /// more than a year from now while the FDIC's history reaches back to 1934, so the sliding
        /// window reads every closing and update date right.
        package var pivotYear = CalendarDay.defaultPivotYear
        /// The defaults: all-or-nothing, 20 listed issues.
        package init() {}
    }

    /// The store imported into.
    package let store: Store

    /// An importer writing into `store` (its connection is used from this thread; parsing may use a second one).
    package init(store: Store) {
        self.store = store
    }

    /// Imports one file; see the type's summary. `progress` is called at most ~10 times a second.
    ///
    /// `displayName` names the file in the summary and in error messages instead of `path`.
    package func importFile(
        _ filePath: String,
        displayName: String? = nil,
        options: Options = Options(),
        progress: ((ImportProgress) -> Void)? = nil
    ) throws -> ImportSummary {
        let started = MonotonicClock.seconds()
        let path = displayName ?? filePath
        if let legacy = try LegacyBankStore(path: filePath) {
            // One of the original app's SQLite stores: its banks as CSV rows, through the same checks and upsert.
            let bytes = try legacy.csvBytes()
            return try importRows(
                CSVReader(bytes: bytes),
                reopen: { CSVReader(bytes: bytes) },
                path: path,
                options: options,
                progress: progress,
                started: started
            )
        }
        let reader: CSVReader
        do {
            reader = try CSVReader(path: filePath)
        } catch let error as CSVError {
            throw BankImportError.unreadable(path: path, error)
        }
        return try importRows(
            reader,
            reopen: { try? CSVReader(path: filePath) },
            path: path,
            options: options,
            progress: progress,
            started: started
        )
    }

    /// Imports a CSV bank list held in memory (a download), named `displayName` in the summary and
    /// the messages; the same checks and writes as ``importFile(_:displayName:options:progress:)``.
    /// It reads CSV only: a SQLite database's bytes are not a bank list here.
    package func importCSV(
        bytes: [UInt8],
        displayName: String,
        options: Options = Options(),
        progress: ((ImportProgress) -> Void)? = nil
    ) throws -> ImportSummary {
        try importRows(
            CSVReader(bytes: bytes),
            reopen: { CSVReader(bytes: bytes) },
            path: displayName,
            options: options,
            progress: progress,
            started: MonotonicClock.seconds()
        )
    }

    /// The import of the rows `reader` reads (`reopen` makes another reader of them, for a second pass).
    private func importRows(
        _ reader: CSVReader,
        reopen: @escaping () -> CSVReader?,
        path: String,
        options: Options,
        progress: ((ImportProgress) -> Void)?,
        started: Double
    ) throws -> ImportSummary {
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
        let run = ImportRun(
            path: path,
            reopen: reopen,
            reader: reader,
            layout: layout,
            options: options,
            progress: progress,
            started: started
        )

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
    private let trace = ImportTrace(enabled: FailedBankStore.currentEnvironment()["FAILEDBANKS_TRACE_IMPORT"] == "1")

    /// The bulk path (``EmptyStoreLoad``); false (nothing done) when the store already holds banks.
    private func bulkLoadIntoEmptyStore(_ run: ImportRun) throws -> Bool {
        let done = try EmptyStoreLoad.run(
            store: store,
            tables: [FailedBankDetails.entity.tableName, FailedBankInfo.entity.tableName],
            keepingIndexesLeadingWith: FailedBankDetails.infoColumn,
            allowJournalSwitch: run.options.allowJournalSwitch,
            trace: trace
        ) { db in
            // Info rows get ids 1, 2, 3… from SQLite; each details row the same id, and its info_id.
            let infoColumns = BankRowLayout.infoColumns
            let detailsColumns = BankRowLayout.detailsColumns
            let info = try MultiRowInsertWriter(
                database: db,
                table: FailedBankInfo.entity.tableName,
                columns: infoColumns,
                values: 0..<infoColumns.count,
                rowIDs: .init()
            )
            let details = try MultiRowInsertWriter(
                database: db,
                table: FailedBankDetails.entity.tableName,
                columns: detailsColumns,
                values: infoColumns.count..<(infoColumns.count + detailsColumns.count),
                rowIDs: .init(column: FailedBankDetails.infoColumn)
            )
            // Parses on a second thread while this thread, which owns the connection, writes.
            let layout = run.layout
            try TwoThreadLoad.run(
                produce: { pipe in
                    var filler = BulkBatchFiller(pipe: pipe)
                    try run.forEachGoodRow { record, values in
                        layout.append(record, values, to: try filler.batch())
                        filler.endRow(line: record.line)
                    }
                    filler.finish()
                },
                consume: { batch in
                    try info.write(batch)
                    try details.write(batch)
                }
            )
            run.summary.added = info.count
            if run.mustAbort { throw Abort.badRows }
            if info.count == 0 { throw Abort.nothingToWrite }
        }
        if done { run.summary.usedBulkLoad = true }
        return done
    }

    // MARK: Store with banks

    private func upsert(_ run: ImportRun, bulk: Bool) throws {
        let body: (Database) throws -> Void = { db in
            let layout = run.layout
            let writer = try layout.upsertWriter(database: db)
            // One row at a time through a one-row batch: the bulk path's values, compared on their bytes.
            let row = BulkRowBatch(capacity: 1)
            try run.forEachGoodRow { record, values in
                row.removeAll()
                layout.append(record, values, to: row)
                row.endRow(line: record.line)
                switch try writer.apply(row, row: 0) {
                case .added: run.summary.added += 1
                case .updated: run.summary.updated += 1
                case .unchanged: run.summary.unchanged += 1
                }
            }
            if run.mustAbort { throw Abort.badRows }
            // Nothing changed: roll back, so that no history (or reset) is recorded.
            if !run.summary.changedStore { throw Abort.nothingToWrite }
        }
        try UpsertTransaction.run(store: store, bulk: bulk, extraBusyWaits: BankImporter.extraBusyWaits, body)
    }

    /// How many more busy timeouts an import waits for another writer before giving up.
    static let extraBusyWaits = 2
}
