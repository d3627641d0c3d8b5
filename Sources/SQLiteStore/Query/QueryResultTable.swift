import Foundation

/// A query's result kept as a table of a SQLite file of its own, and brought up to each new run
/// of the query by the difference between the runs: the rows that are new are inserted, the
/// rows that are gone deleted, the rows whose values or place changed updated — in one
/// transaction, which the file's history triggers record row by row. A `FetchedResults`
/// controller over the table (``entity``, ``openStore()``) then sorts, sections, filters and
/// animates it as any table, and reads each run's difference as a change set of those rows.
///
/// Rows are told apart by ``identity``: a key's columns, or their whole content. The table's
/// columns are the result's (their declared types kept, so that their values are stored as the
/// query returned them), plus three of its own, named so as not to clash with them: the row id
/// (``rowIDColumn``) and the row's place in the query's order (``orderColumn``), which moves as
/// few rows as it can from one run to the next (a longest increasing run keeps its places). The
/// order column is generated: the place a later run gave the row (a third column), else its
/// row id — a first run's rows are written in the query's order with no place of their own.
///
///     let table = try QueryResultTable(path: "/tmp/q.sqlite", columns: query.columns, identity: .key(["id"]))
///     try table.load(try query.rows())                 // the first run
///     let change = try table.update(from: try query.rows())   // a later run: what changed
///     let store = try table.openStore()                // for a controller: FetchRequest(entity: table.entityName)
///
/// The table is written from one thread at a time (its own connection); any number of
/// connections may read the file meanwhile (WAL).
public final class QueryResultTable {
    /// The file.
    public let path: String
    /// The result's columns, as the table has them.
    public let columns: [QueryColumn]
    /// How rows are told apart (``identifyByContent()`` changes a key to content).
    public internal(set) var identity: QueryRowIdentity
    /// The table's name in the file.
    public let tableName = "query_result"
    /// The column holding each row's id.
    public let rowIDColumn: String
    /// The column holding each row's place in the query's order (sort by it for the query's own order).
    public let orderColumn: String
    /// The column the order column is generated from: the place a later run gave the row, NULL
    /// for a row of the first run (whose place is its row id). Writers set it; readers sort by
    /// ``orderColumn``.
    package let placeColumn: String
    /// The history table and triggers of the file (``Store/installTracking(forTables:)``): open
    /// a store over the file with them (``openStore()`` does).
    public let tracking: TrackingNames
    /// The history table and triggers a result file has unless told otherwise: `query_history`.
    public static let defaultTracking = TrackingNames(historyTable: "query_history")
    /// History entries kept; a reader further behind reads a reset (and refetches).
    static let historyLimit = 20_000

    let database: Database
    var index = QueryRowIndex()
    /// Positions in ``columns`` of the key's columns (empty: by content).
    var keyColumns: [Int] = []
    private(set) var isLoaded = false
    /// Whether ``index`` holds the rows (a result told apart by content is loaded without it:
    /// ``buildIndex()`` reads it back before the next run is compared).
    private(set) var isIndexed = false
    /// The rows the first run wrote.
    private var loadedCount = 0

    /// Makes the file at `path` (replacing any) with an empty table of `columns`, its history
    /// table and triggers named by `tracking`.
    ///
    /// - Throws: ``QueryResultError/unknownKeyColumn(_:columns:)`` for a key column the result
    ///   lacks; ``SQLiteError`` when the file cannot be made.
    public init(
        path: String,
        columns: [QueryColumn],
        identity: QueryRowIdentity,
        tracking: TrackingNames = QueryResultTable.defaultTracking
    ) throws {
        self.path = path
        self.tracking = tracking
        self.columns = columns
        self.identity = identity
        let names = Set(columns.map { $0.name.lowercased() })
        func free(_ base: String) -> String {
            var name = base
            var number = 1
            while names.contains(name.lowercased()) {
                number += 1
                name = "\(base)_\(number)"
            }
            return name
        }
        rowIDColumn = free("query_row")
        orderColumn = free("query_order")
        placeColumn = free("query_place")
        keyColumns = try QueryResultTable.keyPositions(identity, columns: columns)
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
        var options = Database.Options()
        options.walMode = false
        // URIs on: the first run attaches the queried file read-only (loadInPlace).
        database = try Database(uri: QueryResultTable.fileURI(path), path: path, options: options)
        try database.execute("PRAGMA page_size = 16384")
        try database.execute("PRAGMA journal_mode = MEMORY")  // a failed first run rolls back
        try database.execute("PRAGMA synchronous = OFF")
        try database.execute("PRAGMA cache_size = -16384")
        let definitions =
            ["\(SQLIdentifier.quoted(rowIDColumn)) INTEGER PRIMARY KEY"]
            + columns.map { column in
                let type = column.declaredType.isEmpty ? "" : " " + QueryResultTable.typeName(column.declaredType)
                return SQLIdentifier.alwaysQuoted(column.name) + type
            } + [
                "\(SQLIdentifier.quoted(placeColumn)) REAL",
                // Reals from the expression, and no declared type: SQLite 3.40 sorts a generated
                // REAL column's whole numbers as integers (1, not 1.0) when it sorts without an index.
                "\(SQLIdentifier.quoted(orderColumn)) GENERATED ALWAYS AS "
                    + "(coalesce(\(SQLIdentifier.quoted(placeColumn)), CAST(\(SQLIdentifier.quoted(rowIDColumn)) AS REAL))) VIRTUAL",
            ]
        try database.execute("CREATE TABLE \(tableName) (\(definitions.joined(separator: ", ")))")
    }

