import Foundation
import Synchronization

/// A SQLite file that holds the objects of a ``Model``.
///
/// Opening a store creates the schema from the model (readable snake_case
/// tables, indexes, unique keys), migrates older files through
/// `user_version`, marks the file with the model's `application_id`, and
/// installs the history table and triggers that let other processes' writes
/// be noticed. It refuses — without touching the file — a newer schema
/// version, a file that is not SQLite, and another application's database;
/// and a model it could not write plainly (``StoreError/invalidModel(_:)``: a
/// table or column name that is a keyword or needs quoting, or an entity over
/// another database's table, which ``init(foreignDatabaseAt:model:readOnly:tracking:)`` opens).
///
///     let store = try Store(path: "books.sqlite", model: model)
///     let context = ObjectContext(store: store)
///     try store.bulkWrite { db in /* import a million rows without history */ }
public final class Store {
    /// The connection (shared by the contexts of this store).
    public let database: Database
    /// The model the store's schema follows.
    public private(set) var model: Model
    /// The path as given.
    public let path: String
    /// How many history entries survive pruning (the newest ones). Readers
    /// that fall further behind receive a reset.
    public var historyLimit: Int = 50_000 {
        didSet { historyLimit = max(1, historyLimit) }
    }
    /// Bumped on every commit made through this store's connection, so that
    /// contexts sharing the connection notice each other (`data_version` only
    /// reports other connections).
    var localChangeCounter: Int64 = 0
    /// True for a store over a database this project did not make
    /// (``init(foreignDatabaseAt:model:readOnly:tracking:)``): its schema is never touched.
    public let isForeign: Bool
    /// True when other connections' changes are recorded row by row, so that
    /// ``ObjectContext/processExternalChanges()`` reports them one by one: always for
    /// this project's stores (`store_history`); for a foreign database when the
    /// history table of ``trackingNames`` is installed (``installTracking(forTables:)``).
    /// Without it, any change by another connection is reported as a reset.
    package internal(set) var hasTracking: Bool
    /// What the history table and triggers of a foreign database's tracking are called
    /// (``TrackingNames/standard`` unless the store was opened with others).
    public let trackingNames: TrackingNames
    /// True when a foreign store was opened read-only through a read-write connection (`PRAGMA query_only`).
    private var isQueryOnly = false
    /// Run inside every transaction in which a context of this store saves, undoes or redoes
    /// (``SaveHook``): the app's own invariants, kept by every path that writes through a context.
    public var saveHook: SaveHook?

    let schema: SchemaBuilder

    /// Whether ``readerConnection()`` may open a second connection (not for
    /// immutable snapshots or special files, which must not grow `-shm`/`-wal`).
    private let allowsReaderConnection: Bool
    /// The file the main connection opened (device, inode): the second connection
    /// must open the same one, not a file put at the path since.
    private let fileNode: FileNode?
    /// The random id read from (or written into) the file's `store_metadata`.
    private var storeID: String?
    private var reader: Database?
    private var readerFailed = false
    /// Held while someone uses `reader` (a semaphore: it may be released on the thread that used it).
    private let readerAvailable = DispatchSemaphore(value: 1)
    /// Set when the store goes away: long work on the second connection should stop.
    private let closing = ReaderConnectionLease.Flag()

    /// Opens or creates the store at `path` (see the type's description for what is checked and refused).
    ///
    /// `immutable` (with `readOnly`) is for one-shot readers of a file they may not write: when no
    /// `-wal` file exists the file is opened with SQLite's `immutable=1`, so no `-shm` or `-wal` is
    /// created beside it and no lock is taken (a plain read-only open of a WAL store creates both).
    /// Changes other processes make afterwards are not seen, so a long-lived reader must not ask for it.
    ///
    ///     let snapshot = try Store(path: "/srv/books.sqlite", model: model, readOnly: true, immutable: true)
    ///
    /// A new file is made in one transaction (tables, indexes, triggers, metadata, `user_version`)
    /// under the rollback journal, with 16 KB pages, and switched to WAL afterwards: a kill or an
    /// error during the creation leaves an empty file, which the next open creates again.
    public convenience init(path: String, model: Model, readOnly: Bool = false, immutable: Bool = false) throws {
        try self.init(path: path, model: model, readOnly: readOnly, immutable: immutable, keepingNewFileOutOfWAL: false)
    }

