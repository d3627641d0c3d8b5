import SQLiteStore

/// Appends the rows of ``BulkRowBatch``es to a table with multi-row INSERT
/// statements: one statement execution per `rowsPerStatement` rows (64, or
/// fewer for wide tables so a statement binds at most 999 values), text bound
/// straight from the batch's buffer without a copy (`bind(utf8NoCopy:at:)`).
///
/// Row ids are not bound: into a table the load appends to, SQLite assigns
/// them on its cheap append path. For the bulk path into new or emptied
/// tables (with secondary indexes dropped, ``EmptyStoreLoad``), where every
/// insert is an append.
///
///     let writer = try MultiRowInsertWriter(database: db, table: "events", columns: ["id", "ts", "level"])
///     try writer.write(batch)   // a BulkRowBatch filled by the parsing thread
///     writer.count              // rows written so far
public final class MultiRowInsertWriter {
    /// Bound values per statement at most: SQLite's smallest default limit (999, before 3.32).
    public static let maxParameters = 999

    private let columnCount: Int
    private let rowsPerStatement: Int
    private let many: Statement
    private let one: Statement
    /// Rows written so far.
    public private(set) var count = 0

    /// A writer of `columns` of `table` (any names: they are quoted) on `database`'s connection.
    public init(database: Database, table: String, columns: [String], rowsPerStatement: Int = 64) throws {
        precondition(!columns.isEmpty, "MultiRowInsertWriter: no columns")
        columnCount = columns.count
        self.rowsPerStatement = max(1, min(rowsPerStatement, MultiRowInsertWriter.maxParameters / columns.count))
        let list = columns.map(Database.quote(identifier:)).joined(separator: ", ")
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ",") + ")"
        let insert = "INSERT INTO \(Database.quote(identifier: table))(\(list)) VALUES "
        many = try database.uncachedStatement(insert + Array(repeating: row, count: self.rowsPerStatement).joined(separator: ","))
        one = try database.uncachedStatement(insert + row)
    }

    /// Appends every row of `batch` (whose rows have as many values as the writer has columns).
    public func write(_ batch: BulkRowBatch) throws {
        let rows = batch.rowCount
        guard rows > 0 else { return }
        precondition(batch.columnCount == columnCount, "MultiRowInsertWriter: rows of \(batch.columnCount) values for \(columnCount) columns")
        let width = columnCount
        let all = batch.text
        try batch.cells.withUnsafeBufferPointer { cells in
            var start = 0
            while start < rows {
                let useMany = rows - start >= rowsPerStatement
                let end = useMany ? start + rowsPerStatement : start + 1
                let statement = useMany ? many : one
                var parameter: Int32 = 1
                for cell in cells[(start * width)..<(end * width)] {
                    switch cell.kind {
                    case .null: break  // reset() cleared the bindings: NULL
                    case .integer: try statement.bind(Int64(bitPattern: cell.bits), at: parameter)
                    case .real: try statement.bind(Double(bitPattern: cell.bits), at: parameter)
                    case .text:
                        // The batch's buffer stays unchanged until the statement is reset below.
                        try statement.bind(utf8NoCopy: UnsafeRawBufferPointer(rebasing: all[cell.start..<cell.end]), at: parameter)
                    }
                    parameter += 1
                }
                _ = try statement.step()
                statement.reset()
                start = end
            }
        }
        count += rows
    }
}
