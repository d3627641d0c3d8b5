import SQLiteStore

/// The bulk path of an import into tables that hold no rows: one
/// `Store.bulkWrite(_:)` (history suppressed, readers get one reset), with
/// the secondary indexes dropped before the load and rebuilt after it
/// (deferred indexes), foreign-key checks off for the load (the rows are
/// consistent by construction), and the rollback journal instead of WAL when
/// no other connection has the file open (the data is then written once,
/// not to the WAL and again to the file), with 16 KB pages for a new file. A store
/// created for the load (`Store.awaitsWAL`) keeps its rollback journal and enters WAL once,
/// after the load. The file's pages are written back to the disk while the load and the index
/// builds run (`FileWriteback`), so the commit's sync finds little left to write.
/// Atomic even if the process is killed: SQLite's journal undoes a partial load.
///
///     let done = try EmptyStoreLoad.run(store: store, tables: ["student"]) { db in
///         let insert = try db.uncachedStatement("INSERT INTO student(name, number) VALUES (?, ?)")
///         try insert.bind("Ada", at: 1); try insert.bind(Int64(1), at: 2)
///         _ = try insert.step(); insert.reset()
///     }
///     // done == false when "student" already held rows: nothing was written
package enum EmptyStoreLoad {
    /// Runs `load` inside the bulk write when every table of `tables` is empty; false (nothing done) when
    /// one holds rows, checked before and again under the write lock. An error from `load` rolls the
    /// whole load back and is rethrown.
    ///
    /// Indexes whose first column is `keepingIndexesLeadingWith` stay (a loader that appends to them in
    /// order pays less than sorting them afterwards).
    package static func run(
        store: Store,
        tables: [String],
        keepingIndexesLeadingWith kept: String? = nil,
        allowJournalSwitch: Bool = true,
        trace: ImportTrace = ImportTrace(enabled: false),
        load: (Database) throws -> Void
    ) throws -> Bool {
        let db = store.database
        guard try isEmpty(db, tables) else { return false }

        // Connection settings, outside the transaction.
        let foreignKeys = try db.scalar("PRAGMA foreign_keys").int64 ?? 1
        try db.execute("PRAGMA foreign_keys = OFF")
        // A store created for this load is still in the rollback journal: it enters WAL once, after the load.
        if store.awaitsWAL && !allowJournalSwitch { try store.enterWAL() }
        let newStore = store.awaitsWAL
        let journal = allowJournalSwitch && !newStore ? switchToRollbackJournal(db, trace) : nil
        trace(
            newStore
                ? "journal: new store, rollback journal until after the load"
                : journal == nil ? "journal: WAL kept" : "journal: rollback journal for the load"
        )
        if journal != nil { enlargePages(db, trace) }
        defer {
            if let journal { _ = try? db.scalar("PRAGMA journal_mode = \(journal)") }
            if newStore { try? store.enterWAL() }
            try? db.execute("PRAGMA foreign_keys = \(foreignKeys)")
        }

        do {
            // The pages reach the disk during the load and the index builds, not all at the commit's sync.
            try FileWriteback.during(db) {
                try store.bulkWrite { db in
                    // Re-check under the write lock: another process may have imported meanwhile.
                    guard try isEmpty(db, tables) else { throw NotEmpty() }
                    let indexes = try dropSecondaryIndexes(db, tables, keepingLeadingColumn: kept)
                    trace("prepared")
                    try load(db)
                    trace("loaded")
                    // The sorter's runs follow cache_size (SQLiteStore makes their floor small): 500 KB runs
                    // stay in the CPU's cache and sort faster; PRAGMA threads = 2 was measured slower.
                    let cacheSize = try db.scalar("PRAGMA cache_size").int64 ?? -2000
                    try db.execute("PRAGMA cache_size = -500")
                    defer { try? db.execute("PRAGMA cache_size = \(cacheSize)") }
                    for sql in indexes {
                        try db.execute(sql)
                        trace(sql)
                    }
                }
            }
            trace("committed")
        } catch is NotEmpty {
            return false
        }
        return true
    }

    private struct NotEmpty: Error {}

    private static func isEmpty(_ db: Database, _ tables: [String]) throws -> Bool {
        let conditions = tables.map { "NOT EXISTS (SELECT 1 FROM \(Database.quote(identifier: $0)))" }
        return try db.scalar("SELECT " + conditions.joined(separator: " AND ")).int64 == 1
    }

    /// Drops the indexes of `tables` (not the automatic ones) and returns their SQL, to recreate them.
    private static func dropSecondaryIndexes(
        _ db: Database,
        _ tables: [String],
        keepingLeadingColumn kept: String?
    ) throws -> [String] {
        let list = tables.map(Database.quote(literal:)).joined(separator: ", ")
        let rows = try db.query(
            """
            SELECT name, sql FROM sqlite_master
            WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (\(list))
            ORDER BY name
            """
        )
        var sql: [String] = []
        for row in rows {
            guard let name = row[0].string, let create = row[1].string else { continue }
            if let kept {
                let first = try db.query("SELECT name FROM pragma_index_info(?) ORDER BY seqno LIMIT 1", [.text(name)])
                if first.first?.first == .text(kept) { continue }
            }
            try db.execute("DROP INDEX \(Database.quote(identifier: name))")
            sql.append(create)
        }
        return sql
    }

    /// Leaves WAL for the rollback journal when no other connection has the file open.
    /// Returns the mode to restore, or nil when nothing was changed.
    private static func switchToRollbackJournal(_ db: Database, _ trace: ImportTrace) -> String? {
        let current: StoreValue
        do { current = try db.scalar("PRAGMA journal_mode") } catch {
            trace("journal mode unknown: \(error)")
            return nil
        }
        guard let mode = current.string?.lowercased(), mode == "wal" else {
            trace("journal mode \(current)")
            return nil
        }
        // Do not wait for other connections: if any has the file open, keep WAL.
        let timeout = (try? db.scalar("PRAGMA busy_timeout"))?.int64 ?? 5000
        try? db.execute("PRAGMA busy_timeout = 0")
        defer { try? db.execute("PRAGMA busy_timeout = \(timeout)") }
        let result: StoreValue
        do { result = try db.scalar("PRAGMA journal_mode = DELETE") } catch {
            trace("journal switch refused: \(error)")
            return nil
        }
        guard let now = result.string?.lowercased(), now == "delete" else {
            trace("journal switch refused: \(result)")
            return nil
        }
        return mode
    }

    /// Gives a store whose tables are empty 16 KB pages (a one-off `VACUUM` of an almost empty file):
    /// a big load then needs fewer page splits and writes. Only in rollback-journal mode (WAL cannot
    /// change the page size) and only when nobody else has the file open (checked by the switch).
    private static func enlargePages(_ db: Database, _ trace: ImportTrace) {
        guard let size = (try? db.scalar("PRAGMA page_size"))?.int64, size < 16384 else { return }
        do {
            try db.execute("PRAGMA page_size = 16384")
            try db.execute("VACUUM")
            trace("page size 16384")
        } catch {
            trace("page size kept: \(error)")
        }
    }
}