    /// Like ``init(path:model:readOnly:immutable:)``; with `keepingNewFileOutOfWAL`, a file this
    /// open creates stays in the rollback journal (`awaitsWAL`) until `enterWAL()` or until the
    /// store goes away: a bulk load that follows writes its rows once, not to the WAL and again
    /// to the file, and the new file pays for one switch to WAL instead of three.
    package init(
        path: String,
        model: Model,
        readOnly: Bool,
        immutable: Bool,
        keepingNewFileOutOfWAL: Bool
    ) throws {
        try model.validate()
        try Store.checkOwnSchemaNames(model)
        self.path = path
        self.model = model
        self.schema = SchemaBuilder(model: model)
        self.isForeign = false
        self.hasTracking = true
        self.trackingNames = .standard

        // 1. Inspect the file without writing anything.
        let inspector = StoreFileInspector(path: path)
        if !inspector.isSpecial && OpenStoreRegistry.holdsReplacedFile(at: path) {
            throw StoreError.replacedFileStillOpen(path: path)
        }
        let finding = try inspector.inspect()
        if case .database(let version, let appID) = finding {
            try Store.check(version: version, applicationID: appID, model: model, path: path)
            if appID == 0 {
                let db = try inspector.openReadOnly()
                if !(try inspector.tablesMatch(model, in: db)) {
                    throw StoreError.foreignApplication(path: path, applicationID: 0)
                }
            }
        }

        // 2. Open for real.
        var options = Database.Options()
        options.readOnly = readOnly
        if readOnly {
            if case .missing = finding, !inspector.isSpecial { throw StoreError.readOnly(path: path) }
            options.create = false
        }
        var creating = false
        if case .missing = finding, !readOnly, !inspector.isSpecial { creating = true }
        // A new file gets its page size and the rollback journal before its first write, nothing to rewrite.
        if creating { options.walMode = false }
        allowsReaderConnection = !(readOnly && immutable) && !inspector.isSpecial && !path.isEmpty && path != ":memory:"
        let db: Database
        do {
            if readOnly && immutable && !inspector.isSpecial {
                db = try inspector.openReadOnly()
            } else {
                db = try Database(path: path, options: options)
            }
        } catch let error as SQLiteError where error.isNotADatabase {
            throw StoreError.notADatabase(path: path)
        }
        self.database = db
        fileNode = inspector.isSpecial ? nil : FileNode(path: path)
        if let fileNode { OpenStoreRegistry.register(ObjectIdentifier(self), path: path, node: fileNode) }

        // 3. Bring the schema to the model's version.
        if readOnly || db.isReadOnly {
            let version = try db.userVersion()
            try Store.check(version: version, applicationID: try db.applicationID(), model: model, path: path)
            if version != model.version { throw StoreError.readOnly(path: path) }
            storeID = try? readStoreID()  // nil for a store older than the id, which cannot be written here
            self.model = try modelWithEnforcedToOneKeys()
            return
        }
        if creating && !db.isReadOnly { try db.execute("PRAGMA page_size = \(Store.newFilePageSize)") }
        if try !schemaIsCurrent() {
            try db.transaction {
                // Re-check under the write lock: another process may have changed the file meanwhile.
                let version = try db.userVersion()
                let appID = try db.applicationID()
                try Store.check(version: version, applicationID: appID, model: model, path: path)
                if appID == 0, !(try inspector.tablesMatch(model, in: db)) {
                    throw StoreError.foreignApplication(path: path, applicationID: 0)
                }
                if version > 0 && version < model.version {
                    try migrate(from: version)
                }
                try ensureSchema()
                try db.setApplicationID(model.applicationID)
                try db.setUserVersion(model.version)
            }
            db.clearStatementCache()
        }
        storeID = try readStoreID()
        self.model = try modelWithEnforcedToOneKeys()
        if creating {
            if keepingNewFileOutOfWAL { awaitsWAL = true } else { try db.enterWAL() }
        }
    }

    /// The page size of a file the store creates: a big load needs fewer page splits and writes.
    static let newFilePageSize = 16384

