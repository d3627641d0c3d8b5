import CSVImport
import SQLiteStore

/// The writing side of a ``CSVTableLoader``: creates the table, appends the
/// rows of ``CSVRowBatch``es through multi-row INSERT statements, and once
/// every value has been seen gives each column its inferred type.
///
/// The columns are created without a declared type, so SQLite stores each
/// value as bound (no affinity conversion): numbers as numbers, text as
/// text. ``finish(types:counts:)`` then converts the few values whose column
/// turned out otherwise (a number in a text column back to its text, a
/// `1.50` in a real column to the number) in one UPDATE that runs only when
/// needed, and writes the inferred types into the table's declaration
/// (`INTEGER`, `REAL`, `DATE`, `DATETIME`, `TEXT`) with SQLite's documented
/// `writable_schema` procedure — the stored values do not change, so the
/// file stays valid, and the types are there for `sqlite3` and for reopening
/// the cache. Row ids are not bound: SQLite assigns 1, 2, 3… on its append path.
///
///     let writer = try CSVTableWriter(database: db, table: "events", columns: ["id", "ts"])
///     try writer.write(batch)
///     try writer.finish(types: inference.types, counts: inference.counts)
final class CSVTableWriter {
    private let database: Database
    private let table: String
    private let columns: [String]
    private let rowsPerStatement: Int
    private let many: Statement
    private let one: Statement
    /// Rows written so far.
    private(set) var count = 0

    /// Bound parameters per statement: SQLite's smallest default limit (999, before 3.32).
    static let maxParameters = 999

    /// Creates `table` with `columns` (no declared types yet) in `database`.
    init(database: Database, table: String, columns: [String]) throws {
        self.database = database
        self.table = table
        self.columns = columns
        let quoted = columns.map(Database.quote(identifier:)).joined(separator: ", ")
        try database.execute("CREATE TABLE \(Database.quote(identifier: table))(\(quoted))")
        rowsPerStatement = max(1, min(64, CSVTableWriter.maxParameters / max(columns.count, 1)))
        many = try database.uncachedStatement(CSVTableWriter.insertSQL(table, columns.count, rowsPerStatement))
        one = try database.uncachedStatement(CSVTableWriter.insertSQL(table, columns.count, 1))
    }

    private static func insertSQL(_ table: String, _ columns: Int, _ rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ",") + ")"
        return "INSERT INTO \(Database.quote(identifier: table)) VALUES " + Array(repeating: row, count: rows).joined(separator: ",")
    }

    /// Appends every row of `batch`.
    func write(_ batch: CSVRowBatch) throws {
        let rows = batch.rowCount
        let width = columns.count
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

    /// Converts the values whose column's type differs from how they were stored, then declares the types.
    func finish(types: [CSVColumnType], counts: [CSVColumnTypeInference.Counts]) throws {
        var assignments: [String] = []
        var conditions: [String] = []
        for (index, type) in types.enumerated() {
            let column = Database.quote(identifier: columns[index])
            let counts = counts[index]
            switch type {
            case .text where counts.integers + counts.exactReals > 0:
                // Numbers were stored as numbers; written as they read back, CAST gives their text.
                let condition = "typeof(\(column)) IN ('integer', 'real')"
                assignments.append("\(column) = CASE WHEN \(condition) THEN CAST(\(column) AS TEXT) ELSE \(column) END")
                conditions.append(condition)
            case .real where counts.otherReals > 0:
                // `1.50`, `1e3` were kept as text (not knowing the column's type yet): make them numbers.
                let condition = "typeof(\(column)) = 'text'"
                assignments.append("\(column) = CASE WHEN \(condition) THEN CAST(\(column) AS REAL) ELSE \(column) END")
                conditions.append(condition)
            default:
                break
            }
        }
        if !assignments.isEmpty {
            try database.execute(
                "UPDATE \(Database.quote(identifier: table)) SET \(assignments.joined(separator: ", ")) "
                    + "WHERE \(conditions.joined(separator: " OR "))"
            )
        }
        try declare(types)
    }

    /// The declared type of a column of `type`.
    static func declaredType(_ type: CSVColumnType) -> String {
        switch type {
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .date: return "DATE"
        case .dateTime: return "DATETIME"
        case .text: return "TEXT"
        }
    }

    /// The column type a declared type stands for (the inverse of ``declaredType(_:)``; text otherwise).
    static func columnType(declared: String) -> CSVColumnType {
        switch declared.uppercased() {
        case "INTEGER": return .integer
        case "REAL": return .real
        case "DATE": return .date
        case "DATETIME": return .dateTime
        default: return .text
        }
    }

    /// Rewrites the table's declaration with the types (https://sqlite.org/lang_altertable.html#otheralter:
    /// a change that leaves the stored records valid, made by editing `sqlite_master` and bumping the
    /// schema version). Only on a file no other connection has open: the loader's own temporary file.
    private func declare(_ types: [CSVColumnType]) throws {
        let definitions = zip(columns, types).map { "\(Database.quote(identifier: $0)) \(CSVTableWriter.declaredType($1))" }
        let sql = "CREATE TABLE \(Database.quote(identifier: table))(\(definitions.joined(separator: ", ")))"
        let version = try database.scalar("PRAGMA schema_version").int64 ?? 0
        try database.execute("PRAGMA writable_schema = ON")
        do {
            try database.run("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?", [.text(sql), .text(table)])
            try database.execute("PRAGMA schema_version = \(version + 1)")
        } catch {
            try? database.execute("PRAGMA writable_schema = OFF")
            throw error
        }
        try database.execute("PRAGMA writable_schema = OFF")
    }
}
