import CSVImport
import SQLiteStore

/// The table a ``CSVTableLoader`` made from a CSV file: where it is, its
/// columns with their inferred types, its rows.
///
/// The table's rows are identified by their `rowid` (1, 2, 3… in file
/// order: row *n* is the file's *n*-th data row); its columns are named
/// after the header (`CSVColumnNames`) and declared with their types.
///
///     let table = try CSVTableLoader(source: "events.csv").load()
///     table.tableName                 // "events"
///     table.columns.map(\.name)       // ["id", "ts", "level", "service", "message"]
///     table.columns[1].type           // .dateTime
///     table.rowCount                  // 1000000
public struct CSVTable: Sendable, Equatable {
    /// One column of the table.
    public struct Column: Sendable, Hashable {
        /// The column's name in the table (the header cell, made unique and non-empty).
        public var name: String
        /// The type inferred from the column's values.
        public var type: CSVColumnType

        /// A column `name` of `type`.
        public init(name: String, type: CSVColumnType) {
            self.name = name
            self.type = type
        }

        /// The store's type for the column's values.
        package var attributeType: AttributeType {
            switch type {
            case .integer: return .integer
            case .real: return .real
            case .date: return .date
            case .dateTime: return .dateTime
            case .text: return .text
            case .boolean: return .bool
            }
        }
    }

    /// The SQLite file that holds the table (open it read-only: it is a cache of the CSV file).
    public var databasePath: String
    /// The table's name (from the CSV file's name).
    public var tableName: String
    /// The columns, in the file's order.
    public var columns: [Column]
    /// The rows loaded (the file's data rows).
    public var rowCount: Int
    /// True when an up-to-date cache was opened instead of loading the file (completed with the
    /// rows appended to the file since, if any: ``appendedRowCount``).
    public var wasReused: Bool
    /// The rows this load added to a reused cache: those appended to the file since it was loaded.
    public var appendedRowCount = 0
    /// Set when the cache folder could not be written and a temporary one was used: the sentence to
    /// tell the person once (`cannot write /home/ada/.cache/books: Permission denied; the cache of
    /// events.csv is in /tmp/books-cache-1000 instead`).
    package var cacheNotice: String?
    /// Set when the file mixes encodings — fields of non-ASCII UTF-8 and fields that are not UTF-8, read as
    /// Windows-1252 field by field: the line of the first of those (kept in the cache's `user_version`, so a
    /// reused cache tells it as the load did).
    public var mixedEncodingLine: Int?

    /// The sentence to tell the person when the file mixes encodings (``mixedEncodingLine``), naming `file`.
    ///
    ///     table.encodingNotice(file: "names.csv")
    ///     // "names.csv mixes encodings: fields that are not UTF-8 (the first on line 17) are read as Windows-1252, the others as UTF-8"
    package func encodingNotice(file: String) -> String? {
        mixedEncodingLine.map {
            "\(file) mixes encodings: fields that are not UTF-8 (the first on line \($0)) are read as Windows-1252, "
                + "the others as UTF-8"
        }
    }

    /// A description of a loaded table.
    public init(databasePath: String, tableName: String, columns: [Column], rowCount: Int, wasReused: Bool) {
        self.databasePath = databasePath
        self.tableName = tableName
        self.columns = columns
        self.rowCount = rowCount
        self.wasReused = wasReused
    }

    /// The table as an entity over an existing table: named as the table, its id the `rowid`, an
    /// attribute per column named as the column (so key paths, sorts and predicates use the header's
    /// names), typed as inferred.
    ///
    ///     let store = try Store(foreignDatabaseAt: table.databasePath, model: table.model, readOnly: true)
    ///     let first = try ObjectContext(store: store).fetch(table.entity.name, orderBy: "rowid", limit: 1)
    public var entity: Entity {
        Entity(
            tableName,
            tableName: tableName,
            idColumn: "rowid",
            attributes: columns.map {
                Attribute(
                    $0.name,
                    $0.attributeType,
                    column: $0.name,
                    declaredType: CSVTableSchema.declaredType($0.type)
                )
            }
        )
    }

    /// A model of the one ``entity``, to open the database with `Store(foreignDatabaseAt:model:readOnly:tracking:)`
    /// (read-only: the database is a cache of the CSV file).
    public var model: Model { Model(version: 1, applicationID: 0, entities: [entity]) }

    /// The companion column of a real column `column`: its values written otherwise than their number
    /// reads back (`3`, `1.10`, `1e3`) as the file wrote them, NULL for the others. Its name holds a
    /// control character, which no header's name has (`CSVColumnNames`), so it cannot be a column's.
    ///
    ///     CSVTable.writtenFormColumn(of: "price")   // "price\u{1F}written"
    package static func writtenFormColumn(of column: String) -> String { column + "\u{1F}written" }

    /// The real column whose companion ``writtenFormColumn(of:)`` `name` is, or nil for any other name.
    package static func column(ofWrittenForm name: String) -> String? {
        guard name.hasSuffix("\u{1F}written") else { return nil }
        return String(String.UnicodeScalarView(name.unicodeScalars.dropLast("\u{1F}written".unicodeScalars.count)))
    }

    /// Reads the description of `table` from the database at `path` (the columns' declared types, the last
    /// rowid; companion columns left out).
    public static func read(databasePath path: String, tableName table: String) throws -> CSVTable {
        var options = Database.Options()
        options.readOnly = true
        options.create = false
        let db = try Database(path: path, options: options)
        let rows = try db.query("SELECT name, type FROM pragma_table_info(?) ORDER BY cid", [.text(table)])
        guard !rows.isEmpty else { throw CSVTableLoader.NoSuchTable(path: path, table: table) }
        let columns = rows.filter { column(ofWrittenForm: $0[0].string ?? "") == nil }.map {
            Column(name: $0[0].string ?? "", type: CSVTableSchema.columnType(declared: $0[1].string ?? ""))
        }
        // Rows are appended with ids 1…n and never deleted: the last id is the count, read in O(log n).
        let count = try db.scalar("SELECT max(rowid) FROM \(Database.quote(identifier: table))").int64 ?? 0
        var described = CSVTable(
            databasePath: path,
            tableName: table,
            columns: columns,
            rowCount: Int(count),
            wasReused: false
        )
        let mixedLine = try db.scalar("PRAGMA user_version").int64 ?? 0
        described.mixedEncodingLine = mixedLine > 0 ? Int(mixedLine) : nil
        return described
    }
}
