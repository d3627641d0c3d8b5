import Foundation
import Glibc
import SQLiteStore

extension ViewExport {
    /// Writes the rows as a new table (``tableName``, its columns typed) in the SQLite database at
    /// `path`: in one transaction when the database exists (a table it had of that name dropped
    /// first, when `existing` says so), else into a new database renamed into place when complete.
    func writeTable(
        _ rows: RowStream,
        types: [AttributeType],
        to path: String,
        replacing existing: Replaced?
    ) throws -> Int {
        if FileManager.default.fileExists(atPath: path), existing != .file {
            let db: Database
            do { db = try ViewExport.openDatabase(path, readOnly: false) } catch {
                throw ViewExportError.cannotWrite(path: path, code: EACCES)
            }
            return try db.transaction {
                if case .table(let table) = existing {
                    let kind = try db.scalar(
                        "SELECT type FROM sqlite_master WHERE type IN ('table', 'view') AND lower(name) = lower(?)",
                        [.text(table)]
                    ).string
                    try db.execute("DROP \(kind == "view" ? "VIEW" : "TABLE") \(Database.quote(identifier: table))")
                }
                return try insert(rows, types: types, into: db)
            }
        }
        let temporary = AtomicFileOutput.temporaryPath(for: path)
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporary + suffix) }
        }
        var options = Database.Options()
        options.walMode = false
        let written: Int
        do {
            let db = try Database(path: temporary, options: options)
            written = try db.transaction { try insert(rows, types: types, into: db) }
        }
        let fd = open(temporary, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            _ = fsync(fd)
            close(fd)
        }
        guard rename(temporary, path) == 0 else { throw ViewExportError.cannotWrite(path: path, code: errno) }
        AtomicFileOutput.syncFolder(of: path)
        return written
    }

    /// Creates the table and inserts the rows (in the caller's transaction).
    private func insert(_ rows: RowStream, types: [AttributeType], into db: Database) throws -> Int {
        let declared = (sectionColumn.map { _ in ["TEXT"] } ?? []) + types.map(ViewExport.declaredType)
        let definitions = zip(columnNames, declared).map { name, type in
            (Database.quote(identifier: name) + " " + type).trimmingCharacters(in: .whitespaces)
        }
        try db.execute(
            "CREATE TABLE \(Database.quote(identifier: tableName)) (\(definitions.joined(separator: ", ")))"
        )
        let sql =
            "INSERT INTO \(Database.quote(identifier: tableName)) VALUES ("
            + Array(repeating: "?", count: definitions.count).joined(separator: ", ") + ")"
        return try rows.readEach { section, values in
            try db.run(sql, (section.map { [StoreValue.text($0)] } ?? []) + values)
        }
    }

    /// The declared type of a column of `type`, as a schema of this project declares it.
    static func declaredType(_ type: AttributeType) -> String {
        switch type {
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .text: return "TEXT"
        case .date: return "DATE"
        case .dateTime: return "DATETIME"
        case .bool: return "BOOLEAN"
        case .blob: return "BLOB"
        @unknown default: return ""
        }
    }
}
