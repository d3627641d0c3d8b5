import CLIKit
import FetchedResultsUI
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore

/// The server table a PostgreSQL query's rows are rows of (``QuerySourceTable``), open for
/// writing through a connection of its own: `d`, `e` and `a` on the result change that table's
/// rows on the server, found by the key the result carries, with the same guarded writes as a
/// table's copy (``TableWrites``: an edit only over the value shown, a delete whose undo can be
/// done). The result itself is never written: it changes when the query runs again.
///
/// Its methods but ``editRefusal(column:)`` talk to the server: call them on the requests' thread.
final class PostgresQueryWrites: @unchecked Sendable {
    /// The table and the result's key columns.
    let mapping: QuerySourceTable
    /// The server's table.
    let table: TableDescription
    /// Why the role may not delete, edit or add rows of the table.
    let refusals: PostgresWriteRefusals
    /// The table's DEFAULTs, for `a`'s form.
    let columnDefaults: [String: String]
    /// The server, for the words of its refusals.
    let target: PostgresTarget
    /// The result's columns that are plain references to the table's columns: the table's
    /// column by the result's name.
    let tableColumns: [String: String]
    private let columns: [QueryColumn]
    private let expressions: [String: String]
    private let connection: PostgresConnection
    private let writes: TableWrites

    /// Connects to `target` and reads `mapping`'s table, its privileges and DEFAULTs.
    init(
        target: PostgresTarget,
        sql: String,
        mapping: QuerySourceTable,
        columns: [QueryColumn]
    )
        throws(FetchedTableError)
    {
        self.mapping = mapping
        self.target = target
        self.columns = columns
        expressions = QueryColumn.expressions(in: sql)
        tableColumns = QueryColumn.plainColumns(of: mapping.table, in: columns)
        let server = try PostgresServer.connect(target, warn: { _ in })
        connection = server.connection
        table = try server.table(named: mapping.table)
        refusals = try server.writeRefusals(of: table)
        columnDefaults = try server.columnDefaults(of: table)
        connection.statementTimeout = 10
        var writes = TableWrites(table: table)
        writes.lockTimeout = 6
        self.writes = writes
    }

    /// Why the result's column `name` cannot be edited (nil: it is the table's column, not its key).
    func editRefusal(column name: String) -> String? {
        if let update = refusals.update { return update }
        guard let source = tableColumns[name] else {
            let how = expressions[name].map { "(\($0))" } ?? "by the query"
            return "\(name) is computed \(how), not a column of \(mapping.table)"
        }
        if mapping.keyColumns.contains(where: { $0.result == name }) {
            return "\(name) is \(QueryWrites.owner(mapping.table)) key, which finds the row: it is not edited here"
        }
        return table.columns.first { $0.name == source }.flatMap(TableWrites.editRefusal(of:))
    }

    /// The table's key of the result's `row`, as the server's text.
    func key(of row: ManagedObject) -> [String] {
        mapping.keyColumns.map { PostgresBrowser.serverText(of: row[$0.result], isBoolean: false) ?? "" }
    }

    /// Whether the table's column `name` holds booleans (the result shows them as 0 and 1).
    func isBoolean(_ name: String) -> Bool {
        table.columns.first { $0.name == name }?.typeName == "boolean"
    }

    // MARK: On the requests' thread

    /// The values `row` of the result shows of the table's columns, by the table's column name.
    func shownValues(of row: ManagedObject) -> [String: StoreValue] {
        Dictionary(tableColumns.map { ($0.value, row[$0.key]) }, uniquingKeysWith: { first, _ in first })
    }

    /// `d`: the row of `key` deleted while it holds the values `shown`; a row another session
    /// changed or deleted first is a conflict.
    func delete(key: [String], shown: [String: StoreValue]) throws -> [DeletedRow] {
        let rows = try writes.delete(keys: [key], shown: shown, on: connection)
        if rows.isEmpty {
            throw ReplicaError.conflict(reason: "another session deleted it from \(mapping.table) since it was shown")
        }
        return rows
    }

    /// `e`: the result's `column` (a plain column of the table) set to `text` in the row of
    /// `key`, only while the server holds `shown` there.
    func update(key: [String], column: String, to text: String?, shown: StoreValue) throws -> EditedCell {
        guard let source = tableColumns[column] else {
            throw ReplicaError.readOnly(reason: editRefusal(column: column) ?? "\(column) is not a column of the table")
        }
        return try writes.update(key: key, column: source, to: text, expecting: .shown(shown), on: connection).get()
    }

    /// `a`: a row of `values` (the table's columns) inserted; returns it as the server held it.
    func insert(_ values: [String: String?]) throws -> AddedRow {
        try writes.insert(values, on: connection)
    }

    /// One change made through the result, as what inverting it takes.
    enum Change: Sendable {
        case deleted([DeletedRow])
        /// Rows added or written back, as the write left them: deleted only while they hold that.
        case present([AddedRow])
        case edited(EditedCell)
    }

    /// Makes the inverse of `change` on the server and returns it (undo, and redo).
    func invert(_ change: Change) throws -> Change {
        switch change {
        case .deleted(let rows):
            return .present(try writes.restore(rows, on: connection))
        case .present(let added):
            let rows = try writes.delete(added, on: connection)
            if rows.isEmpty { throw ReplicaError.conflict(reason: "another session deleted the row since") }
            return .deleted(rows)
        case .edited(let edit):
            return .edited(try writes.revert(edit, on: connection).get())
        }
    }

    /// A write's failure as the status line says it: the server's refusal by its SQLSTATE's kind.
    func reason(_ error: any Error) -> String {
        switch error {
        case ReplicaError.server(let error): PostgresServer.oneLine(target.redacted(PostgresBrowser.refusalText(error)))
        case let error as PostgresError: PostgresServer.oneLine(target.redacted(PostgresBrowser.refusalText(error)))
        case let error as ReplicaError: PostgresCopy.refusal(error, target: target).message
        case let error as FetchedTableError: error.message
        default: target.redacted(FetchedTableError.reason(error))
        }
    }
}
