/// Which of the tables a query reads another connection changed: what a ``LiveQuery`` asks
/// before it runs the query again. Each look costs one `PRAGMA data_version` while nobody has
/// committed; after a commit it tells the query's tables apart so that a commit to a table the
/// query does not read costs no run of the query:
///
/// - a table with history triggers (``Store/installTracking(forTables:)``) is known changed when
///   the history has an entry of it past the last one read — one indexed read of the new entries;
/// - any other table is compared by its fingerprint: first its largest row id (one descent) —
///   when it moved, the table changed (an insert) and nothing more is read then; else its row
///   count (SQLite counts a table's rows from its pages, without reading the rows) — when it
///   moved, the table changed (a delete); when neither did, a ``RowDigest`` of every row (`rowid`
///   and columns, in the table's order), read
///   in the same read transaction as the run that follows (an update in place). SQLite keeps no
///   per-table change counter, and nothing is written to a file that is only read, so that scan
///   is the price of an untracked table's updates (`--track` makes any change one indexed read).
///   A digest the change made stale is read again over the next looks that find no commit, a
///   slice of ``digestRowsPerLook`` rows each (in row id order), and a count an insert left
///   unread at the first of them, so that no look after a change costs a read of the whole
///   table (nor a walk of its pages) while the change is shown.
///
/// Use it inside a read transaction (``Database/read(_:)``), so that what it reads and the run it
/// decides on see one snapshot.
final class TableChangeWatch {
    let database: Database
    let tracking: TrackingNames
    /// The tables watched.
    private(set) var tables: [String]
    /// `PRAGMA data_version` when last looked.
    private var dataVersion: Int64?
    /// `PRAGMA schema_version` when last looked.
    private var schemaVersion: Int64?
    /// The tables with history triggers.
    private var tracked = Set<String>()
    /// The last history entry read (nil: no history table).
    private var historyPosition: Int64?
    /// Each untracked table's fingerprint (nil until the first look).
    private var fingerprints: [String: Fingerprint]?
    /// Rows of a stale digest read again by one look that finds no commit.
    var digestRowsPerLook = 8192
    /// How many times a table's rows were counted (what a look after an insert does not do).
    private(set) var rowCounts = 0

    /// What is kept of an untracked table to tell whether a commit changed it.
    struct Fingerprint: Equatable {
        /// Its row count and largest row id (nil: not a rowid table), read without its rows.
        var count: Int64?
        var largestRowID: Int64?
        /// True when `count` was not read when the largest row id moved (that told the change):
        /// it is read at the next quiet look; until then the table is taken as changed.
        var countIsStale = false
        /// The digest of its rows (nil: not read since the count moved; read over the next quiet looks).
        var digest: RowDigest.Digest?
        /// The digest being read again, slice by slice (nil: not started).
        var partial: PartialDigest?
    }

    /// A digest of a table's rows read so far, in row id order.
    struct PartialDigest: Equatable {
        var digest = RowDigest()
        var rows: UInt64 = 0
        /// The last row id read (nil: none yet).
        var lastRowID: Int64?

        static func == (lhs: PartialDigest, rhs: PartialDigest) -> Bool {
            lhs.digest.value == rhs.digest.value && lhs.rows == rhs.rows && lhs.lastRowID == rhs.lastRowID
        }
    }

    /// What a look found.
    enum Finding: Equatable {
        /// Nobody committed, or no commit touched the tables.
        case unchanged
        /// These tables changed (all of them when it cannot be told which).
        case changed([String])
        /// The schema changed: the query must be prepared again.
        case schemaChanged
    }

    init(database: Database, tables: [String], tracking: TrackingNames) {
        self.database = database
        self.tables = tables
        self.tracking = tracking
    }

    /// Notes the state of the file now (the snapshot a run is about to read): later looks compare with it.
    /// Fingerprints are made at the first look that needs them.
    func start() throws {
        dataVersion = try database.dataVersion()
        schemaVersion = try database.scalar("PRAGMA schema_version").int64
        try readTracking()
        fingerprints = nil
    }

