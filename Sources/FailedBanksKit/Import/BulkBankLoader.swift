import CSVImport
import SQLiteStore

/// The writing side of the empty-store fast path: appends the banks of
/// ``RowBatch``es to both tables through multi-row INSERT statements.
///
/// A bank's info and details rows get the same id (a running counter), so
/// the relationship needs no lookups. The ids are not bound: into empty
/// tables SQLite assigns 1, 2, 3… itself, on its cheap append path (no
/// uniqueness seek per row); the loader checks after every statement that
/// the ids came out as counted. Rows are written `rowsPerStatement` at a time
/// with one `INSERT … VALUES (…), (…), …` per table: one statement execution
/// per 64 rows instead of per row. The caller drops the secondary indexes
/// before and recreates them after, so every insert is an append.
///
///     let loader = try BulkBankLoader(database: db)
///     try loader.write(batch)   // a RowBatch filled by the parsing thread
final class BulkBankLoader {
    static let rowsPerStatement = 64

    private let database: Database
    private let infoMany: Statement
    private let detailsMany: Statement
    private let infoOne: Statement
    private let detailsOne: Statement
    /// Rows written so far.
    private(set) var count = 0

    private static let infoColumns = "(name, city, state)"
    private static let detailsColumns = "(info_id, close_date, updated_date, cert, acquiring_institution, fund)"

    /// The ids did not come out as counted (the tables were not empty after all).
    struct UnexpectedRowID: Error, CustomStringConvertible {
        let expected: Int64, found: Int64
        var description: String { "bulk load: expected row id \(expected), SQLite assigned \(found)" }
    }

    init(database: Database) throws {
        self.database = database
        // Prepared once and held (the SQL of a 64-row INSERT is long; no need for the cache).
        let n = BulkBankLoader.rowsPerStatement
        infoMany = try database.uncachedStatement(BulkBankLoader.insertSQL("failed_bank_info", BulkBankLoader.infoColumns, 3, n))
        detailsMany = try database.uncachedStatement(BulkBankLoader.insertSQL("failed_bank_details", BulkBankLoader.detailsColumns, 6, n))
        infoOne = try database.uncachedStatement(BulkBankLoader.insertSQL("failed_bank_info", BulkBankLoader.infoColumns, 3, 1))
        detailsOne = try database.uncachedStatement(BulkBankLoader.insertSQL("failed_bank_details", BulkBankLoader.detailsColumns, 6, 1))
    }

    private static func insertSQL(_ table: String, _ columns: String, _ parameters: Int, _ rows: Int) -> String {
        let one = "(" + Array(repeating: "?", count: parameters).joined(separator: ",") + ")"
        return "INSERT INTO \(table)\(columns) VALUES " + Array(repeating: one, count: rows).joined(separator: ",")
    }

    /// Writes every row of `batch`.
    func write(_ batch: RowBatch) throws {
        let rows = batch.rows
        let perStatement = BulkBankLoader.rowsPerStatement
        let all = batch.text
        do {
            var start = 0
            while start < rows.count {
                let many = rows.count - start >= perStatement
                let end = many ? start + perStatement : start + 1
                let info = many ? infoMany : infoOne
                let details = many ? detailsMany : detailsOne
                var slot: Int32 = 0
                for row in rows[start..<end] {
                    try bind(row, all, info, details, slot)
                    slot += 1
                }
                try step(info, details, lastID: rows[end - 1].id)
                start = end
            }
        }
        count += rows.count
    }

    @inline(__always)
    private func bind(_ row: RowBatch.Row, _ all: UnsafeRawBufferPointer, _ info: Statement, _ details: Statement, _ slot: Int32) throws {
        func text(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: all[range]) }
        let i = slot * 3, d = slot * 6
        try bindText(info, text(row.name), i + 1)
        try bindText(info, text(row.city), i + 2)
        try bindText(info, text(row.state), i + 3)
        try details.bind(row.id, at: d + 1)
        try bindText(details, text(row.closeDate), d + 2)
        if let updated = row.updatedDate { try bindText(details, text(updated), d + 3) }
        try details.bind(row.cert, at: d + 4)
        if let acquirer = row.acquirer { try bindText(details, text(acquirer), d + 5) }
        if let fund = row.fund { try details.bind(fund, at: d + 6) }
    }

    /// Binds text from the batch buffer without copying it: the buffer stays valid and
    /// unchanged until the statement has been stepped and reset (`step` below), which
    /// `bind(utf8NoCopy:at:)` requires. Saves a malloc, a copy and a free per field.
    @inline(__always)
    private func bindText(_ statement: Statement, _ bytes: UnsafeRawBufferPointer, _ index: Int32) throws {
        try statement.bind(utf8NoCopy: bytes, at: index)
    }

    /// Runs both statements and checks that both tables' last id is `lastID`.
    private func step(_ info: Statement, _ details: Statement, lastID: Int64) throws {
        _ = try info.step()
        info.reset()
        let infoID = database.lastInsertRowID
        _ = try details.step()
        details.reset()
        let detailsID = database.lastInsertRowID
        guard infoID == lastID, detailsID == lastID else {
            throw UnexpectedRowID(expected: lastID, found: infoID != lastID ? infoID : detailsID)
        }
    }
}