    /// True while a file this store created is still in the rollback journal
    /// (`init(path:model:readOnly:immutable:keepingNewFileOutOfWAL:)`).
    package private(set) var awaitsWAL = false

    /// Switches a store that `awaitsWAL` to WAL (outside any transaction); does nothing otherwise.
    package func enterWAL() throws {
        guard awaitsWAL else { return }
        try database.enterWAL()
        awaitsWAL = false
    }

    /// Opens a SQLite database this project did not make, hands off: no schema is created,
    /// nothing is migrated, and `application_id`, `user_version`, `store_metadata` and the
    /// journal mode are left as they are. The model's entities describe existing tables
    /// (``Entity/init(_:tableName:idColumn:attributes:derived:)``, or ``CatalogTable/entity(named:derived:positionColumn:)``).
    ///
    /// `readOnly` opens the file with `SQLITE_OPEN_READONLY` and `PRAGMA query_only`, so a
    /// session leaves it byte-identical and leaves no file beside it (a file in WAL mode without
    /// a `-wal` file is opened read-write but `query_only`, so that closing removes the `-wal` and
    /// `-shm` SQLite makes). Writable, contexts delete and undo through it by the entity's
    /// ``Entity/idColumn`` (in the file's own journal mode). Changes by other connections are seen
    /// through `PRAGMA data_version` as a reset, or row by row once ``installTracking(forTables:)``
    /// has put the triggers named by `tracking` in (<doc:BrowsingForeignDatabases>).
    ///
    ///     let catalog = try DatabaseCatalog(path: "school.sqlite")
    ///     let student = catalog.table(named: "student")!.entity(named: "student")
    ///     let store = try Store(foreignDatabaseAt: "school.sqlite",
    ///                           model: Model(version: 1, applicationID: 0, entities: [student]), readOnly: true)
    ///
    /// - Throws: ``StoreError/missingFile(path:)``, ``StoreError/notADatabase(path:)`` (not SQLite, or damaged),
    ///   ``StoreError/schemaMismatch(table:reason:)`` for an entity whose table or column is not in the file,
    ///   ``SQLiteError`` otherwise.
    public init(
        foreignDatabaseAt path: String,
        model: Model,
        readOnly: Bool,
        tracking: TrackingNames = .standard
    ) throws {
        try model.validate()
        self.path = path
        self.model = model
        self.schema = SchemaBuilder(model: model)
        self.isForeign = true
        self.trackingNames = tracking
        let opened = try ForeignDatabaseOpening.open(
            path: path,
            model: model,
            readOnly: readOnly,
            tracking: TrackingSchema(names: tracking)
        )
        self.database = opened.database
        self.hasTracking = opened.hasTracking
        self.isQueryOnly = opened.isQueryOnly
        allowsReaderConnection = true
        fileNode = FileNode(path: path)
        storeID = nil
        if let fileNode { OpenStoreRegistry.register(ObjectIdentifier(self), path: path, node: fileNode) }
    }

    /// True when the store can write.
    public var isReadOnly: Bool { isQueryOnly || database.isReadOnly }

    deinit {
        if awaitsWAL { try? enterWAL() }
        // Ask a reader still at work on another thread to stop, wait for it, then close it before
        // the main connection, so that the main one (not a read-only one) checkpoints and removes -wal/-shm.
        closing.set()
        reader?.interruptUntilResumed()
        readerAvailable.wait()
        reader = nil
        readerAvailable.signal()
        // SQLite neither checkpoints nor removes the -wal of a file renamed or deleted while open:
        // empty it, or the next file at the path would be read through it (see prepareForReopening()).
        if fileNode != nil && fileAtPath() != .same { _ = emptyLog() }
        if fileNode != nil { OpenStoreRegistry.unregister(ObjectIdentifier(self), path: path) }
    }

    /// Whether this store can have a second connection at all (whether or not it is lent out now).
    package var hasReaderConnection: Bool { allowsReaderConnection && !readerFailed }

