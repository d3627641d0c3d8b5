import CLIKit
import FetchedResultsUI
import Foundation
import SQLiteStore

/// The table a SQLite query's rows are rows of (``QuerySourceTable``), open for writing: `d`,
/// `e` and `a` on the query's result change that table's rows, found by the key the result
/// carries, through a context of their own (its undo stack is `u`'s and Ctrl-R's). The result
/// itself is never written: it changes when the query runs again after the commit, as after
/// any other program's.
///
///     let writes = try QueryWrites(file: "shop.sqlite", sql: live.sql, mapping: mapping, columns: live.columns)
///     try writes.delete(row, actionName: "Deleted “pear”")
final class QueryWrites {
    /// The table and the result's key columns.
    let mapping: QuerySourceTable
    /// The table's context (over the queried file, read-write).
    let context: ObjectContext
    /// The result's columns that are plain references to the table's columns: the table's
    /// column by the result's name.
    let tableColumns: [String: String]
    /// The result's columns.
    private let columns: [QueryColumn]
    /// The query's expressions named with `AS`, by that name (``QueryColumn/expressions(in:)``).
    private let expressions: [String: String]

    /// The table `mapping` names in the SQLite file at `file`, open for writing.
    ///
    /// - Throws: ``FetchedTableError`` naming why its rows cannot be changed (a table without a
    ///   row id, a file that cannot be opened).
    init(file: String, sql: String, mapping: QuerySourceTable, columns: [QueryColumn]) throws(FetchedTableError) {
        self.mapping = mapping
        self.columns = columns
        expressions = QueryColumn.expressions(in: sql)
        tableColumns = QueryColumn.plainColumns(of: mapping.table, in: columns)
        do {
            let catalog = try DatabaseCatalog(path: file, tracking: TableFileNames.tracking)
            guard let table = catalog.table(named: mapping.table) else {
                throw FetchedTableError("\(mapping.table) is not a table of \(file)", status: ExitStatus.dataError)
            }
            if let reason = table.noRowIDReason { throw FetchedTableError(reason, status: ExitStatus.dataError) }
            let entity = table.entity(named: table.name, positionColumn: TableFileNames.positionColumn)
            let store = try Store(
                foreignDatabaseAt: file,
                model: Model(version: 1, applicationID: 0, entities: [entity]),
                readOnly: false,
                tracking: TableFileNames.tracking
            )
            context = ObjectContext(store: store)
        } catch {
            throw TableDatabase.refusal(error, path: file)
        }
    }

    /// Why the result's column `name` cannot be edited (nil: it is the table's column, not its key).
    func editRefusal(column name: String) -> String? {
        guard let source = tableColumns[name] else {
            let origin = columns.first { $0.name == name }?.sourceTable
            if let origin, origin != mapping.table {
                return "\(name) is \(QueryWrites.owner(origin)) column, not \(QueryWrites.owner(mapping.table))"
            }
            let how = expressions[name].map { "(\($0))" } ?? "by the query"
            return "\(name) is computed \(how), not a column of \(mapping.table)"
        }
        if mapping.keyColumns.contains(where: { $0.result == name }) {
            return "\(name) is \(QueryWrites.owner(mapping.table)) key, which finds the row: it is not edited here"
        }
        if let column = context.store.model.entity(named: mapping.table)?.attribute(named: source),
            column.isGenerated
        {
            return "\(name) is a generated column (SQLite computes it)"
        }
        return nil
    }

    /// "orders'", "student's".
    static func owner(_ name: String) -> String { name.hasSuffix("s") ? "\(name)'" : "\(name)'s" }

    /// The table's row that `row` of the result stands for, read now.
    ///
    /// - Throws: ``QueryWriteRefusal`` when the table has it no more.
    func tableRow(of row: ManagedObject) throws -> ManagedObject {
        var conditions: [String] = []
        var values: [StoreValue] = []
        for key in mapping.keyColumns {
            conditions.append("\(SQLIdentifier.quoted(key.table)) IS ?")
            values.append(row[key.result])
        }
        let found = try context.fetch(mapping.table, where: conditions.joined(separator: " AND "), values, limit: 1)
        guard let object = found.first else {
            throw QueryWriteRefusal(description: "another program deleted it from \(mapping.table) since it was shown")
        }
        return object
    }

    /// `d`: the table's row of `row` deleted, saved as `actionName` — unless another program
    /// changed one of the table's columns the result shows since it was shown.
    func delete(_ row: ManagedObject, actionName: String) throws {
        let object = try tableRow(of: row)
        for (result, source) in tableColumns.sorted(by: { $0.key < $1.key }) {
            try checkShown(row[result], column: result, now: object[source])
        }
        context.delete(object)
        try save(actionName)
    }

    /// `e`: the table's column of the result's `column` set to `value` in `row`'s table row,
    /// saved as `actionName` — unless it no longer holds `shown`, the value the cell showed.
    ///
    /// - Throws: ``QueryWriteRefusal`` in the words the table's own cell editor says them
    ///   (``CellText/reason(for:column:)``: a constraint by its kind, "the disk is full").
    func edit(_ row: ManagedObject, column: String, value: StoreValue, shown: StoreValue, actionName: String) throws {
        if let reason = editRefusal(column: column) { throw QueryWriteRefusal(description: reason) }
        guard let source = tableColumns[column] else { return }
        let object = try tableRow(of: row)
        try checkShown(shown, column: column, now: object[source])
        object[source] = value
        do {
            try save(actionName)
        } catch {
            throw QueryWriteRefusal(description: CellText.reason(for: error, column: column))
        }
    }

    /// `a`: a new row of the table with `values` (the fields filled), saved as `actionName`.
    ///
    /// - Throws: ``QueryWriteRefusal`` in the words the table's own form says them (the
    ///   constraint's column by its kind, "the disk is full").
    func insert(_ values: [(key: String, value: StoreValue)], actionName: String) throws {
        let object = context.insert(into: mapping.table)
        for (key, value) in values { object[key] = value }
        do {
            try save(actionName)
        } catch {
            let column = CellText.column(of: error, table: mapping.table) ?? "one of its columns"
            throw QueryWriteRefusal(description: CellText.reason(for: error, column: column))
        }
    }

    /// Saves the context (rolled back when refused).
    private func save(_ actionName: String) throws {
        do {
            try context.save(actionName: actionName)
        } catch {
            context.rollback()
            throw error
        }
    }

    /// Throws a conflict when the table's value `now` is not the value `shown`.
    private func checkShown(_ shown: StoreValue, column: String, now: StoreValue) throws {
        guard shown != now, !QueryWrites.sameNumber(shown, now) else { return }
        throw QueryWriteRefusal(
            description:
                "another program changed \(column) in \(mapping.table) since it was shown (it is \(now) now); nothing was written"
        )
    }

    /// Whether two values are the same number (an INTEGER the result holds as a REAL, or back).
    private static func sameNumber(_ a: StoreValue, _ b: StoreValue) -> Bool {
        switch (a, b) {
        case (.integer(let x), .real(let y)), (.real(let y), .integer(let x)): Double(x) == y
        default: false
        }
    }
}

/// A write through a query's result refused: the table's row is gone or changed since it was
/// shown, the column is not the table's to edit, or the table refuses the value.
struct QueryWriteRefusal: Error, CustomStringConvertible {
    var description: String
}