    /// Whether the tables changed since the last look (or ``start()``).
    func look() throws -> Finding {
        let version = try database.dataVersion()
        if version == dataVersion {
            // Nothing committed since the run: the fingerprints of now are those of the run.
            if fingerprints == nil { fingerprints = try fingerprintsNow() }
            try completeDigests()
            return .unchanged
        }
        dataVersion = version
        let schema = try database.scalar("PRAGMA schema_version").int64
        if schema != schemaVersion {
            schemaVersion = schema
            return .schemaChanged
        }
        var changed = Set<String>()
        if !tracked.isEmpty { changed.formUnion(try trackedChanges()) }
        if var kept = fingerprints {
            for table in tables where !tracked.contains(table) {
                if try hasChanged(table, fingerprint: &kept[table]) { changed.insert(table) }
            }
            fingerprints = kept
        } else {
            // No fingerprint of the run's state: which table changed cannot be told.
            fingerprints = try fingerprintsNow()
            changed.formUnion(tables.filter { !tracked.contains($0) })
        }
        return changed.isEmpty ? .unchanged : .changed(tables.filter(changed.contains))
    }

    /// Watches `tables` from now on (the query was prepared again).
    func watch(_ tables: [String]) throws {
        self.tables = tables
        try start()
    }

    // MARK: Steps

