import BulkImport
import CLIKit
import Foundation
import Glibc
import SQLiteStore

/// The file `fetchedtable` was given, open for listing its tables: a SQLite
/// database as it is, or a CSV file through its cache database (loaded by
/// ``CSVSource``). Nothing is written to a database file by opening it.
///
///     let database = try TableDatabase.open(path: "school.sqlite", options: options)
///     database.tables.map(\.name)            // ["student", "subject"]
///     let table = try database.openTable(named: "student", options: options)
package struct TableDatabase {
    /// `FILE` as given.
    package let path: String
    /// What it is.
    package let kind: TableFileKind
    /// The database the tables are read from: `path`, or the CSV file's cache database.
    package let databasePath: String
    /// Its tables and views (a CSV file: one table).
    package let catalog: DatabaseCatalog
    /// Why nothing may be changed, whatever the table (nil: the file is writable).
    package var readOnlyReason: String?
    /// For `--query`: the query whose result the database holds (kept open as long as the database).
    package var querySource: QuerySource?
    /// For a copy of a server's table: the server's order (its order columns, hidden from the
    /// columns shown, and NULL above every value); nil for a file's own tables.
    package var serverOrder: TableQuery.ServerOrder?
    /// Per column, the label its values are shown under when it is not its name (``TableQuery/columnLabels``).
    package var columnLabels: [String: String] = [:]

    /// The tables and views, in the catalog's order (a cache's one table, not what the cache keeps of
    /// its file in `store_metadata`).
    package var tables: [CatalogTable] {
        kind.isCached ? catalog.tables.filter { $0.name != Store.metadataTable } : catalog.tables
    }

    /// Opens the database at `databasePath` (the file itself, or a CSV file's cache) for `path`.
    ///
    /// - Throws: ``FetchedTableError`` 66 for a missing file, 65 for a file that is not a database or is damaged.
    package init(path: String, kind: TableFileKind, databasePath: String, readOnly: Bool) throws(FetchedTableError) {
        self.path = path
        self.kind = kind
        self.databasePath = databasePath
        do {
            catalog = try DatabaseCatalog(path: databasePath, tracking: TableFileNames.tracking)
        } catch {
            throw TableDatabase.refusal(error, path: path)
        }
        if let refusal = kind.cacheWriteRefusal {
            readOnlyReason = refusal
        } else if readOnly {
            readOnlyReason = "opened with --read-only"
        } else if !TableDatabase.isWritable(databasePath) {
            readOnlyReason = "\(path) is not writable"
        } else {
            readOnlyReason = nil
        }
    }

    /// The table `name`, or a usage error naming the tables there are.
    package func table(named name: String) throws(FetchedTableError) -> CatalogTable {
        if let table = catalog.table(named: name) { return table }
        throw .usage("--table: no table \"\(name)\" in \(path); \(tableListPhrase)")
    }

    /// "its tables: a, b (view), c (broken view), d (virtual table)" or "it has no tables".
    var tableListPhrase: String {
        tables.isEmpty
            ? "it has no tables"
            : "its tables: "
                + tables.map { table in
                    let kind = TableDatabase.kind(of: table)
                    return table.brokenReason != nil
                        ? "\(table.name) (broken \(kind))" : kind == "table" ? table.name : "\(table.name) (\(kind))"
                }.joined(separator: ", ")
    }

    /// "table", "view" or "virtual table".
    static func kind(of table: CatalogTable) -> String {
        table.isView ? "view" : table.virtualModule != nil ? "virtual table" : "table"
    }

    /// The table to open without a table list: `--table`, or the only one.
    ///
    /// - Throws: 64 for an unknown `--table`, or when there are several tables and no `--table`
    ///   (`command` names who asks: `list` and `watch` cannot show the table list); 65 for a file with none.
    package func soleTable(_ name: String?, command: String) throws(FetchedTableError) -> CatalogTable? {
        if let name { return try table(named: name) }
        if tables.isEmpty { throw .data("\(path): there are no tables in this database") }
        if tables.count == 1 { return tables[0] }
        if command.isEmpty { return nil }
        throw .usage("\(path) has \(tables.count) tables; choose one with --table (\(tableListPhrase))")
    }

    /// `table` open for browsing: the store (hands off: never writes the schema; read-only
    /// when the file or the session is), the model with every section key `S` offers, the query.
    ///
    /// - Throws: 64 for an option naming a column the table lacks; 65 for a table SQLite cannot
    ///   read (a view over a dropped table: ``CatalogTable/brokenReason``); 65/74 for a file that cannot be read.
    package func open(_ table: CatalogTable, options: TableOptions) throws(FetchedTableError) -> OpenedTable {
        if let broken = table.brokenReason {
            throw .data("\(path): the \(TableDatabase.kind(of: table)) \(table.name) cannot be read: \(broken)")
        }
        let query = try self.query(for: table, options: options)
        let entity = table.entity(
            named: table.name,
            derived: query.derivedAttributes,
            positionColumn: TableFileNames.positionColumn
        )
        let model = Model(version: 1, applicationID: 0, entities: [entity])
        var reason = readOnlyReason
        if reason == nil { reason = table.noRowIDReason }
        let store: Store
        do {
            store = try Store(
                foreignDatabaseAt: databasePath,
                model: model,
                // A query's result is written by the query alone (its rows' writes go to their table).
                readOnly: readOnlyReason != nil || options.readOnly || querySource != nil,
                tracking: TableFileNames.tracking
            )
        } catch {
            throw TableDatabase.refusal(error, path: path)
        }
        if options.track {
            guard readOnlyReason == nil, table.rowIDColumn != nil else {
                throw .usage("--track: cannot install triggers: \(reason ?? "the table is read-only")")
            }
            do { try store.installTracking(forTables: [table.name]) } catch {
                throw TableDatabase.refusal(error, path: path)
            }
        }
        return OpenedTable(database: self, table: table, store: store, query: query, readOnlyReason: reason)
    }

    /// The most columns a table may have to be read here: every fetch selects its row id and its
    /// columns in one SELECT, and SQLite's result has at most 2,000 columns (`SQLITE_MAX_COLUMN`).
    static let maxColumns = 1999

    /// `options` checked against `table`'s columns, without opening a store.
    ///
    /// - Throws: 65 for a table wider than ``maxColumns`` (a table SQLite allows, with 2,000 columns,
    ///   but whose rows no SELECT with their row id can return); 64 for an option it cannot take.
    package func query(for table: CatalogTable, options: TableOptions) throws(FetchedTableError) -> TableQuery {
        guard table.columns.count <= TableDatabase.maxColumns else {
            throw .data(
                "\(path): the \(TableDatabase.kind(of: table)) \(table.name) has \(table.columns.count) columns, more "
                    + "than the \(TableDatabase.maxColumns) fetchedtable can read (SQLite returns at most 2000 "
                    + "columns at once, and one of them is the row id)"
            )
        }
        // A CSV file's real columns may have companions of text (the numbers as written): shown, not listed.
        var writtenForms: [String: String] = [:]
        var columns: [TableColumn] = []
        let orderColumns = Set(serverOrder?.orderColumns.values.map { $0 } ?? []).union(
            querySource?.hiddenColumns ?? []
        )
        for column in table.columns where !orderColumns.contains(column.name) {
            if kind.isCached, let of = CSVTable.column(ofWrittenForm: column.name) {
                writtenForms[of] = column.name
            } else {
                var tableColumn = TableColumn(name: column.name, type: column.type)
                tableColumn.typeIsChecked = kind.isCached
                if kind == .sqlite, column.type == .text {
                    tableColumn.sampleHoldsDates = table.sampleHoldsDates(column: column.name)
                }
                if column.type == .dateTime || column.type == .text {
                    tableColumn.holdsTimeZoneOffsets = table.sampleHoldsTimeZoneOffsets(column: column.name)
                }
                columns.append(tableColumn)
            }
        }
        // The row id's key path: its column, else `id` — unless a column is called `id` (a CSV file's
        // own), where `rowid` (the id column's name) names it, so that the default order is the
        // table's (before: a 3.4M-row file's own `id` column, unindexed, sorted for the first screen: 0.9 s).
        let hasIDColumn = columns.contains { $0.name == "id" }
        let rowIDKey =
            table.rowIDColumn.flatMap { id in columns.contains { $0.name == id } ? id : nil }
            ?? (hasIDColumn ? table.rowIDColumn ?? "id" : "id")
        // A query's rows are in its own order unless --sort says otherwise.
        let idKey = querySource?.orderColumn ?? rowIDKey
        var query = try TableQuery(
            options: options,
            table: table.name,
            label: querySource?.title,
            columns: columns,
            idKey: idKey
        )
        query.writtenForms = writtenForms
        query.serverOrder = serverOrder
        query.columnLabels = columnLabels
        return query
    }

    /// An error of the store layer as the user reads it, with its status (``StoreFailure/exitStatus``).
    static func refusal(_ error: Error, path: String) -> FetchedTableError {
        if let error = error as? FetchedTableError { return error }
        let failure = StoreFailure(error)
        let message: String
        switch failure {
        case .missingFile: message = "\(path): no such file"
        case .notADatabase where error is StoreError: message = "\(path): not a SQLite database, or a damaged one"
        case .notADatabase, .damaged: message = "\(path): a damaged database (\(error))"
        case .locked: message = "\(path): the database is locked by another process (\(error))"
        default: message = "\(path): \(FetchedTableError.reason(error))"
        }
        return FetchedTableError(message, status: failure.exitStatus)
    }

    /// Whether the file and its folder (for the rollback journal) can be written.
    static func isWritable(_ path: String) -> Bool {
        let folder = (path as NSString).deletingLastPathComponent
        return access(path, W_OK) == 0 && access(folder.isEmpty ? "." : folder, W_OK) == 0
    }
}

/// One table open for browsing, listing or watching.
package struct OpenedTable {
    /// The file it is in.
    package let database: TableDatabase
    /// The table browsed, as the file's catalog describes it (columns, key, row count).
    package let table: CatalogTable
    /// The store over the file (hands off).
    package let store: Store
    /// The options checked against its columns.
    package var query: TableQuery
    /// Why rows cannot be deleted (nil: they can).
    package let readOnlyReason: String?

    /// The entity's name (the table's).
    package var entityName: String { table.name }
}
