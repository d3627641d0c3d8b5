import BaseDirectories
import CSVImport
import Foundation
import SQLiteStore
import Synchronization
import Timekeeping

/// Loads any CSV file into a typed table of a new SQLite database: the
/// dialect sniffed (`CSVDialect`), the columns named after the header
/// (`CSVColumnNames`) and typed from every value (`CSVColumnTypeInference`),
/// all-or-nothing with `FILE:LINE` errors, reporting progress and handing
/// over the first rows while the rest loads.
///
/// ``load()`` uses the file's cache database (``CSVCacheLocation``): opened
/// as it is while the file's size and mtime are unchanged, else built anew.
/// ``build(at:)`` builds a database at a path of one's choosing.
///
/// **How it is fast.** One pass over the file, through the bulk import's
/// two-thread pipeline (`TwoThreadLoad`): a second thread parses, types
/// and decodes fields into batches (`ImportRows` counts rows, reports
/// progress and lists bad rows), while the calling thread appends them with
/// multi-row INSERTs. Types are inferred on the fly, not in a first pass:
/// the columns are created without a declared type, so SQLite keeps each
/// value as bound — integers and reals (written as they read back) as
/// numbers, everything else as text — and at the end one UPDATE converts the
/// values of columns whose type turned out otherwise (rare: a number in a text
/// column; `1.50` in a real column), then the types are declared. The
/// database is a new private file: it is built with 16 KB pages, no journal
/// and no syncing until the end, into a temporary file that is synced and
/// renamed into place only when complete — the rename is what makes the load
/// all-or-nothing, so `EmptyStoreLoad`'s rollback journal and index
/// juggling are not needed (there is nothing to roll back to, and no index).
///
/// **Errors** are ``EntityImportError``s: a row with more or fewer fields
/// than the header is `FILE:LINE: expected 5 fields, found 4`, and any bad
/// row refuses the whole file (the first ones listed, all counted) unless
/// ``Options/importOptions`` says `skipBadRows`. A cancelled load throws
/// `CancellationError`. Either way nothing is left behind.
///
///     let loader = CSVTableLoader(source: "events.csv")
///     loader.progress = { print("\(Int(($0.fraction ?? 0) * 100)) %") }   // on the parsing thread
///     loader.firstRows = { preview in print(preview.rows.count) }          // on the loading thread, once
///     let table = try loader.load()
///     let db = try Database(path: table.databasePath, options: { var o = Database.Options(); o.readOnly = true; return o }())
///     try db.scalar("SELECT count(*) FROM \(Database.quote(identifier: table.tableName))")   // .integer(1000000)
public final class CSVTableLoader: @unchecked Sendable {
    /// How the table is made.
    public struct Options: Sendable {
        /// The table's name; by default the file's name without its extension (`csv` when that is empty).
        public var tableName: String?
        /// How many rows ``CSVTableLoader/firstRows`` receives (fewer when the file has fewer).
        public var firstRowCount = 100
        /// Whether bad rows refuse the file (the default) or are skipped and listed; how many are listed.
        public var importOptions = ImportOptions()
        /// The cache folder for ``CSVTableLoader/load()``; by default `CSVCacheLocation.defaultDirectory(for:environment:)`.
        public var cacheDirectory: String?
        /// The dialect; nil to sniff it from the file.
        public var dialect: CSVDialect?
        /// Indexes to have on the table, each a list of column names (e.g. `[["ts"]]` for a view sorted by
        /// `ts`, either way). Built after the rows are loaded (one sort, not a B-tree insert per row); on a
        /// reused cache, the missing ones are added. Names the table does not have are left out.
        public var indexes: [[String]] = []
        /// Table names a file's name does not become (it gets `_csv` added), compared ignoring case:
        /// the tables a store keeps for itself. An app that tracks changes under other
        /// `TrackingNames` (SQLiteStore) adds its history table.
        package var reservedTableNames: Set<String> = [
            "store_history", "store_metadata", TrackingNames.standard.historyTable,
        ]
        /// The fields that stand for a missing value (``defaultMissingValues`` unless set; empty for none):
        /// NULL in a column whose other values are numbers or dates, which then sorts and compares as one
        /// (a flights file's `dep_delay` of numbers and `NA`); kept as written in a column of text. Part of
        /// the cache's identity: another set builds another cache.
        public var missingValues: [String] = CSVTableLoader.defaultMissingValues
        /// The history a cache keeps of its changes (the rows appended to a growing file: see
        /// ``CSVCacheLocation``), for a `Store` opened on it with these names; nil (the default) for none.
        public var tracking: TrackingNames?
        /// The defaults: named after the file, 100 first rows, all-or-nothing, the default cache, sniffed.
        public init() {}

