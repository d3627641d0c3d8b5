import CSVImport
import SQLiteStore

/// The table of a ``CSVTableLoader``: created with the header's columns and
/// no declared types, then given the types inferred from every value.
///
/// Without a declared type a column has no affinity, so SQLite stores each
/// value as bound (no conversion): numbers as numbers, text as text.
/// ``finish(types:counts:)`` then converts the few values whose column
/// turned out otherwise (a number in a text column back to its text, a
/// `1.50` in a real column to the number) in one UPDATE that runs only when
/// needed, and writes the inferred types into the table's declaration
/// (`INTEGER`, `REAL`, `DATE`, `DATETIME`, `TEXT`) with SQLite's documented
/// `writable_schema` procedure — the stored records do not change, so the
/// file stays valid, and the types are there for `sqlite3` and for reopening
/// the cache (``CSVTable/read(databasePath:tableName:)``).
///
/// A real column where some values are written otherwise than their number reads back
/// (`3`, `1.10`, `1e3`) gets a companion column of text, ``CSVTable/writtenFormColumn(of:)``,
/// holding those values as written (NULL for the others), so that they can be shown so:
/// the numbers sort and compare, the text is what the file says.
///
///     let schema = try CSVTableSchema(database: db, table: "events", columns: ["id", "ts"])
///     // … load the rows …
///     try schema.finish(types: inference.types, counts: inference.counts)
struct CSVTableSchema {
    let database: Database
    let table: String
    let columns: [String]

    /// The schema of `table`, already in `database`.
    init(existing database: Database, table: String, columns: [String]) {
        self.database = database
        self.table = table
        self.columns = columns
    }

    /// Creates `table` with `columns` (no declared types yet) in `database`.
    init(database: Database, table: String, columns: [String]) throws {
        self.database = database
        self.table = table
        self.columns = columns
        let quoted = columns.map(Database.quote(identifier:)).joined(separator: ", ")
        try database.execute("CREATE TABLE \(Database.quote(identifier: table))(\(quoted))")
    }

