import CSVImport
import SQLiteStore

/// The empty-store fast path: appends banks with explicit, increasing row ids
/// through multi-row INSERT statements.
///
/// A bank's info and details rows get the same id (a running counter), so
/// the relationship needs no lookups. Rows are gathered `batchSize` at a time
/// (their trimmed text copied into one buffer) and written with one
/// `INSERT … VALUES (…), (…), …` per table: one statement execution per batch
/// instead of per row. The caller drops the secondary indexes before and
/// recreates them after, so every insert is an append to two tables.
///
///     var loader = try BulkBankLoader(database: db, layout: layout, firstID: 1)
///     try run.forEachGoodRow { record, values in try loader.add(record, values) }
///     try loader.finish()
struct BulkBankLoader {
    static let batchSize = 64

    private struct PendingRow {
        var id: Int64
        var cert: Int64
        var fund: Int64?
        var closeDate: CalendarDay
        var updatedDate: CalendarDay?
        var name: Range<Int>
        var city: Range<Int>
        var state: Range<Int>
        var acquirer: Range<Int>?
    }

    private let database: Database
    private let layout: BankRowLayout
    private var bytes: [UInt8] = []
    private var rows: [PendingRow] = []
    private var nextID: Int64
    /// Rows written so far.
    private(set) var count = 0

    private static let infoColumns = "(id, name, city, state)"
    private static let detailsColumns = "(id, info_id, close_date, updated_date, cert, acquiring_institution, fund)"

    init(database: Database, layout: BankRowLayout, firstID: Int64) {
        self.database = database
        self.layout = layout
        self.nextID = firstID
        bytes.reserveCapacity(BulkBankLoader.batchSize * 256)
        rows.reserveCapacity(BulkBankLoader.batchSize)
    }

    private static func insertSQL(table: String, columns: String, parameters: Int, rows: Int) -> String {
        let one = "(" + Array(repeating: "?", count: parameters).joined(separator: ",") + ")"
        return "INSERT INTO \(table)\(columns) VALUES " + Array(repeating: one, count: rows).joined(separator: ",")
    }

    /// Adds one checked row (written when the batch is full).
    mutating func add(_ record: CSVRecord, _ values: BankRowLayout.Values) throws {
        let row = PendingRow(
            id: nextID, cert: values.cert, fund: values.fund, closeDate: values.closeDate, updatedDate: values.updatedDate,
            name: append(record, layout.name), city: append(record, layout.city), state: append(record, layout.state),
            acquirer: layout.acquirer.flatMap { index in
                let range = append(record, index)
                return range.isEmpty ? nil : range
            })
        nextID += 1
        rows.append(row)
        if rows.count == BulkBankLoader.batchSize { try flush() }
    }

    /// Writes the rows still pending.
    mutating func finish() throws {
        try flush()
    }

    private mutating func append(_ record: CSVRecord, _ index: Int) -> Range<Int> {
        let start = bytes.count
        BankRowLayout.withText(record, index) { text in
            if !text.isEmpty { bytes.append(contentsOf: text.assumingMemoryBound(to: UInt8.self)) }
        }
        return start..<bytes.count
    }

    private mutating func flush() throws {
        guard !rows.isEmpty else { return }
        let n = rows.count
        let full = n == BulkBankLoader.batchSize
        let info = try database.statement(BulkBankLoader.insertSQL(table: "failed_bank_info", columns: BulkBankLoader.infoColumns,
                                                                   parameters: 4, rows: full ? n : 1))
        let details = try database.statement(BulkBankLoader.insertSQL(table: "failed_bank_details", columns: BulkBankLoader.detailsColumns,
                                                                      parameters: 7, rows: full ? n : 1))
        try bytes.withUnsafeBytes { all in
            func text(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: all[range]) }
            var slot: Int32 = 0
            for row in rows {
                let i = slot * 4, d = slot * 7
                try info.bind(row.id, at: i + 1)
                try info.bind(utf8: text(row.name), at: i + 2)
                try info.bind(utf8: text(row.city), at: i + 3)
                try info.bind(utf8: text(row.state), at: i + 4)
                try details.bind(row.id, at: d + 1)
                try details.bind(row.id, at: d + 2)
                try row.closeDate.withISOBytes { try details.bind(utf8: $0, at: d + 3) }
                if let updated = row.updatedDate { try updated.withISOBytes { try details.bind(utf8: $0, at: d + 4) } }
                try details.bind(row.cert, at: d + 5)
                if let acquirer = row.acquirer { try details.bind(utf8: text(acquirer), at: d + 6) }
                if let fund = row.fund { try details.bind(fund, at: d + 7) }
                if full {
                    slot += 1
                } else {
                    _ = try info.step()
                    _ = try details.step()
                    info.reset()
                    details.reset()
                }
            }
        }
        if full {
            _ = try info.step()
            _ = try details.step()
            info.reset()
            details.reset()
        }
        count += n
        rows.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }
}
