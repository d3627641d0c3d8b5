import SQLiteStore

/// Appends the rows of ``BulkRowBatch``es to a table with multi-row INSERT
/// statements: one statement execution per `rowsPerStatement` rows (64, or
/// fewer for wide tables so a statement binds at most 999 values), text bound
/// straight from the batch's buffer without a copy (`bind(utf8NoCopy:at:)`).
///
/// Row ids are not bound: into a table the load appends to, SQLite assigns
/// them on its cheap append path. For the bulk path into new or emptied
/// tables (with secondary indexes dropped, ``EmptyStoreLoad``), where every
/// insert is an append, inside the load's transaction: a statement that fails
/// keeps the rows it inserted before the failing one (`INSERT OR FAIL`, which
/// needs no statement journal), and the transaction undoes a failed load.
///
/// Several tables per batch: each writer binds its own run of each row's
/// values (`values`), so one batch fills, say, a root table and a to-one
/// table whose rows share the root's id. With ``RowIDs`` the writer knows the
/// ids the rows get (the first id, then one more per row), checks after every
/// statement that SQLite assigned them, and can fill a column with the row's
/// id (the to-one table's foreign key), so the relationship needs no lookups.
///
///     let writer = try MultiRowInsertWriter(database: db, table: "events", columns: ["id", "ts", "level"])
///     try writer.write(batch)   // a BulkRowBatch filled by the parsing thread
///     writer.count              // rows written so far
///
///     // Rows of 5 values: "person" takes values 0..<2, "address" values 2..<5 plus person_id.
///     let people = try MultiRowInsertWriter(database: db, table: "person", columns: ["name", "born"],
///                                           values: 0..<2, rowIDs: .init())
///     let addresses = try MultiRowInsertWriter(database: db, table: "address", columns: ["street", "city", "zip"],
///                                              values: 2..<5, rowIDs: .init(column: "person_id"))
///     try people.write(batch); try addresses.write(batch)   // person n and its address both get id n
package final class MultiRowInsertWriter {
    /// Bound values per statement at most: SQLite's smallest default limit (999, before 3.32).
    package static let maxParameters = 999

    /// The ids the rows of a load get: ``first`` for the first row written, one more for each
    /// following one (what SQLite assigns when appending to an empty table), checked after every
    /// statement; ``column`` (when set) is filled with the row's id.
    ///
    ///     let ids = MultiRowInsertWriter.RowIDs(first: 1, column: "info_id")
    package struct RowIDs: Sendable {
        /// The id of the first row written.
        package var first: Int64
        /// A column bound with the row's id (after the batch's values), or nil.
        package var column: String?
        /// Ids from `first` (1: an empty table), `column` filled with them when set.
        package init(first: Int64 = 1, column: String? = nil) {
            self.first = first
            self.column = column
        }
    }

    /// The ids did not come out as counted (the table was not empty after all).
    package struct UnexpectedRowID: Error, CustomStringConvertible {
        /// The table written.
        package let table: String
        /// The id the last row of the statement should have had, and the one SQLite assigned.
        package let expected: Int64, found: Int64
        package var description: String { "bulk load: expected row id \(expected), SQLite assigned \(found)" }
    }

    private let database: Database
    private let table: String
    private let values: Range<Int>
    private let rowIDs: RowIDs?
    private let parametersPerRow: Int
    private let rowsPerStatement: Int
    private let many: Statement
    private let one: Statement
    /// Rows written so far.
    package private(set) var count = 0

    /// A writer of `columns` of `table` (any names: they are quoted) on `database`'s connection, bound
    /// from the batch rows' `values` (all of them by default; as many as `columns`), with `rowIDs`
    /// counted and checked (and a column filled with them) when given.
    package init(
        database: Database,
        table: String,
        columns: [String],
        values: Range<Int>? = nil,
        rowIDs: RowIDs? = nil,
        rowsPerStatement: Int = 64
    ) throws {
        let values = values ?? 0..<columns.count
        precondition(
            values.count == columns.count,
            "MultiRowInsertWriter: \(values.count) values for \(columns.count) columns"
        )
        let all = columns + (rowIDs?.column.map { [$0] } ?? [])
        precondition(!all.isEmpty, "MultiRowInsertWriter: no columns")
        self.database = database
        self.table = table
        self.values = values
        self.rowIDs = rowIDs
        parametersPerRow = all.count
        self.rowsPerStatement = max(1, min(rowsPerStatement, MultiRowInsertWriter.maxParameters / all.count))
        let list = all.map(Database.quote(identifier:)).joined(separator: ", ")
        let row = "(" + Array(repeating: "?", count: all.count).joined(separator: ",") + ")"
        // With ABORT, SQLite would copy every page a multi-row INSERT touches to a statement journal
        // first (a temporary file: 238 MB written at 200,000 rows).
        let insert = "INSERT OR FAIL INTO \(Database.quote(identifier: table))(\(list)) VALUES "
        many = try database.uncachedStatement(
            insert + Array(repeating: row, count: self.rowsPerStatement).joined(separator: ",")
        )
        one = try database.uncachedStatement(insert + row)
    }

    /// Appends every row of `batch` (whose rows hold the writer's `values`).
    package func write(_ batch: BulkRowBatch) throws {
        let rows = batch.rowCount
        guard rows > 0 else { return }
        let width = batch.columnCount
        precondition(
            values.upperBound <= width,
            "MultiRowInsertWriter: rows of \(width) values, values \(values) wanted"
        )
        let all = batch.text
        let first = values.lowerBound
        let last = values.upperBound
        let idColumn = rowIDs?.column != nil
        let firstID = (rowIDs?.first ?? 1) + Int64(count)
        try batch.cells.withUnsafeBufferPointer { cells in
            var start = 0
            while start < rows {
                let useMany = rows - start >= rowsPerStatement
                let end = useMany ? start + rowsPerStatement : start + 1
                let statement = useMany ? many : one
                var parameter: Int32 = 1
                for row in start..<end {
                    let base = row * width
                    for cell in cells[(base + first)..<(base + last)] {
                        switch cell.kind {
                        case .null: break  // reset() cleared the bindings: NULL
                        case .integer: try statement.bind(Int64(bitPattern: cell.bits), at: parameter)
                        case .real: try statement.bind(Double(bitPattern: cell.bits), at: parameter)
                        case .text:
                            // The batch's buffer stays unchanged until the statement is reset below.
                            try statement.bind(
                                utf8NoCopy: UnsafeRawBufferPointer(rebasing: all[cell.start..<cell.end]),
                                at: parameter
                            )
                        }
                        parameter += 1
                    }
                    if idColumn {
                        try statement.bind(firstID + Int64(row), at: parameter)
                        parameter += 1
                    }
                }
                _ = try statement.step()
                statement.reset()
                if rowIDs != nil {
                    let expected = firstID + Int64(end - 1)
                    let found = database.lastInsertRowID
                    guard found == expected else {
                        throw UnexpectedRowID(table: table, expected: expected, found: found)
                    }
                }
                start = end
            }
        }
        count += rows
    }
}