    /// The index of the order column, when the table lacks it: a controller's fetch in the
    /// query's order reads it instead of sorting the rows (a million: 0.30 s of CPU). A first run
    /// written in order fills it for 0.19 s a million rows as it goes (``load(_:checksKey:progress:)``); one
    /// written in place goes without it until ``buildIndex()`` (a list's first fetch of it needs
    /// none: its rows are in the order of their row ids).
    func createOrderIndex() throws {
        try database.execute(
            "CREATE INDEX IF NOT EXISTS \(tableName)_order ON \(tableName) (\(SQLIdentifier.quoted(orderColumn)))"
        )
    }

    /// The name the table's entity has (its table's).
    public var entityName: String { tableName }

    /// How many rows the result has.
    public var count: Int { isIndexed ? index.count : loadedCount }

    /// The entity of the table, for a model: every result column an optional attribute named as
    /// the column (its type guessed from the declared type, ``CatalogColumn/guessType(_:)``), the
    /// order column a real attribute, the row id the entity's id.
    public var entity: Entity {
        var attributes = columns.map { column in
            Attribute(
                column.name,
                CatalogColumn.guessType(column.declaredType),
                column: column.name,
                optional: true,
                declaredType: column.declaredType.isEmpty ? "" : QueryResultTable.typeName(column.declaredType)
            )
        }
        attributes.append(Attribute(orderColumn, .real, column: orderColumn, optional: false, declaredType: "REAL"))
        return Entity(tableName, tableName: tableName, idColumn: rowIDColumn, attributes: attributes)
    }

    /// A read-only store over the file, for a controller (its context sees each run's changes
    /// through `processExternalChanges()` as the rows changed).
    public func openStore() throws -> Store {
        try Store(
            foreignDatabaseAt: path,
            model: Model(version: 1, applicationID: 0, entities: [entity]),
            readOnly: true,
            tracking: tracking
        )
    }

