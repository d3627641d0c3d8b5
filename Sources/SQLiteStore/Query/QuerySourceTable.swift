/// The one table a query's rows are rows of, by its key: what lets a row of the result be
/// deleted or edited in the table it comes from.
///
/// A query maps to a table when it reads that table alone and its result holds the table's key
/// (the `INTEGER PRIMARY KEY` or `rowid`, or a `WITHOUT ROWID` table's primary key) as plain
/// column references, and that key is unique in the result (as it is unless the query repeats
/// rows: a self-join, `UNION ALL`). Its rows can then be told apart by that key; they are
/// that table's rows to delete and edit unless the query makes a row of several
/// (``changeRefusal``: `GROUP BY`, an aggregate, `DISTINCT`, a window, `UNION`).
///
///     mapping.table                  // "student"
///     mapping.keyColumns             // [(result: "id", table: "id")]
public struct QuerySourceTable: Sendable, Hashable {
    /// The table.
    public var table: String
    /// Each key column: the result's column and the table's column it is.
    public var keyColumns: [KeyColumn]

    /// One column of the key.
    public struct KeyColumn: Sendable, Hashable {
        /// The result's column.
        public var result: String
        /// The table's column.
        public var table: String

        /// The result's column `result`, the table's `table`.
        package init(result: String, table: String) {
            self.result = result
            self.table = table
        }
    }

    /// Why a row of the result, though it carries the table's key, is not one row of the table
    /// to change — the query groups rows, makes them distinct, combines several queries, or
    /// computes over a window ("it groups rows (GROUP BY)") — nil when deleting or editing a row
    /// of the result is deleting or editing that row of the table.
    public var changeRefusal: String?

    /// The mapping of a result to `table`'s rows by `keyColumns` (another engine's query).
    package init(table: String, keyColumns: [KeyColumn], changeRefusal: String? = nil) {
        self.table = table
        self.keyColumns = keyColumns
        self.changeRefusal = changeRefusal
    }

    /// The mapping of a prepared query to the one table it reads, or why there is none; a
    /// mapping whose rows still cannot be changed as the table's says why in ``changeRefusal``.
    ///
    /// - Returns: the mapping, or the reason a row of the result is no row of one table.
    static func of(_ query: ReadOnlyQuery) throws -> Result<QuerySourceTable, Refusal> {
        guard let table = query.readTables.first else { return .failure(Refusal("the query reads no table")) }
        let shape = QueryShape(sql: query.sql)
        guard query.readTables.count == 1 else {
            let origins = Set(query.columns.compactMap(\.sourceTable))
            let tables = QuerySourceTable.list(query.readTables)
            let why =
                shape.joins || origins.count > 1
                ? "its rows come from a join of \(tables)" : "it reads \(tables), not one table"
            return .failure(Refusal(why))
        }
        guard let inspected = try CatalogInspection.table(named: table, in: query.database) else {
            return .failure(Refusal("\(table) is not a table"))
        }
        var keys: [[String]] = inspected.rowIDColumn.map { [[$0]] } ?? []
        let primaryKey = inspected.columns.filter(\.isPrimaryKey).map(\.name)
        if !primaryKey.isEmpty && primaryKey != keys.first { keys.append(primaryKey) }
        guard let first = keys.first else { return .failure(Refusal("\(table) has no key to find its rows by")) }
        let changeRefusal = try changeRefusal(shape, in: query.database)
        for key in keys {
            if let columns = keyColumns(key, of: inspected, in: query) {
                return .success(QuerySourceTable(table: table, keyColumns: columns, changeRefusal: changeRefusal))
            }
        }
        // Rows made of several (GROUP BY) say so rather than that the key is missing.
        if let changeRefusal { return .failure(Refusal(changeRefusal)) }
        let owner = table.hasSuffix("s") ? "\(table)'" : "\(table)'s"
        return .failure(
            Refusal("it does not return \(owner) key (\(first.joined(separator: ", "))): add it to the SELECT")
        )
    }

    /// Why the rows of `sql` are made from several rows of a table, from its words (``changeRefusal``
    /// for another engine's query, whose views its planner reads through): nil when they are not.
    package static func shapeRefusal(sql: String) -> String? { QueryShape(sql: sql).refusal }

    /// Why the rows of `sql`, which reads `tables`, are no one table's ("its rows come from a
    /// join of orders and customer"), for another engine's query.
    package static func severalTablesRefusal(sql: String, tables: [String]) -> String {
        QueryShape(sql: sql).joins
            ? "its rows come from a join of \(list(tables))" : "it reads \(list(tables)), not one table"
    }

    /// The result's columns that are `key`'s columns of `table`, nil when one is missing.
    private static func keyColumns(
        _ key: [String],
        of table: CatalogInspection.Table,
        in query: ReadOnlyQuery
    ) -> [KeyColumn]? {
        let aliases: Set<String> = ["rowid", "_rowid_", "oid"]
        var columns: [KeyColumn] = []
        for name in key {
            let isRowID = table.rowIDColumn?.lowercased() == name.lowercased()
            let found = query.columns.first { column in
                guard column.sourceTable == table.name, let source = column.sourceColumn?.lowercased() else {
                    return false
                }
                return source == name.lowercased() || (isRowID && aliases.contains(source))
            }
            guard let found else { return nil }
            columns.append(KeyColumn(result: found.name, table: name))
        }
        return columns
    }

    /// Why rows that carry one table's key are still made from several of its rows, from the
    /// query's words and those of the views it names (in turn): nil when they are not.
    private static func changeRefusal(_ shape: QueryShape, in database: Database) throws -> String? {
        if let refusal = shape.refusal { return refusal }
        var views: [String: String] = [:]
        try database.forEachRow("SELECT name, sql FROM sqlite_master WHERE type = 'view'") { row in
            views[row.text(at: 0).uppercased()] = row.isNull(at: 1) ? "" : row.text(at: 1)
        }
        var seen = Set<String>()
        var pending = Array(shape.names.filter { views[$0] != nil })
        while let name = pending.popLast() {
            guard seen.insert(name).inserted, let sql = views[name] else { continue }
            let inner = QueryShape(sql: sql)
            if let refusal = inner.refusal { return "\(refusal) in the view \(name.lowercased())" }
            pending += inner.names.filter { views[$0] != nil }
        }
        return nil
    }

    /// "a and b", "a, b and c".
    static func list(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }

    /// Why a query's rows are no rows of one table.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// The reason, in words ("the rows come from several tables (student, subject)").
        public var reason: String
        init(_ reason: String) { self.reason = reason }
        public var description: String { reason }
    }
}
