import CSQLite

extension Database {
    /// Copies this database, page by page, into the database file at `path`
    /// with SQLite's online backup API (`sqlite3_backup_*`): a consistent
    /// snapshot even while other connections write, WAL content included.
    ///
    /// `path` is replaced by the copy; the caller decides whether it may be
    /// (create it beforehand to choose its permissions).
    ///
    ///     try store.database.backup(to: "/backups/stash-2026-12-01.sqlite")
    public func backup(to path: String) throws {
        var destination: OpaquePointer?
        let rc = sqlite3_open_v2(
            path,
            &destination,
            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
            nil
        )
        defer { sqlite3_close_v2(destination) }
        guard rc == SQLITE_OK, let destination else {
            throw SQLiteError(code: rc, message: "cannot open the backup file \(path)", sql: nil)
        }
        sqlite3_busy_timeout(destination, 5000)
        guard let backup = sqlite3_backup_init(destination, "main", handle, "main") else {
            let message = String(cString: sqlite3_errmsg(destination))
            throw SQLiteError(
                code: sqlite3_extended_errcode(destination),
                message: "backup to \(path): \(message)",
                sql: nil
            )
        }
        var step = SQLITE_OK
        var waits = 0
        repeat {
            step = sqlite3_backup_step(backup, -1)
            if step == SQLITE_BUSY || step == SQLITE_LOCKED {
                waits += 1
                sqlite3_sleep(20)  // another connection holds a lock: wait up to 5 s in all
            }
        } while step == SQLITE_OK || ((step == SQLITE_BUSY || step == SQLITE_LOCKED) && waits < 250)
        let finish = sqlite3_backup_finish(backup)
        guard step == SQLITE_DONE, finish == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(destination))
            throw SQLiteError(
                code: step == SQLITE_DONE ? finish : step,
                message: "backup to \(path): \(message)",
                sql: nil
            )
        }
    }
}