        /// What besides the file tells its caches apart (``CSVCacheLocation``'s variant): the missing-value
        /// tokens when they are not the default ones; empty otherwise.
        var cacheVariant: String {
            missingValues == CSVTableLoader.defaultMissingValues
                ? "" : "na:" + missingValues.joined(separator: "\u{1F}")
        }
    }

    /// The first rows of the file, handed over while the rest loads.
    public struct Preview: Sendable, Equatable {
        /// The table's column names.
        public var columns: [String]
        /// The first rows' fields as text (nil for an empty field).
        public var rows: [[String?]]
        /// The dialect the file is read in.
        public var dialect: CSVDialect
    }

    /// The database described by a cache file does not hold the table asked for.
    public struct NoSuchTable: Error, CustomStringConvertible {
        /// The path of the database file the cache names.
        public var path: String
        /// The table looked for.
        public var table: String
        public var description: String { "\(path): no table \"\(table)\"" }
    }

    /// The missing-value tokens R, pandas and spreadsheets write: `NA`, `N/A`, `NULL`, `null`, `NaN`, `-`.
    public static let defaultMissingValues = ["NA", "N/A", "NULL", "null", "NaN", "-"]

    /// The most columns a file may have: SQLite's default `SQLITE_MAX_COLUMN`, the most a table can have.
    /// A file with more is refused at once (`FILE:1: the header has 10000 columns, more than the 2000 …`).
    package static let maxColumns = 2000

    /// The CSV file.
    public let source: String
    /// How the table is made.
    public let options: Options
    /// Called on the parsing thread at most ~10 times a second, and once at the end of the file.
    public var progress: (@Sendable (ImportProgress) -> Void)?
    /// Called once on the loading thread with the first ``Options/firstRowCount`` rows, as soon as they are
    /// written (the rest still loading); not called when the table is reused from the cache.
    public var firstRows: ((Preview) -> Void)?
    private let cancelled = Atomic<Bool>(false)

    /// A loader of the CSV file at `source`.
    public init(source: String, options: Options = Options()) {
        self.source = source
        self.options = options
    }

    /// Stops a running load soon (from any thread): it throws `CancellationError` and leaves nothing behind.
    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// True once ``cancel()`` was called.
    package var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Whether the file's cache database for these options is up to date: ``load()`` would reuse it at once.
    package var isCached: Bool {
        let location = try? CSVCacheLocation(
            source: source,
            directory: options.cacheDirectory,
            variant: options.cacheVariant
        )
        return location?.isBuilt ?? false
    }

    /// The table of the file's cache database: reused when up to date, completed with the rows
    /// appended since when the file only grew, else built (see the type's summary).
    public func load() throws -> CSVTable {
        var location: CSVCacheLocation
        do {
            location = try CSVCacheLocation(
                source: source,
                directory: options.cacheDirectory,
                variant: options.cacheVariant
            )
        } catch let error as CSVError {
            throw EntityImportError.unreadable(path: source, error)
        }
        if let reused = try reusing(location) { return reused }
        var notice: String?
        do { try location.makeDirectory() } catch let unwritable as CSVError {
            // A cache folder that cannot be written is no reason not to show the file: a temporary one will do.
            let fallback: String
            let application = (location.directory as NSString).lastPathComponent
            do { fallback = try CSVCacheLocation.fallbackDirectory(for: application) } catch let error as CSVError {
                throw EntityImportError.unreadable(path: source, error)
            }
            notice = "\(unwritable); the cache of \(source) is in \(fallback) instead"
            location = location.moved(to: fallback)
            if var reused = try reusing(location) {
                reused.cacheNotice = notice
                return reused
            }
        }
        var built = try build(at: location.databasePath, location: location)
        built.cacheNotice = notice
        location.removeStaleFiles()
        return built
    }

    /// The cache at `location` when it holds this version of the file — completed first with the
    /// rows appended since, when the file only grew (``CSVCacheAppender``); nil when it must be built.
    private func reusing(_ location: CSVCacheLocation) throws -> CSVTable? {
        // Reused once its folder is 0700 and its files 0600 (tightened if an earlier version made them).
        guard (try? location.makeDirectory()) != nil, location.isPrivate, let state = location.storedState() else {
            return nil
        }
        if state.describes(location) {
            guard var reused = try? CSVTable.read(databasePath: location.databasePath, tableName: tableName) else {
                return nil
            }
            reused.wasReused = true
            try addMissingIndexes(to: reused)
            return reused
        }
        guard state.mayBeAppendedTo(location),
            var appended = try CSVCacheAppender(loader: self, location: location).append()
        else { return nil }
        appended.wasReused = true
        try addMissingIndexes(to: appended)
        return appended
    }

