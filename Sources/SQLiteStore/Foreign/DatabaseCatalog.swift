import Foundation

/// The tables and views of any SQLite file, with their columns and row counts:
/// what `fetchedtable` lists before it opens one.
///
/// The file is opened read-only without creating anything beside it (no `-wal`,
/// `-shm` or journal) and without holding a lock between reads. SQLite's own
/// tables (`sqlite_*`) and the history table of tracking (named by the
/// ``TrackingNames`` given, ``TrackingNames/standard`` by default) are not listed.
///
///     let catalog = try DatabaseCatalog(path: "school.sqlite")
///     for table in catalog.tables { print(table.name, table.isView ? "view" : "table", try table.rowCount()) }
///     let student = catalog.table(named: "student")!.entity(named: "student")
///
/// - Throws: ``StoreError/missingFile(path:)`` when there is no file, ``StoreError/notADatabase(path:)``
///   for a file that is not SQLite or is damaged.
public struct DatabaseCatalog {
    /// The path as given.
    public let path: String
    /// The tables and views, in the order of their names.
    public let tables: [CatalogTable]

    /// Reads the schema of the file at `path` (see the type's description), leaving out
    /// the history table of `tracking`.
    public init(path: String, tracking: TrackingNames = .standard) throws {
        self.path = path
        let header = try ForeignDatabaseOpening.header(path: path)
        let database: Database
        do {
            if header.isWAL {
                // mode=ro (with existing -wal/-shm) or immutable=1 (without): creates nothing.
                database = try StoreFileInspector(path: path).openReadOnly()
            } else {
                var options = Database.Options()
                options.readOnly = true
                options.create = false
                database = try Database(path: path, options: options)
            }
            let connection = CatalogConnection(database: database)
            tables = try CatalogInspection.tables(in: database, hiding: tracking.historyTable).map {
                CatalogTable(inspected: $0, connection: connection)
            }
        } catch let error as SQLiteError where error.isNotADatabase || error.isCorrupt {
            throw StoreError.notADatabase(path: path)
        }
    }

    /// The table or view called `name` (exactly as in the file), nil when there is none.
    public func table(named name: String) -> CatalogTable? {
        tables.first { $0.name == name }
    }
}

/// One table or view of a ``DatabaseCatalog``.
public struct CatalogTable {
    /// The name as in `sqlite_master`.
    public let name: String
    /// True for a view.
    public let isView: Bool
    /// True for a `WITHOUT ROWID` table.
    public let isWithoutRowID: Bool
    /// The module of a virtual table (`fts5`, `rtree`, …); nil for a table or a view.
    /// A virtual table is browsed read-only, its rows by position.
    package let virtualModule: String?
    /// The columns in table order, generated ones included (hidden columns of a virtual table left out).
    public let columns: [CatalogColumn]
    /// The column whose value names a row: the `INTEGER PRIMARY KEY` column, else `"rowid"`
    /// (`"_rowid_"` or `"oid"` when a column is called `rowid`); nil for views, virtual tables,
    /// `WITHOUT ROWID` tables and tables whose columns are called all three (`noRowIDReason`).
    /// Rows of a table with one can be deleted and tracked.
    public let rowIDColumn: String?
    /// Why the table or view cannot be read at all, in SQLite's words (a view over a table
    /// that was dropped: "no such table: main.base"; a virtual table of a module this SQLite
    /// lacks); nil when it can. Such a table is listed, with no columns.
    package let brokenReason: String?
    let connection: CatalogConnection

    init(inspected: CatalogInspection.Table, connection: CatalogConnection) {
        name = inspected.name
        isView = inspected.isView
        isWithoutRowID = inspected.isWithoutRowID
        virtualModule = inspected.virtualModule
        columns = inspected.columns
        rowIDColumn = inspected.rowIDColumn
        brokenReason = inspected.brokenReason
        self.connection = connection
    }

    /// Why rows cannot be named by a row id (deleted, edited, tracked), nil when ``rowIDColumn`` names it.
    ///
    ///     table.noRowIDReason   // "a view has no row id to change its rows by"
    package var noRowIDReason: String? {
        if rowIDColumn != nil { return nil }
        if isView { return "a view has no row id to change its rows by" }
        if let virtualModule { return "a virtual table (\(virtualModule)) is read-only here" }
        if isWithoutRowID { return "a table WITHOUT ROWID has no row id to change its rows by" }
        return "its columns named rowid, _rowid_ and oid hide its row id, and no INTEGER PRIMARY KEY names it"
    }

    /// The number of rows now (`SELECT count(*)`).
    public func rowCount() throws -> Int {
        Int(try connection.database.scalar("SELECT count(*) FROM \(SQLIdentifier.quoted(name))").int64 ?? 0)
    }

