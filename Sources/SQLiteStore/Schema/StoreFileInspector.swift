import Foundation
import Glibc

/// Looks at an existing file before the store writes anything to it.
///
/// A store must refuse a newer schema, a non-SQLite file, or another
/// application's database *without changing a byte*: not even switching to WAL
/// or leaving `-wal`/`-shm` files behind. So the inspector first reads the
/// 100-byte SQLite header directly (`user_version` at offset 60,
/// `application_id` at 68), and opens the file read-only only when it must
/// list tables or when a WAL file may hold a newer header.
struct StoreFileInspector {
    enum Finding {
        /// No file, or an empty one: create the schema.
        case missing
        /// A SQLite file with these header values.
        case database(userVersion: Int, applicationID: Int32)
    }

    let path: String

    /// True for SQLite's special names that have no file to inspect.
    var isSpecial: Bool { path.isEmpty || path == ":memory:" || path.hasPrefix("file:") }

    func inspect() throws -> Finding {
        if isSpecial { return .missing }
        // stat, not open: opening a FIFO for reading blocks until a writer comes, and a
        // directory or device is no database either.
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw StoreError.notADatabase(path: path) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError.notADatabase(path: path)
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        if header.isEmpty { return .missing }
        let magic = Array("SQLite format 3".utf8) + [0]
        guard header.count == 100, Array(header.prefix(16)) == magic else {
            throw StoreError.notADatabase(path: path)
        }
        let bytes = [UInt8](header)
        func int32(at offset: Int) -> Int32 {
            Int32(
                bitPattern: UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2])
                    << 8 | UInt32(bytes[offset + 3])
            )
        }
        if !walHasContent {
            return .database(userVersion: Int(int32(at: 60)), applicationID: int32(at: 68))
        }
        // Committed pages may still sit in the WAL: ask SQLite (read-only; -wal/-shm exist already).
        let db = try openReadOnly()
        return .database(userVersion: try db.userVersion(), applicationID: try db.applicationID())
    }

    private var walHasContent: Bool {
        let attrs = try? FileManager.default.attributesOfItem(atPath: path + "-wal")
        return ((attrs?[.size] as? NSNumber)?.intValue ?? 0) > 0
    }

    /// A read-only connection that creates no files: `immutable=1` when no WAL exists
    /// (nothing else is writing through WAL), otherwise plain `mode=ro`.
    func openReadOnly() throws -> Database {
        var options = Database.Options()
        options.readOnly = true
        options.create = false
        var uri = "file:" + StoreFileInspector.uriEscape(path) + "?mode=ro"
        if !walHasContent && !FileManager.default.fileExists(atPath: path + "-wal") { uri += "&immutable=1" }
        do {
            return try Database(uri: uri, path: path, options: options)
        } catch let error as SQLiteError where error.isNotADatabase {
            throw StoreError.notADatabase(path: path)
        }
    }

    /// True when `path` is a regular file whose first 16 bytes are SQLite's header magic.
    static func hasSQLiteHeader(path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
            let handle = FileHandle(forReadingAtPath: path)
        else { return false }
        defer { try? handle.close() }
        let magic = Array("SQLite format 3".utf8) + [0]
        return (try? handle.read(upToCount: 16)).map { Array($0) == magic } ?? false
    }

    /// Names of the user tables in the file (not sqlite_*, the history table or the metadata table).
    func userTables(in db: Database) throws -> [String] {
        try db.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT IN (?, ?) ORDER BY name",
            [.text(SchemaBuilder.historyTable), .text(SchemaBuilder.metadataTable)]
        ).compactMap { $0.first?.string }
    }

    /// Columns of a table.
    static func columns(of table: String, in db: Database) throws -> Set<String> {
        Set(try db.query("SELECT name FROM pragma_table_xinfo(?)", [.text(table)]).compactMap { $0.first?.string })
    }

    /// True when every table in the file belongs to the model and has the model's columns.
    func tablesMatch(_ model: Model, in db: Database) throws -> Bool {
        let tables = try userTables(in: db)
        for table in tables {
            guard let entity = model.entity(forTable: table) else { return false }
            let columns = try StoreFileInspector.columns(of: table, in: db)
            guard Set(entity.columnNames).isSubset(of: columns) else { return false }
        }
        return true
    }

    /// Escapes the characters a `file:` URI gives meaning to (`%`, `?`, `#`); other bytes pass as UTF-8.
    static func uriEscape(_ path: String) -> String {
        var bytes: [UInt8] = []
        for u in path.utf8 {
            if u == UInt8(ascii: "%") || u == UInt8(ascii: "?") || u == UInt8(ascii: "#") {
                bytes += Array(String(format: "%%%02X", u).utf8)
            } else {
                bytes.append(u)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
