/// The SQL of tracking: the history table named by ``TrackingNames`` and the
/// triggers that fill it (documented in <doc:BrowsingForeignDatabases>).
///
///     CREATE TABLE store_tracking (
///       seq INTEGER PRIMARY KEY,      -- grows by one per entry (the newest entries survive pruning)
///       table_name TEXT NOT NULL,     -- the table as named in sqlite_master
///       row_id INTEGER NOT NULL,      -- the changed row's rowid
///       op TEXT NOT NULL              -- 'I' insert, 'U' update, 'D' delete
///     )
///
/// and per tracked table `store_tracking_insert_<table>`, `…_update_<table>`
/// and `…_delete_<table>` (AFTER triggers; an update that changes the rowid is
/// recorded as a delete of the old and an insert of the new one).
struct TrackingSchema {
    let names: TrackingNames
    var historyTable: String { names.historyTable }
    /// What every trigger of ours is called: `<prefix><op>_<table>`.
    var triggerPrefix: String { names.triggerPrefix }

    var createTable: String {
        """
        CREATE TABLE IF NOT EXISTS \(historyTable) (
          seq INTEGER PRIMARY KEY,
          table_name TEXT NOT NULL,
          row_id INTEGER NOT NULL,
          op TEXT NOT NULL
        )
        """
    }

    func triggerNames(table: String) -> [String] {
        ["insert", "update", "delete"].map { SQLIdentifier.alwaysQuoted(triggerPrefix + $0 + "_" + table) }
    }

    /// `DROP TRIGGER IF EXISTS` and `CREATE TRIGGER` for one table whose rowid is `rowIDColumn`.
    func triggers(table: String, rowIDColumn: String) -> [String] {
        let names = triggerNames(table: table)
        let t = SQLIdentifier.quoted(table)
        let name = Database.quote(literal: table)
        let r = SQLIdentifier.quoted(rowIDColumn)
        let insert = "INSERT INTO \(historyTable)(table_name, row_id, op)"
        return names.map { "DROP TRIGGER IF EXISTS \($0)" } + [
            "CREATE TRIGGER \(names[0]) AFTER INSERT ON \(t) BEGIN\n  \(insert) VALUES (\(name), NEW.\(r), 'I');\nEND",
            "CREATE TRIGGER \(names[1]) AFTER UPDATE ON \(t) BEGIN\n"
                + "  \(insert) SELECT \(name), OLD.\(r), 'D' WHERE OLD.\(r) IS NOT NEW.\(r);\n"
                + "  \(insert) VALUES (\(name), NEW.\(r), CASE WHEN OLD.\(r) IS NEW.\(r) THEN 'U' ELSE 'I' END);\nEND",
            "CREATE TRIGGER \(names[2]) AFTER DELETE ON \(t) BEGIN\n  \(insert) VALUES (\(name), OLD.\(r), 'D');\nEND",
        ]
    }

    func isInstalled(in database: Database) throws -> Bool {
        try database.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
            [.text(historyTable)]
        ).int64 == 1
    }

    /// The names of our triggers in the file.
    func installedTriggers(in database: Database) throws -> [String] {
        try database.query(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ?",
            [.integer(Int64(triggerPrefix.utf8.count)), .text(triggerPrefix)]
        ).compactMap { $0.first?.string }
    }
}

extension Store {
    /// Installs history triggers on `tables` of a foreign database (`fetchedtable --track`):
    /// the history table of ``trackingNames`` and AFTER INSERT/UPDATE/DELETE triggers on each table,
    /// so that other processes' changes reach ``ObjectContext/processExternalChanges()`` row by
    /// row (O(K log N) in a controller) instead of as a reset. Installing again is harmless.
    /// Each table needs a rowid (not a view, not `WITHOUT ROWID`).
    ///
    ///     let store = try Store(foreignDatabaseAt: "big.sqlite", model: model, readOnly: false)
    ///     try store.installTracking(forTables: ["events"])
    ///
    /// - Throws: ``StoreError/readOnly(path:)``, ``StoreError/noRowID(table:)``, ``StoreError/schemaMismatch(table:reason:)``
    ///   for a table the file does not have.
    public func installTracking(forTables tables: [String]) throws {
        guard isForeign else { return }  // this project's stores have their own history
        guard !isReadOnly else { throw StoreError.readOnly(path: path) }
        try database.transaction {
            try database.execute(trackingSchema.createTable)
            for table in tables {
                guard let inspected = try CatalogInspection.table(named: table, in: database) else {
                    throw StoreError.schemaMismatch(table: table, reason: "no such table")
                }
                guard let rowID = inspected.rowIDColumn, !inspected.isView else {
                    throw StoreError.noRowID(table: table)
                }
                for sql in trackingSchema.triggers(table: inspected.name, rowIDColumn: rowID) {
                    try database.execute(sql)
                }
            }
        }
        database.clearStatementCache()
        hasTracking = true
    }

    /// Removes what ``installTracking(forTables:)`` installed (`fetchedtable untrack FILE`): every
    /// trigger named with ``trackingNames``' prefix and its history table, leaving the schema
    /// as it was before. Afterwards other processes' changes are seen as resets again.
    ///
    ///     try Store(foreignDatabaseAt: "big.sqlite", model: Model(version: 1, applicationID: 0, entities: []),
    ///               readOnly: false).removeTracking()
    public func removeTracking() throws {
        guard isForeign else { return }
        guard !isReadOnly else { throw StoreError.readOnly(path: path) }
        try database.transaction {
            for name in try trackingSchema.installedTriggers(in: database) {
                try database.execute("DROP TRIGGER IF EXISTS \(SQLIdentifier.alwaysQuoted(name))")
            }
            try database.execute("DROP TABLE IF EXISTS \(trackingSchema.historyTable)")
        }
        database.clearStatementCache()
        hasTracking = false
    }

    /// The SQL of this store's tracking names.
    var trackingSchema: TrackingSchema { TrackingSchema(names: trackingNames) }

    /// Whether the file has the tracking table now (another process may have installed or removed it).
    func refreshTracking() throws -> Bool {
        hasTracking = try trackingSchema.isInstalled(in: database)
        return hasTracking
    }
}