    /// Builds the table into a new database at `path` (replacing a file there only once complete).
    public func build(at path: String) throws -> CSVTable {
        try build(at: path, location: nil)
    }

    /// Builds the table into a new database at `path`; for a cache at `location`, the version of
    /// the file read (no further than the size `location` found) is kept in it (``CSVCacheState``),
    /// with the tracking of ``Options/tracking``.
    func build(at path: String, location: CSVCacheLocation?) throws -> CSVTable {
        let started = MonotonicClock.seconds()
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { removeDatabaseFiles(temporary) }
        let end = location?.sourceSize
        let loaded =
            try sourceLayout() != nil
            ? try loadJSON(into: temporary, started: started, endOffset: end)
            : try loadCSV(into: temporary, started: started, endOffset: end)
        let columns = zip(loaded.names, loaded.types).map { CSVTable.Column(name: $0, type: $1) }
        var built = CSVTable(
            databasePath: path,
            tableName: tableName,
            columns: columns,
            rowCount: loaded.rows,
            wasReused: false
        )
        built.mixedEncodingLine = loaded.mixedEncodingLine
        if let location { try seal(temporary, table: built, loaded: loaded, location: location) }
        try syncFile(temporary)
        guard rename(temporary, path) == 0 else {
            throw EntityImportError.store(path: path, CSVError.writeFailed(path: path, code: errno))
        }
        syncDirectory(of: path)
        return built
    }

    /// Keeps the version of the file loaded in the new cache at `path` (``CSVCacheState``) and
    /// installs the tracking of ``Options/tracking``: the appended rows' history.
    private func seal(_ path: String, table: CSVTable, loaded: Loaded, location: CSVCacheLocation) throws {
        do {
            let state = try CSVCacheState.of(
                location,
                endsWithLineBreak: CSVCacheLocation.endsWithLineBreak(path: source, size: location.sourceSize),
                endLine: loaded.endLine,
                lastRecord: loaded.lastRecord,
                lastRowID: loaded.lastRecordWritten ? Int64(loaded.rows) : nil,
                delimiter: loaded.delimiter,
                isJSON: loaded.isJSON,
                undecidedColumns: loaded.undecidedColumns
            )
            var databaseOptions = Database.Options()
            databaseOptions.walMode = false
            databaseOptions.create = false
            let db = try Database(path: path, options: databaseOptions)
            try db.transaction { try state.write(to: db) }
            if let tracking = options.tracking {
                let store = try Store(foreignDatabaseAt: path, model: table.model, readOnly: false, tracking: tracking)
                try store.installTracking(forTables: [table.tableName])
            }
        } catch let error as CSVError {
            throw EntityImportError.unreadable(path: source, error)
        } catch {
            throw EntityImportError.store(path: path, error)
        }
    }

    /// What a load made: the columns, their types, the rows, the first line read as Windows-1252 in a
    /// file that mixes encodings.
    struct Loaded {
        var names: [String]
        var types: [CSVColumnType]
        var rows: Int
        var mixedEncodingLine: Int?
        /// Where the last record read starts (its offset in the file, its line).
        var lastRecord: (offset: Int64, line: Int)?
        /// Whether the last record read was written (the last row), not skipped as bad.
        var lastRecordWritten = false
        /// The line the reader reached at the end.
        var endLine = 1
        /// The byte between fields (a comma for JSON).
        var delimiter: UInt8 = 0x2C
        /// True for a JSON file.
        var isJSON = false
        /// The columns that held no value.
        var undecidedColumns: [String] = []
    }