    /// Whether `column` holds dates: among the table's first `rows` rows, at least one value
    /// that is not NULL, and every such value text starting `YYYY-MM-DD`. False when it cannot be read.
    ///
    ///     table.sampleHoldsDates(column: "close_date")   // true for '2025-06-27', '2025-06-27 10:00'
    package func sampleHoldsDates(column: String, rows: Int = 1000) -> Bool {
        let value = SQLIdentifier.quoted(column)
        let pattern = "'[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]*'"
        let sql =
            "SELECT count(v), count(v) - count(CASE WHEN typeof(v) = 'text' AND v GLOB \(pattern) THEN 1 END) "
            + "FROM (SELECT \(value) AS v FROM \(SQLIdentifier.quoted(name)) LIMIT \(max(1, rows)))"
        guard let row = try? connection.database.query(sql).first, row.count == 2,
            let present = row[0].int64, let others = row[1].int64
        else { return false }
        return present > 0 && others == 0
    }

    /// Whether `column` holds date-times written with their offset from UTC (`…-05:00`, `…+01`,
    /// `…Z`): among the table's first `rows` rows, one such value at least (see
    /// ``DerivedAttribute/localTime(_:of:column:)``). False when it cannot be read.
    ///
    ///     table.sampleHoldsTimeZoneOffsets(column: "placed_at")   // true for '2024-12-31T20:30:00-05:00'
    package func sampleHoldsTimeZoneOffsets(column: String, rows: Int = 1000) -> Bool {
        let sql =
            "SELECT count(*) FROM (SELECT \(SQLIdentifier.quoted(column)) AS v FROM \(SQLIdentifier.quoted(name)) "
            + "LIMIT \(max(1, rows))) WHERE \(DerivedAttribute.hasOffsetSQL("v"))"
        guard let count = try? connection.database.scalar(sql).int64 else { return false }
        return count > 0
    }

    /// The entity for this table: every column an attribute named as the column (optional,
    /// its ``CatalogColumn/type``), the id ``rowIDColumn``. A view or a `WITHOUT ROWID` table
    /// gets an entity that numbers its rows by position
    /// (``Entity/init(_:viewName:attributes:derived:positionColumn:)``, the number read as `positionColumn`):
    /// listed in the order the view returns them, not deletable, and after a change the rows
    /// behind it compare as moved or replaced.
    ///
    ///     let entity = table.entity(named: table.name)
    ///     let store = try Store(foreignDatabaseAt: path, model: Model(version: 1, applicationID: 0, entities: [entity]), readOnly: true)
    public func entity(
        named entityName: String,
        derived: [DerivedAttribute] = [],
        positionColumn: String = Entity.defaultPositionColumn
    ) -> Entity {
        // A generated column is read like any other, never written.
        let attributes = columns.map { column in
            var attribute = Attribute(
                column.name,
                column.type,
                column: column.name,
                optional: true,
                declaredType: column.declaredType
            )
            // A view's column computed by an expression has no declared type and no affinity (a
            // table's column without a type has blob's).
            if isView && column.declaredType.isEmpty { attribute.affinity = nil }
            attribute.isGenerated = column.isGenerated
            attribute.defaultExpression = column.defaultExpression
            attribute.isNotNull = column.isNotNull
            return attribute
        }
        if let rowIDColumn {
            return Entity(entityName, tableName: name, idColumn: rowIDColumn, attributes: attributes, derived: derived)
        }
        return Entity(
            entityName,
            viewName: name,
            attributes: attributes,
            derived: derived,
            positionColumn: positionColumn
        )
    }
}

/// One column of a ``CatalogTable``.
public struct CatalogColumn: Sendable, Hashable {
    /// The name as written in the table.
    public let name: String
    /// The declared type as written (`""` when none; views often have none).
    public let declaredType: String
    /// The type guessed from the declared type: `INT` → integer, `CHAR`/`CLOB`/`TEXT` → text,
    /// `REAL`/`FLOA`/`DOUB`/`NUMERIC`/`DECIMAL` → real, `BOOL` → bool, `DATETIME`/`TIMESTAMP` →
    /// date-time, `DATE` → date, `BLOB` → blob, none → text. Values are read as stored whatever it says.
    public let type: AttributeType
    /// True when the column is (part of) the primary key.
    public let isPrimaryKey: Bool
    /// True for a generated column (`GENERATED ALWAYS AS (…) STORED` or `VIRTUAL`): shown, never written.
    package let isGenerated: Bool
    /// The column's `DEFAULT` as the table declares it (`1`, `'today'`, `CURRENT_TIMESTAMP`); nil without one.
    package var defaultExpression: String?
    /// True when the column is declared `NOT NULL`.
    package var isNotNull = false

    /// A column; `type` is guessed from `declaredType` (see ``type``).
    public init(name: String, declaredType: String, isPrimaryKey: Bool, isGenerated: Bool = false) {
        self.name = name
        self.declaredType = declaredType
        self.type = CatalogColumn.guessType(declaredType)
        self.isPrimaryKey = isPrimaryKey
        self.isGenerated = isGenerated
    }