    /// Removes the file (and its `-wal` and `-shm`); call once every store over it is closed.
    public func removeFile() {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    /// A declared type as a column's type in the table: the same words, or none for a type SQLite
    /// could not read back (it is kept for its affinity only).
    static func typeName(_ declared: String) -> String {
        let plain = declared.allSatisfy { $0.isLetter || $0.isNumber || $0 == " " || $0 == "_" }
        return plain ? declared : SQLIdentifier.alwaysQuoted(declared)
    }

    /// The positions of `identity`'s key columns among `columns`.
    static func keyPositions(_ identity: QueryRowIdentity, columns: [QueryColumn]) throws -> [Int] {
        guard case .key(let names) = identity else { return [] }
        return try names.map { name in
            guard let position = columns.firstIndex(where: { $0.name == name }) else {
                throw QueryResultError.unknownKeyColumn(name, columns: columns.map(\.name))
            }
            return position
        }
    }

    // MARK: The first run

    /// Writes the first run's rows, in their order (one transaction, no history), then switches
    /// the file to WAL and installs its history triggers, so that later runs are read row by row.
    /// `progress` is called with the rows written so far, about every 50,000 rows.
    ///
    /// Rows told apart by a key are indexed as they are written, or their key checked (a key two
    /// rows share is refused here). Rows of a SQLite statement told apart by their content are only written: what the
    /// next run is compared with (``buildIndex()``) is read back from the table before it, so that
    /// the first run's rows are ready sooner (the index was 60 % of a 100k-row join's load). Their
    /// values read back as the statement returned them: each column has the declared type, hence
    /// the affinity, its value was stored under in its own table. Other sources' rows are indexed
    /// as they are written — unless they read back as they were written
    /// (``QueryRows/readsBackAsWritten``: a server's, typed by the columns' declared types), whose
    /// index is left for ``buildIndex()`` too (it was a third of a million-row server result's
    /// load), their key checked unique as they are written when `checksKey` (a key the user gave;
    /// a table's key is checked by ``buildIndex()``, as ``loadInPlace(_:from:checksKey:progress:)``
    /// leaves it).
    ///
    /// - Throws: ``QueryResultError/duplicateKey(columns:values:)`` when two rows have the same key;
    ///   what reading the rows throws (an interrupted ``SQLiteError`` when the run was stopped).
    ///   The table is then empty.
    package func load(_ rows: QueryRows, checksKey: Bool = true, progress: ((Int) -> Void)? = nil) throws {
        precondition(!isLoaded, "a result table is loaded once; later runs go through update(from:)")
        try createOrderIndex()
        index.beginRun()
        let indexes = !rows.readsBackAsWritten && (!keyColumns.isEmpty || !(rows is StatementRows))
        var keys = indexes || keyColumns.isEmpty || !checksKey ? nil : Set<RowDigest.Digest>()
        let width = columns.count + 2
        // Many rows a statement; those of the last, unfinished one are bound and the rest left
        // NULL, which the WHERE leaves out (every row has a row id).
        let perStatement = max(1, min(64, 999 / width))
        let marks = "(" + Array(repeating: "?", count: width).joined(separator: ",") + ")"
        let insert = try database.uncachedStatement(
            "INSERT INTO \(tableName) SELECT * FROM (VALUES "
                + Array(repeating: marks, count: perStatement).joined(separator: ",") + ") WHERE column1 IS NOT NULL"
        )
        // Text bound without a copy when it stays valid until the statement is stepped.
        let copying = rows.bytesOutlastRows < perStatement
        var pending = 0
        var written = 0
        do {
            try database.transaction {
                while try rows.next() {
                    let base = Int32(pending * width)
                    let rowID = Int64(written + pending + 1)
                    if indexes {
                        let (identity, content, _) = try digests(of: rows)
                        index.add(rowID: rowID, identity: identity, content: content, order: Double(rowID))
                    } else if keys != nil {
                        try checkKey(of: rows, against: &keys!)
                    }
                    try insert.bind(field: .integer(rowID), at: base + 1)
                    for column in 0..<columns.count {
                        try insert.bind(field: rows.field(column), at: base + Int32(column) + 2, copying: copying)
                    }
                    try insert.bind(StoreValue.null, at: base + Int32(width))  // placed by its row id
                    pending += 1
                    if pending == perStatement {
                        _ = try insert.step()
                        insert.reset()
                        written += pending
                        pending = 0
                        if written % 51_200 < perStatement { progress?(written) }
                    }
                }
                if pending > 0 {
                    _ = try insert.step()
                    written += pending
                }
                insert.reset()
            }
        } catch {
            insert.reset()
            index = QueryRowIndex()
            throw error
        }
        try finishFirstRun(written: written, indexed: indexes)
        progress?(written)
    }

    /// After the first run's rows are written: the file switched to WAL, its history triggers
    /// installed (later runs are recorded row by row), the table marked loaded with `written` rows,
    /// their index built (`indexed`) or left for ``buildIndex()``.
    func finishFirstRun(written: Int, indexed: Bool) throws {
        try database.execute("PRAGMA journal_mode = WAL")
        let store = try Store(
            foreignDatabaseAt: path,
            model: Model(version: 1, applicationID: 0, entities: [entity]),
            readOnly: false,
            tracking: tracking
        )
        try store.installTracking(forTables: [tableName])
        database.clearStatementCache()
        isLoaded = true
        isIndexed = indexed
        loadedCount = written
    }

    /// Reads the rows the first run wrote back into the index the next run is compared with, when
    /// ``load(_:checksKey:progress:)`` or ``loadInPlace(_:from:checksKey:progress:)`` left it for later (a
    /// statement's rows told apart by their content, any run written in place), then indexes the
    /// order column (``createOrderIndex()``); nothing otherwise.
    /// ``update(from:progress:)`` calls it first; a ``LiveQuery`` calls it on its own thread after
    /// the first run, before it looks for changes.
    ///
    /// - Throws: ``QueryResultError/duplicateKey(columns:values:)`` when the rows are told apart by a
    ///   key two of them share (the index is then empty); what reading the table throws.
    package func buildIndex() throws {
        guard isLoaded, !isIndexed else { return }
        try readIndex()
        try createOrderIndex()
    }

    /// ``buildIndex()``'s read of the rows.
    private func readIndex() throws {
        let names = columns.map { SQLIdentifier.alwaysQuoted($0.name) } + [quotedRowID]
        // The first run's rows in its order: their row ids are their places.
        let statement = try database.uncachedStatement(
            "SELECT \(names.joined(separator: ", ")) FROM \(tableName) ORDER BY \(quotedRowID)"
        )
        defer { statement.reset() }
        let rows = StatementRows(statement)
        index = QueryRowIndex()
        index.reserveCapacity(loadedCount)
        index.beginRun()
        do {
            while try rows.next() {
                let (identity, content, _) = try digests(of: rows)
                guard case .integer(let rowID) = rows.field(columns.count) else { continue }
                index.add(rowID: rowID, identity: identity, content: content, order: Double(rowID))
            }
        } catch {
            index = QueryRowIndex()
            throw error
        }
        isIndexed = true
    }

    /// Adds the key of the current row of `rows` to `seen` (the keys of the rows before it).
    ///
    /// - Throws: ``QueryResultError/duplicateKey(columns:values:)`` when `seen` has it already.
    @inline(__always)
    func checkKey<Rows: QueryRows>(of rows: Rows, against seen: inout Set<RowDigest.Digest>) throws {
        var key = RowDigest()
        for column in keyColumns { key.add(rows.field(column)) }
        guard seen.insert(key.value).inserted else {
            throw QueryResultError.duplicateKey(
                columns: keyColumns.map { columns[$0].name },
                values: keyColumns.map { rows.field($0).value }
            )
        }
    }

    /// The identity and content digests of the current row of `rows`: the key's (or the content
    /// numbered by occurrence among the rows of this run so far) and the whole row's; and the
    /// slot of the last run's row with that identity, if any (found once, not looked up again).
    /// `isNew` says whether an identity was given to a new row of this run already (an update's
    /// rows are added to the index only once they are written). `expected` is the slot the row is
    /// likely in (the next of the last run's order): when its identity is the row's, no lookup.
    ///
    /// - Throws: ``QueryResultError/duplicateKey(columns:values:)`` when the key was seen in this run.
    @inline(__always)
    func digests<Rows: QueryRows>(
        of rows: Rows,
        expected: Int32? = nil,
        isNew: (RowDigest.Digest) -> Bool = { _ in false }
    ) throws -> (identity: RowDigest.Digest, content: RowDigest.Digest, slot: Int32?) {
        var content = RowDigest()
        var key = RowDigest()
        // A key of one column (the common case) is read once, with the content.
        let single = keyColumns.count == 1 ? keyColumns[0] : -1
        for column in 0..<columns.count {
            let field = rows.field(column)
            content.add(field)
            if column == single { key.add(field) }
        }
        let whole = content.value
        func lookUp(_ identity: RowDigest.Digest) -> Int32? {
            if let expected, index.identities[Int(expected)] == identity { return expected }
            return index.slot(of: identity)
        }
        guard !keyColumns.isEmpty else {
            var number = 0
            while true {
                let identity = whole.numbered(number)
                if let slot = number == 0 ? lookUp(identity) : index.slot(of: identity) {
                    if !index.isSeen(slot) { return (identity, whole, slot) }
                } else if !isNew(identity) {
                    return (identity, whole, nil)
                }
                number += 1
            }
        }
        if single < 0 { for column in keyColumns { key.add(rows.field(column)) } }
        let identity = key.value
        let slot = lookUp(identity)
        let seen = slot.map(index.isSeen) ?? isNew(identity)
        if seen {
            throw QueryResultError.duplicateKey(
                columns: keyColumns.map { columns[$0].name },
                values: keyColumns.map { rows.field($0).value }
            )
        }
        return (identity, whole, slot)
    }
}