    /// Converts the values whose column's type differs from how they were stored (keeping a real
    /// column's values written otherwise in its companion), then declares the types.
    func finish(types: [CSVColumnType], counts: [CSVColumnTypeInference.Counts]) throws {
        var assignments: [String] = []
        var conditions: [String] = []
        var companions: [String] = []
        for (index, type) in types.enumerated() {
            let column = Database.quote(identifier: columns[index])
            let counts = counts[index]
            switch type {
            case .text where counts.integers + counts.exactReals > 0:
                // Numbers were stored as numbers; written as they read back, CAST gives their text.
                let condition = "typeof(\(column)) IN ('integer', 'real')"
                assignments.append("\(column) = CASE WHEN \(condition) THEN CAST(\(column) AS TEXT) ELSE \(column) END")
                conditions.append(condition)
            case .real where counts.otherReals + counts.integers > 0:
                // `1.50`, `1e3` were kept as text (not knowing the column's type yet): make them numbers, and
                // keep them as written beside, with the integers (`3`, which a REAL column reads back as 3.0) —
                // while the table has room for another column.
                let condition: String
                if columns.count + companions.count < CSVTableLoader.maxColumns {
                    let written = Database.quote(identifier: CSVTable.writtenFormColumn(of: columns[index]))
                    try database.execute("ALTER TABLE \(Database.quote(identifier: table)) ADD COLUMN \(written)")
                    companions.append(CSVTable.writtenFormColumn(of: columns[index]))
                    condition = "typeof(\(column)) IN ('text', 'integer')"
                    assignments.append("\(written) = CASE WHEN \(condition) THEN CAST(\(column) AS TEXT) END")
                } else if counts.otherReals > 0 {
                    condition = "typeof(\(column)) = 'text'"
                } else {
                    continue
                }
                assignments.append(
                    "\(column) = CASE WHEN typeof(\(column)) = 'text' THEN CAST(\(column) AS REAL) ELSE \(column) END"
                )
                conditions.append(condition)
            case .boolean:
                // JSON's true and false were kept as their text (a column that turns out text keeps them so).
                let condition = "typeof(\(column)) = 'text'"
                assignments.append("\(column) = CASE WHEN \(condition) THEN \(column) = 'true' ELSE \(column) END")
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
        try declare(types, companions: companions)
    }

    /// Makes the missing-value tokens (`NA`, `-`…) of the columns at `indexes` NULL, in one UPDATE: the
    /// columns whose other values are numbers or dates (a column of text keeps them as written). Run
    /// before ``finish(types:counts:)``, whose conversions then leave them out.
    func nullMissingValues(_ tokens: [String], columns indexes: [Int]) throws {
        guard !tokens.isEmpty, !indexes.isEmpty else { return }
        let list = Array(repeating: "?", count: tokens.count).joined(separator: ", ")
        var assignments: [String] = []
        var conditions: [String] = []
        var arguments: [StoreValue] = []
        for index in indexes {
            let column = Database.quote(identifier: columns[index])
            assignments.append("\(column) = CASE WHEN \(column) IN (\(list)) THEN NULL ELSE \(column) END")
            conditions.append("\(column) IN (\(list))")
        }
        for _ in 0..<(2 * indexes.count) { arguments += tokens.map { StoreValue.text($0) } }
        try database.run(
            "UPDATE \(Database.quote(identifier: table)) SET \(assignments.joined(separator: ", ")) "
                + "WHERE \(conditions.joined(separator: " OR "))",
            arguments
        )
    }

    /// Creates an index on each list of columns (those the table does not have left out), unless there is one.
    func createIndexes(_ indexes: [[String]]) throws {
        for wanted in indexes {
            guard let name = CSVTableSchema.indexName(table, wanted, columns: columns) else { continue }
            let list = present(wanted, columns: columns).map(Database.quote(identifier:)).joined(separator: ", ")
            try database.execute(
                "CREATE INDEX IF NOT EXISTS \(Database.quote(identifier: name)) ON \(Database.quote(identifier: table))(\(list))"
            )
        }
    }

    /// The name of the index on `wanted` (`events_by_ts`), nil when the table has none of those columns.
    static func indexName(_ table: String, _ wanted: [String], columns: [String]) -> String? {
        let list = present(wanted, columns: columns)
        return list.isEmpty ? nil : table + "_by_" + list.joined(separator: "_")
    }

    /// The columns of `wanted` that the table has, spelled as in the table.
    private static func present(_ wanted: [String], columns: [String]) -> [String] {
        wanted.compactMap { name in columns.first { $0.lowercased() == name.lowercased() } }
    }

    private func present(_ wanted: [String], columns: [String]) -> [String] {
        CSVTableSchema.present(wanted, columns: columns)
    }

    /// The declared type of a column of `type`.
    static func declaredType(_ type: CSVColumnType) -> String {
        switch type {
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .date: return "DATE"
        case .dateTime: return "DATETIME"
        case .text: return "TEXT"
        case .boolean: return "BOOLEAN"
        }
    }

    /// The column type a declared type stands for (the inverse of ``declaredType(_:)``; text otherwise).
    static func columnType(declared: String) -> CSVColumnType {
        switch declared.uppercased() {
        case "INTEGER": return .integer
        case "REAL": return .real
        case "DATE": return .date
        case "DATETIME": return .dateTime
        case "BOOLEAN": return .boolean
        default: return .text
        }
    }

    /// Rewrites the table's declaration with the types (https://sqlite.org/lang_altertable.html#otheralter:
    /// a change that leaves the stored records valid, made by editing `sqlite_master` and bumping the
    /// schema version). Only on a file no other connection has open: the loader's own temporary file.
    private func declare(_ types: [CSVColumnType], companions: [String]) throws {
        let definitions =
            zip(columns, types).map { "\(Database.quote(identifier: $0)) \(CSVTableSchema.declaredType($1))" }
            + companions.map { "\(Database.quote(identifier: $0)) TEXT" }
        let sql = "CREATE TABLE \(Database.quote(identifier: table))(\(definitions.joined(separator: ", ")))"
        let version = try database.scalar("PRAGMA schema_version").int64 ?? 0
        try database.execute("PRAGMA writable_schema = ON")
        do {
            try database.run(
                "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?",
                [.text(sql), .text(table)]
            )
            try database.execute("PRAGMA schema_version = \(version + 1)")
        } catch {
            try? database.execute("PRAGMA writable_schema = OFF")
            throw error
        }
        try database.execute("PRAGMA writable_schema = OFF")
    }
}