    /// Loads the CSV file into a new database at `path` (again without rewriting the dates of a
    /// column that turns out to hold other text too).
    private func loadCSV(into path: String, started: Double, endOffset: Int64?) throws -> Loaded {
        let table = tableName
        var convertsDates: [Bool]?
        var loaded: Loaded
        var rewrittenNonDates: [Int]
        repeat {
            let (dialect, reader, names) = try openSource(endOffset: endOffset)
            guard names.count <= CSVTableLoader.maxColumns else {
                throw EntityImportError.malformed(
                    path: source,
                    line: 1,
                    reason:
                        "the header has \(names.count) columns, more than the \(CSVTableLoader.maxColumns) a table can have"
                )
            }
            let rows = ImportRows(
                path: source,
                reader: reader,
                options: options.importOptions,
                progress: progress,
                started: started
            )
            (loaded, rewrittenNonDates) = try loadRows(
                rows,
                dialect: dialect,
                names: names,
                convertsDates: convertsDates,
                into: path,
                table: table
            )
            // A column of dates in other forms that also holds other text: load again, keeping its text as written.
            if !rewrittenNonDates.isEmpty {
                var again = convertsDates ?? Array(repeating: true, count: names.count)
                for column in rewrittenNonDates { again[column] = false }
                convertsDates = again
            }
        } while !rewrittenNonDates.isEmpty
        return loaded
    }

    /// The table's name: the option, else the file's name without its extension.
    public var tableName: String {
        if let name = options.tableName, !name.isEmpty { return name }
        let file = ((source as NSString).lastPathComponent as NSString).deletingPathExtension
        let name = CSVColumnNames.make(from: [file]).first ?? ""
        if name.isEmpty || name.hasPrefix("column_") || name.lowercased().hasPrefix("sqlite_") { return "csv" }
        // The names a store keeps for itself.
        if options.reservedTableNames.contains(where: { $0.lowercased() == name.lowercased() }) {
            return name + "_csv"
        }
        return name
    }

    // MARK: Steps

    /// Sniffs the dialect, opens the reader (up to `endOffset`, nil: the end) and reads the header.
    private func openSource(endOffset: Int64?) throws -> (CSVDialect, CSVReader, [String]) {
        let dialect: CSVDialect
        let reader: CSVReader
        do {
            dialect = try options.dialect ?? CSVDialect.sniff(path: source)
            reader = try CSVReader(path: source, delimiter: dialect.delimiter, endOffset: endOffset)
        } catch let error as CSVError {
            throw EntityImportError.unreadable(path: source, error)
        }
        var header = CSVRecord()
        do {
            guard try reader.read(into: &header) else { throw EntityImportError.emptyFile(path: source) }
        } catch let error as CSVError {
            throw EntityImportError.reading(source, error)
        }
        let cells = (0..<header.count).map { index in header.withUnsafeBytes(at: index) { dialect.string(from: $0) } }
        return (dialect, reader, CSVColumnNames.make(from: cells))
    }

    /// Loads every row into `table` of a new database at `path`: what was made, and the columns
    /// to load again without rewriting their dates (the rest then undone).
    private func loadRows(
        _ rows: ImportRows,
        dialect: CSVDialect,
        names: [String],
        convertsDates: [Bool]?,
        into path: String,
        table: String
    ) throws -> (Loaded, rewrittenNonDates: [Int]) {
        let db = try newDatabase(at: path)
        let producer = CSVRowProducer(
            rows: rows,
            dialect: dialect,
            columnCount: names.count,
            convertsDates: convertsDates,
            missingValues: Set(options.missingValues)
        ) { [self] in isCancelled }
        var written = 0
        var types: [CSVColumnType] = []
        var rewrittenNonDates: [Int] = []
        var mixedEncodingLine: Int?
        do {
            try db.transaction {
                let schema = try CSVTableSchema(database: db, table: table, columns: names)
                let writer = try MultiRowInsertWriter(database: db, table: table, columns: names)
                var previewPending = firstRows != nil
                try TwoThreadLoad.run(
                    produce: { pipe in try producer.fill(pipe) },
                    consume: { batch in
                        if isCancelled { throw CancellationError() }
                        try writer.write(batch)
                        if previewPending {
                            previewPending = false
                            firstRows?(preview(batch, names: names, dialect: dialect))
                        }
                    }
                )
                if isCancelled { throw CancellationError() }
                if rows.mustAbort || (rows.badRowCount > 0 && writer.count == 0) {
                    throw EntityImportError.badRows(path: source, issues: rows.issues, total: rows.badRowCount)
                }
                types = producer.inference.types
                rewrittenNonDates = producer.columnsWithRewrittenNonDates
                if !rewrittenNonDates.isEmpty { return }  // loaded again (see build(at:)): no schema to finish
                mixedEncodingLine = producer.mixedEncodingLine
                try finish(schema, inference: producer.inference, mixedEncodingLine: mixedEncodingLine)
                written = writer.count
            }
        } catch let error as EntityImportError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch let error as CSVError {
            throw EntityImportError.reading(source, error)
        } catch {
            if isCancelled { throw CancellationError() }
            throw EntityImportError.store(path: path, error)
        }
        if firstRows != nil && written == 0 { firstRows?(Preview(columns: names, rows: [], dialect: dialect)) }
        var loaded = Loaded(names: names, types: types, rows: written, mixedEncodingLine: mixedEncodingLine)
        loaded.lastRecord = producer.lastRecord
        loaded.lastRecordWritten = producer.lastRecordWasWritten
        loaded.endLine = rows.reader.currentLine
        loaded.delimiter = dialect.delimiter
        loaded.undecidedColumns = names.indices.filter { producer.inference.seenTypes[$0] == nil }.map { names[$0] }
        return (loaded, rewrittenNonDates)
    }