    /// A loan of the store's second, read-only connection to the same file,
    /// for use on another thread; nil when another thread has it, for immutable
    /// snapshots and special files, or when it cannot be opened. Opened on
    /// first use; give it back with `ReaderConnectionLease/release()` (from
    /// any thread) once nobody touches it any more.
    ///
    /// It lets work run beside ``database``: a controller splits a large
    /// change set's row reads between the two connections, one per core, and
    /// builds its sort-key prefixes in the background after a fetch. It sees
    /// what is committed, not this store's open transaction. The store, when
    /// it goes away, waits for the connection to be given back.
    ///
    ///     if let lease = store.acquireReaderConnection() {
    ///         DispatchQueue.global().async {
    ///             _ = try? lease.database.scalar("SELECT count(*) FROM book")
    ///             lease.release()
    ///         }
    ///     }
    package func acquireReaderConnection() -> ReaderConnectionLease? {
        guard allowsReaderConnection, !readerFailed, readerAvailable.wait(timeout: .now()) == .success else {
            return nil
        }
        if reader == nil {
            var options = Database.Options()
            options.readOnly = true
            options.create = false
            reader = try? Database(path: path, options: options)
            if reader != nil, fileNode == nil || fileNode != FileNode(path: path) {
                reader = nil  // the file at the path is not the one this store has open
            }
            readerFailed = reader == nil
        }
        guard let reader else {
            readerAvailable.signal()
            return nil
        }
        reader.resume()  // the last holder's work may have been cancelled (interruptUntilResumed)
        return ReaderConnectionLease(connection: reader, available: readerAvailable, closing: closing)
    }

    /// A store of its own writes its schema with plain names: every entity's table and
    /// columns must be identifiers SQLite reads unquoted (ASCII letters, digits and `_`, not a
    /// keyword), and no entity may describe another database's table.
    static func checkOwnSchemaNames(_ model: Model) throws {
        for entity in model.entities {
            if entity.isForeign {
                throw StoreError.invalidModel(
                    "entity \(entity.name) describes the table \(SQLIdentifier.quoted(entity.tableName)) of another "
                        + "database: open that file with Store(foreignDatabaseAt:model:readOnly:tracking:)"
                )
            }
            let columns =
                entity.attributes.map(\.columnName) + entity.relationships.filter(\.storesForeignKey).map(\.columnName)
            for name in [entity.tableName] + columns where !SQLIdentifier.isPlain(name) {
                throw StoreError.invalidModel(
                    "entity \(entity.name): \(SQLIdentifier.quoted(name)) is not a plain SQL name (ASCII letters, "
                        + "digits and _, not a keyword), which a store's own schema needs; rename it or set its column"
                )
            }
        }
    }

    private static func check(version: Int, applicationID: Int32, model: Model, path: String) throws {
        if applicationID != 0 && applicationID != model.applicationID {
            throw StoreError.foreignApplication(path: path, applicationID: applicationID)
        }
        if version > model.version {
            throw StoreError.newerSchemaVersion(found: version, supported: model.version)
        }
    }

    /// Version, application id, history table and triggers are all as the model wants.
    private func schemaIsCurrent() throws -> Bool {
        guard try database.userVersion() == model.version, try database.applicationID() == model.applicationID else {
            return false
        }
        let names =
            model.entities.flatMap { schema.triggerNames(for: $0) } + [
                SchemaBuilder.historyTable, SchemaBuilder.metadataTable,
            ]
        let placeholders = names.map { _ in "?" }.joined(separator: ",")
        let found = try database.scalar(
            "SELECT count(*) FROM sqlite_master WHERE name IN (\(placeholders))",
            names.map { .text($0) }
        )
        guard found.int64 == Int64(names.count) else { return false }
        return try readStoreID() != nil
    }

    /// The random id in `store_metadata` (nil when the row is missing; throws when the table is).
    private func readStoreID() throws -> String? {
        try database.scalar(
            "SELECT value FROM \(SchemaBuilder.metadataTable) WHERE key = ?",
            [.text(SchemaBuilder.storeIDKey)]
        ).string
    }

    private func migrate(from start: Int) throws {
        var version = start
        while version < model.version {
            guard let step = model.migrations.first(where: { $0.from == version }), step.to <= model.version else {
                throw StoreError.missingMigration(from: version, to: model.version)
            }
            try step.migrate(database)
            version = step.to
        }
    }