    /// Which tables have history triggers, and the history's last entry.
    private func readTracking() throws {
        tracked = []
        historyPosition = nil
        let history = try database.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
            [.text(tracking.historyTable)]
        )
        guard history.int64 == 1 else { return }
        for table in tables {
            let names = ["insert", "update", "delete"].map {
                StoreValue.text(tracking.triggerPrefix + $0 + "_" + table)
            }
            let count = try database.scalar(
                "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name IN (?, ?, ?)",
                names
            )
            if count.int64 == 3 { tracked.insert(table) }
        }
        historyPosition =
            try database.scalar("SELECT max(seq) FROM \(SQLIdentifier.quoted(tracking.historyTable))")
            .int64 ?? 0
    }

    /// The tracked tables with history entries past the last one read (all of them when entries
    /// were pruned before they were read).
    private func trackedChanges() throws -> Set<String> {
        guard let position = historyPosition else { return tracked }
        let history = SQLIdentifier.quoted(tracking.historyTable)
        let bounds = try database.query("SELECT min(seq), max(seq) FROM \(history)").first ?? []
        let newest = bounds.count == 2 ? bounds[1].int64 ?? 0 : 0
        let oldest = bounds.count == 2 ? bounds[0].int64 : nil
        defer { historyPosition = newest }
        if newest < position || (oldest.map { $0 > position + 1 } ?? false) { return tracked }
        var changed = Set<String>()
        try database.forEachRow(
            "SELECT DISTINCT table_name FROM \(history) WHERE seq > ?",
            [.integer(position)]
        ) { row in
            let table = row.text(at: 0)
            if tracked.contains(table) { changed.insert(table) }
        }
        return changed
    }

    /// The fingerprint of every untracked table now: its counts, and the digest of a table without
    /// row ids (a rowid table's is read in slices by the quiet looks, ``completeDigests()``).
    private func fingerprintsNow() throws -> [String: Fingerprint] {
        var fingerprints: [String: Fingerprint] = [:]
        for table in tables where !tracked.contains(table) {
            var fingerprint = try counts(of: table)
            if fingerprint.largestRowID == nil { fingerprint.digest = try digest(of: table) }
            fingerprints[table] = fingerprint
        }
        return fingerprints
    }

    /// Whether `table` changed since `fingerprint` (nil: unknown, so changed) was taken; the
    /// fingerprint becomes today's. The count first; the rows' digest only when the count did not move.
    private func hasChanged(_ table: String, fingerprint: inout Fingerprint?) throws -> Bool {
        // An insert moves the largest row id: that tells the change, its count is read later.
        if let before = fingerprint, before.count != nil, let was = before.largestRowID,
            let largest = largestRowID(of: table), largest != was
        {
            fingerprint = Fingerprint(count: before.count, largestRowID: largest, countIsStale: true, digest: nil)
            return true
        }
        var now = try counts(of: table)
        if let before = fingerprint, now.count != nil,
            before.countIsStale || now.count != before.count || now.largestRowID != before.largestRowID
        {
            fingerprint = now  // changed: its digest is read at the next quiet look
            return true
        }
        now.digest = try digest(of: table)
        defer { fingerprint = now }
        guard let digest = fingerprint?.digest else { return true }
        return digest != now.digest
    }

    /// The digests the counts left unread, read on (a look that found no commit: the run's state):
    /// a slice of each table's rows, all of a table that has no row ids.
    private func completeDigests() throws {
        guard let kept = fingerprints else { return }
        for (table, var fingerprint) in kept where fingerprint.digest == nil {
            if fingerprint.countIsStale {
                fingerprint.count = try counts(of: table).count
                fingerprint.countIsStale = false
            }
            if fingerprint.largestRowID == nil {
                fingerprint.digest = try digest(of: table)
            } else {
                var partial = fingerprint.partial ?? PartialDigest()
                if try digestSlice(of: table, into: &partial) {
                    partial.digest.add(word: partial.rows)
                    fingerprint.digest = partial.digest.value
                    fingerprint.partial = nil
                } else {
                    fingerprint.partial = partial
                }
            }
            fingerprints?[table] = fingerprint
        }
    }

    /// Reads up to ``digestRowsPerLook`` more rows of `table` (a rowid table) into `partial`, in row
    /// id order — the order of ``digest(of:)``; true when none is left.
    private func digestSlice(of table: String, into partial: inout PartialDigest) throws -> Bool {
        let name = SQLIdentifier.quoted(table)
        let statement = try database.statement(
            "SELECT _rowid_, * FROM \(name) WHERE _rowid_ > ? ORDER BY _rowid_ LIMIT ?"
        )
        defer { statement.reset() }
        try statement.bind(partial.lastRowID ?? Int64.min, at: 1)
        try statement.bind(Int64(digestRowsPerLook), at: 2)
        let rows = StatementRows(statement)
        var read = 0
        while try rows.next() {
            for column in 0..<rows.columnCount { partial.digest.add(rows.field(column)) }
            if case .integer(let rowID) = rows.field(0) { partial.lastRowID = rowID }
            partial.rows += 1
            read += 1
        }
        return read < digestRowsPerLook
    }

    /// The row count of `table` and its largest row id (nil when it has none: `WITHOUT ROWID`,
    /// a virtual table), read without reading its rows; a count of nil when SQLite cannot count it.
    private func counts(of table: String) throws -> Fingerprint {
        let name = SQLIdentifier.quoted(table)
        rowCounts += 1
        let count = try? database.scalar("SELECT count(*) FROM \(name)").int64
        return Fingerprint(count: count, largestRowID: largestRowID(of: table), digest: nil)
    }

    /// The largest row id of `table` (one descent), nil when it has none.
    private func largestRowID(of table: String) -> Int64? {
        try? database.scalar("SELECT max(_rowid_) FROM \(SQLIdentifier.quoted(table))").int64
    }

    /// A digest of every row of `table`, its row id first when it has one (in row id order).
    private func digest(of table: String) throws -> RowDigest.Digest {
        let name = SQLIdentifier.quoted(table)
        let statement: Statement
        do {
            statement = try database.statement("SELECT _rowid_, * FROM \(name) ORDER BY _rowid_")
        } catch {
            statement = try database.statement("SELECT * FROM \(name)")  // WITHOUT ROWID, or a virtual table
        }
        defer { statement.reset() }
        let rows = StatementRows(statement)
        var digest = RowDigest()
        var count: UInt64 = 0
        while try rows.next() {
            for column in 0..<rows.columnCount { digest.add(rows.field(column)) }
            count += 1
        }
        digest.add(word: count)
        return digest.value
    }
}