    /// A new private database at `path` (what was there removed): renamed into place only when
    /// complete, so no journal and no syncing.
    func newDatabase(at path: String) throws -> Database {
        removeDatabaseFiles(path)
        var databaseOptions = Database.Options()
        databaseOptions.walMode = false
        do {
            // Readable by this user only, like the folder, before SQLite opens it (its journal takes its mode).
            try PrivateFiles.createFile(path)
            let db = try Database(path: path, options: databaseOptions)
            try db.execute(
                "PRAGMA page_size = 16384; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE"
            )
            return db
        } catch {
            throw EntityImportError.store(path: path, error)
        }
    }

    /// The loaded table's last steps: missing-value tokens NULL where the column is not text, the
    /// values converted to their column's type and the types declared, the encoding noted, the indexes.
    func finish(_ schema: CSVTableSchema, inference: CSVColumnTypeInference, mixedEncodingLine: Int?) throws {
        try schema.nullMissingValues(
            options.missingValues,
            columns: schema.columns.indices.filter { inference.treatsMissingAsNull(column: $0) }
        )
        try schema.finish(types: inference.types, counts: inference.counts)
        // Kept in the cache, so that a reuse says it as the load did.
        try schema.database.execute("PRAGMA user_version = \(Int32(clamping: mixedEncodingLine ?? 0))")
        try schema.createIndexes(options.indexes)
    }

    func preview(_ batch: BulkRowBatch, names: [String], dialect: CSVDialect) -> Preview {
        let count = min(batch.rowCount, max(0, options.firstRowCount))
        let rows = (0..<count).map { row in
            (0..<names.count).map { column -> String? in
                switch batch.value(row: row, column: column) {
                case .null: return nil
                case .integer(let n): return String(n)
                // Only reals written as they read back are numbers here: their shortest form is the field's text.
                case .real(let x): return "\(x)"
                case .text(let text): return text
                case .blob(let bytes): return String(decoding: bytes, as: UTF8.self)
                }
            }
        }
        return Preview(columns: names, rows: rows, dialect: dialect)
    }

    /// Creates the indexes of ``Options/indexes`` that a reused cache lacks.
    private func addMissingIndexes(to table: CSVTable) throws {
        let names = table.columns.map(\.name)
        let wanted = options.indexes.filter { CSVTableSchema.indexName(table.tableName, $0, columns: names) != nil }
        guard !wanted.isEmpty else { return }
        do {
            var databaseOptions = Database.Options()
            databaseOptions.walMode = false
            databaseOptions.create = false
            let db = try Database(path: table.databasePath, options: databaseOptions)
            let schema = CSVTableSchema(existing: db, table: table.tableName, columns: names)
            let existing = Set(
                try db.query("SELECT name FROM pragma_index_list(?)", [.text(table.tableName)]).compactMap {
                    $0[0].string
                }
            )
            let missing = wanted.filter {
                !existing.contains(CSVTableSchema.indexName(table.tableName, $0, columns: names)!)
            }
            guard !missing.isEmpty else { return }
            try db.transaction { try schema.createIndexes(missing) }
        } catch {
            throw EntityImportError.store(path: table.databasePath, error)
        }
    }

    /// Writes the file's data to the disk before it is renamed into place.
    func syncFile(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw EntityImportError.store(path: path, CSVError.cannotOpen(path: path, code: errno)) }
        defer { close(fd) }
        guard fsync(fd) == 0 else {
            throw EntityImportError.store(path: path, CSVError.writeFailed(path: path, code: errno))
        }
    }

    /// Makes the rename durable (best effort).
    func syncDirectory(of path: String) {
        let fd = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    func removeDatabaseFiles(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
    }
}