    /// Creates what is missing (tables, indexes, history) and rebuilds the triggers; checks columns.
    private func ensureSchema() throws {
        for entity in model.entities {
            try database.execute(schema.createTable(for: entity))
        }
        for entity in model.entities {
            let columns = try StoreFileInspector.columns(of: entity.tableName, in: database)
            for column in entity.columnNames where !columns.contains(column) {
                throw StoreError.schemaMismatch(table: entity.tableName, reason: "missing column \(column)")
            }
            try schema.installIndexes(for: entity, in: database)
        }
        try database.execute(schema.createHistoryTable)
        try database.execute(schema.createMetadataTable)
        // A store gets its random id once, at creation (or at the first writable open of a store older than it).
        try database.run(
            "INSERT OR IGNORE INTO \(SchemaBuilder.metadataTable)(key, value) VALUES (?, ?)",
            [.text(SchemaBuilder.storeIDKey), .text(UUID().uuidString)]
        )
        try installTriggers()
    }

    private func installTriggers() throws {
        for entity in model.entities {
            for sql in schema.dropTriggers(for: entity) + schema.createTriggers(for: entity) {
                try database.execute(sql)
            }
        }
    }

    private func dropTriggers() throws {
        for entity in model.entities {
            for sql in schema.dropTriggers(for: entity) { try database.execute(sql) }
        }
    }

    /// Runs `body` in one transaction with history triggers suspended, then
    /// records a single reset marker: readers receive `isReset` and refetch,
    /// instead of a million single-row changes.
    ///
    ///     try store.bulkWrite { db in
    ///         let insert = try db.statement("INSERT INTO book(name, author, language) VALUES (?, ?, ?)")
    ///         for row in rows { try insert.bind(row); _ = try insert.step(); insert.reset() }
    ///     }
    package func bulkWrite(_ body: (Database) throws -> Void) throws {
        guard !isReadOnly else { throw StoreError.readOnly(path: path) }
        if isForeign {
            // No triggers of ours to suspend; readers see the write through data_version or the tracking history.
            try database.transaction { try body(database) }
            localChangeCounter &+= 1
            return
        }
        try database.transaction {
            try dropTriggers()
            try body(database)
            try installTriggers()
            try recordReset()
            try pruneHistory()
        }
        localChangeCounter &+= 1
    }

    /// The sequence number of the newest history entry (0 when none was ever written).
    ///
    /// A foreign database without tracking has no history: the number then only changes
    /// when the data may have (another connection's commit, seen through `PRAGMA data_version`,
    /// or a save through this store), and means nothing to another connection or process.
    public func historyPosition() throws -> Int64 {
        if isForeign {
            guard hasTracking else { return (try database.dataVersion() << 24) &+ (localChangeCounter & 0xFF_FFFF) }
            return try database.scalar("SELECT max(seq) FROM \(trackingSchema.historyTable)").int64 ?? 0
        }
        return try database.scalar(
            "SELECT seq FROM sqlite_sequence WHERE name = ?",
            [.text(SchemaBuilder.historyTable)]
        ).int64 ?? 0
    }

    /// Whether the file has triggers besides those that write the history (a store's own
    /// `<table>_history_<op>`, a foreign database's tracking triggers): an undo turns those
    /// off while it puts rows back, and then records a reset instead (``recordReset()``).
    func hasTriggersBesidesHistory() throws -> Bool {
        let history: Set<String> =
            isForeign ? [] : Set(model.entities.flatMap { schema.triggerNames(for: $0) })
        let prefix = trackingSchema.triggerPrefix
        for row in try database.query("SELECT name FROM sqlite_master WHERE type = 'trigger'") {
            guard let name = row.first?.string else { continue }
            if history.contains(name) || (isForeign && name.hasPrefix(prefix)) { continue }
            return true
        }
        return false
    }

    /// Appends a reset marker to the history (inside the caller's transaction): readers
    /// refetch everything. For writes that ran with the history triggers off. A foreign
    /// database without tracking needs none: any change of it is a reset for its readers.
    func recordReset() throws {
        if isForeign {
            guard hasTracking else { return }
            try database.run(
                "INSERT INTO \(trackingSchema.historyTable)(table_name, row_id, op) VALUES ('', 0, 'R')"
            )
            return
        }
        try database.run("INSERT INTO \(SchemaBuilder.historyTable)(entity, row_id, op) VALUES ('', 0, 'R')")
    }