    /// The attribute type a declared column type suggests (SQLite's affinity rules, plus dates and bools).
    public static func guessType(_ declared: String) -> AttributeType {
        let d = declared.uppercased()
        if d.contains("INT") { return .integer }
        if d.contains("BOOL") { return .bool }
        if d.contains("DATETIME") || d.contains("TIMESTAMP") { return .dateTime }
        if d.contains("DATE") { return .date }
        if d.contains("CHAR") || d.contains("CLOB") || d.contains("TEXT") { return .text }
        if d.contains("BLOB") { return .blob }
        if d.contains("REAL") || d.contains("FLOA") || d.contains("DOUB") || d.contains("NUM") || d.contains("DEC") {
            return .real
        }
        return .text
    }
}

/// The catalog's connection, shared by its tables.
final class CatalogConnection {
    let database: Database
    init(database: Database) { self.database = database }
}

/// Reading the schema of any file: tables, views, virtual tables, columns, the rowid column.
enum CatalogInspection {
    struct Table {
        var name: String
        var isView: Bool
        var isWithoutRowID: Bool
        var virtualModule: String?
        var columns: [CatalogColumn]
        var rowIDColumn: String?
        var brokenReason: String?
    }

    /// Every table, view and virtual table but SQLite's own, a virtual table's shadow tables
    /// and the table `hiding` (a tracking history table), by name.
    static func tables(in database: Database, hiding historyTable: String) throws -> [Table] {
        let rows = try database.query(
            """
            SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'view', 'virtual')
              AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> ? ORDER BY name
            """,
            [.text(historyTable)]
        )
        return try rows.compactMap { row in try row.first?.string.flatMap { try table(named: $0, in: database) } }
    }

    /// One table or view (nil when the file has none of that name). One SQLite cannot read
    /// (a view over a dropped table) comes back with its `Table/brokenReason` and no columns.
    static func table(named name: String, in database: Database) throws -> Table? {
        guard
            let row = try database.query(
                "SELECT type, wr FROM pragma_table_list WHERE schema = 'main' AND name = ?",
                [.text(name)]
            ).first,
            let type = row[0].string, type == "table" || type == "view" || type == "virtual"
        else { return nil }
        let isView = type == "view"
        let isWithoutRowID = row[1].int64 == 1
        let virtualModule = type == "virtual" ? try module(ofVirtualTable: name, in: database) : nil
        var table = Table(
            name: name,
            isView: isView,
            isWithoutRowID: isWithoutRowID,
            virtualModule: virtualModule,
            columns: [],
            rowIDColumn: nil,
            brokenReason: nil
        )
        var integerKey: [String] = []
        var keyCount = 0
        do {
            // table_xinfo: generated columns too (hidden 2 VIRTUAL, 3 STORED); 1 is a virtual table's hidden column.
            try database.forEachRow(
                "SELECT name, type, pk, hidden, dflt_value, \"notnull\" FROM pragma_table_xinfo(?) WHERE hidden <> 1 ORDER BY cid",
                [.text(name)]
            ) { r in
                var column = CatalogColumn(
                    name: r.text(at: 0),
                    declaredType: r.isNull(at: 1) ? "" : r.text(at: 1),
                    isPrimaryKey: r.int64(at: 2) > 0,
                    isGenerated: r.int64(at: 3) >= 2
                )
                column.defaultExpression = r.isNull(at: 4) ? nil : r.text(at: 4)
                column.isNotNull = r.int64(at: 5) != 0
                if column.isPrimaryKey {
                    keyCount += 1
                    if column.declaredType.uppercased() == "INTEGER" { integerKey.append(column.name) }
                }
                table.columns.append(column)
            }
            // A view is compiled only when read: one over a dropped table fails here.
            if isView || virtualModule != nil {
                _ = try database.query("SELECT * FROM \(SQLIdentifier.quoted(name)) LIMIT 0")
            }
        } catch let error as SQLiteError where !error.isNotADatabase && !error.isCorrupt && !error.isBusy {
            table.columns = []
            table.brokenReason = error.message
            return table
        }
        if !isView && !isWithoutRowID && virtualModule == nil {
            if keyCount == 1, let key = integerKey.first {
                table.rowIDColumn = key
            } else {
                let names = Set(table.columns.map { $0.name.lowercased() })
                table.rowIDColumn = ["rowid", "_rowid_", "oid"].first { !names.contains($0) }
            }
        }
        return table
    }

    /// The module a virtual table is made with, from its `CREATE VIRTUAL TABLE … USING module(…)`.
    static func module(ofVirtualTable name: String, in database: Database) throws -> String {
        let sql =
            try database.scalar("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]).string
            ?? ""
        guard let using = sql.range(of: "USING", options: [.caseInsensitive]) else { return "virtual" }
        let rest = sql[using.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\t" }
        let module = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return module.isEmpty ? "virtual" : module.lowercased()
    }
}
