extension Database {
    /// Opens an existing SQLite file only to read it, creating nothing beside it and changing
    /// nothing in it: `immutable=1` when it has no `-wal` file, else plain `mode=ro`.
    ///
    /// For reading another program's database (an old app's store to import from), which must be
    /// left exactly as it was, even in a folder that cannot be written.
    ///
    ///     let old = try Database.openReadOnly(path: "BooksCD.sqlite")
    ///     let tables = try old.tableNames()          // ["ZBOOKDETAILS", "ZBOOK", …]
    ///     let names = try old.query("SELECT ZNAME FROM ZBOOK")
    ///
    /// The file's schema is not trusted (`PRAGMA trusted_schema = OFF`: its views, triggers and generated
    /// columns may call only innocuous functions) and the connection is in defensive mode
    /// (`SQLITE_DBCONFIG_DEFENSIVE`: no `writable_schema`, no writes to shadow tables).
    ///
    /// - Throws: ``StoreError/notADatabase(path:)`` for a file that is not SQLite, ``SQLiteError`` otherwise.
    public static func openReadOnly(path: String) throws -> Database {
        let db = try StoreFileInspector(path: path).openReadOnly()
        try db.distrustSchema()
        do {
            // SQLite reads the file on first use: a file that is not a database is refused here.
            _ = try db.scalar("SELECT count(*) FROM sqlite_master")
        } catch let error as SQLiteError where error.isNotADatabase {
            throw StoreError.notADatabase(path: path)
        }
        return db
    }

    /// The names of the tables in the main schema (without SQLite's own `sqlite_*` tables), sorted.
    public func tableNames() throws -> [String] {
        try query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
        )
        .compactMap { $0.first?.string }
    }

    /// True when `path` starts with SQLite's 16-byte header magic (`SQLite format 3` and a NUL).
    ///
    ///     Database.hasSQLiteHeader(path: "books.csv")   // false
    package static func hasSQLiteHeader(path: String) -> Bool {
        StoreFileInspector.hasSQLiteHeader(path: path)
    }
}