    /// Deletes history older than the newest `historyLimit` entries.
    func pruneHistory() throws {
        if isForeign {
            guard hasTracking else { return }
            try database.run(
                "DELETE FROM \(trackingSchema.historyTable) WHERE seq <= (SELECT max(seq) FROM \(trackingSchema.historyTable)) - ?",
                [.integer(Int64(historyLimit))]
            )
            return
        }
        try database.run(
            "DELETE FROM \(SchemaBuilder.historyTable) WHERE seq <= (SELECT max(seq) FROM \(SchemaBuilder.historyTable)) - ?",
            [.integer(Int64(historyLimit))]
        )
    }
}

extension Store {
    /// What tells this store's file apart from every other file, including one
    /// created later at the same path (see ``StoreIdentity``).
    ///
    ///     let fingerprint = "\(store.identity);rows=\(count)"
    package var identity: StoreIdentity {
        StoreIdentity(storeID: storeID, device: fileNode?.device, inode: fileNode?.inode)
    }

    /// Whether the path still names the file this store has open: one `stat`, cheap
    /// enough for every poll of a run loop (not for every row).
    ///
    /// `.replaced` means another file was renamed over the path (or the store was
    /// deleted and another created there): this store goes on reading and writing
    /// the old, unlinked file. To follow the path, call `prepareForReopening()`,
    /// release this store (every context and controller over it), then open a new
    /// `Store` at the path; a new store is refused while this one lives
    /// (``StoreError/replacedFileStillOpen(path:)``).
    ///
    ///     if store.fileAtPath() == .replaced { reopen() }
    package func fileAtPath() -> StoreFileAtPath {
        guard let fileNode else { return .same }
        guard let now = FileNode(path: path) else { return .missing }
        return now == fileNode ? .same : .replaced
    }

    /// Gets this store out of the way of the file now at its path, before it is
    /// released and the path opened again: closes the second connection and empties
    /// the write-ahead log into this store's own file (`wal_checkpoint(TRUNCATE)`).
    ///
    /// Why: SQLite does not checkpoint on close a file that was renamed or deleted
    /// while open, and leaves its `-wal`, named after the path; a connection to the
    /// new file would read the old file's pages from it. (A store released while its
    /// path names another file does this too, last thing before it closes.) Afterwards
    /// this store still reads, but should only be released. Returns false when the log
    /// could not be emptied (another process has the old file open and is reading it).
    ///
    ///     guard store.fileAtPath() == .replaced else { return }
    ///     _ = store.prepareForReopening()
    ///     context = nil; controller = nil; store = nil    // every reference
    ///     store = try Store(path: path, model: model)
    @discardableResult
    package func prepareForReopening() -> Bool {
        closing.set()
        reader?.interruptUntilResumed()
        readerAvailable.wait()
        reader = nil
        readerFailed = true
        readerAvailable.signal()
        return emptyLog()
    }

    /// `wal_checkpoint(TRUNCATE)`: true when the log is empty afterwards.
    private func emptyLog() -> Bool {
        guard !database.isInTransaction,
            let row = try? database.query("PRAGMA wal_checkpoint(TRUNCATE)").first
        else { return false }
        return row.first?.int64 == 0
    }
}

/// A loan of a store's second connection (`Store/acquireReaderConnection()`):
/// one thread at a time uses ``database`` until ``release()``.
package final class ReaderConnectionLease: @unchecked Sendable {
    /// A flag one thread sets and others read.
    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .relaxed) }
        var isSet: Bool { value.load(ordering: .relaxed) }
    }

    private var connection: Database?
    private let available: DispatchSemaphore
    private let closing: Flag

    init(connection: Database, available: DispatchSemaphore, closing: Flag) {
        self.connection = connection
        self.available = available
        self.closing = closing
    }

    /// The connection (valid until ``release()``).
    package var database: Database { connection! }

    /// True once the store is going away: long work should stop and release the connection
    /// (the store waits for it). Check it every few thousand rows.
    package var storeIsClosing: Bool { closing.isSet }

    /// Gives the connection back (once; a lease dropped unreleased gives it back too).
    package func release() {
        guard connection != nil else { return }
        connection = nil
        available.signal()
    }

    deinit { release() }
}
