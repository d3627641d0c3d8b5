/// The one table a query's rows are rows of, by its key: what lets a row of the result be
/// deleted or edited in the table it comes from.
///
/// A query maps to a table when it reads that table alone and its result holds the table's key
/// (the `INTEGER PRIMARY KEY` or `rowid`, or a `WITHOUT ROWID` table's primary key) as plain
/// column references, and that key is unique in the result (as it is unless the query repeats
/// rows: a self-join, `UNION ALL`).
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

    /// The mapping of a result to `table`'s rows by `keyColumns` (another engine's query).
    package init(table: String, keyColumns: [KeyColumn]) {
        self.table = table
        self.keyColumns = keyColumns
    }

    /// The mapping of a prepared query to the one table it reads, or why there is none.
    ///
    /// - Returns: the mapping, or the reason a row of the result is no row of one table.
    static func of(_ query: ReadOnlyQuery) throws -> Result<QuerySourceTable, Refusal> {
        guard let table = query.readTables.first else { return .failure(Refusal("the query reads no table")) }
        guard query.readTables.count == 1 else {
            return .failure(
                Refusal("the rows come from several tables (\(query.readTables.joined(separator: ", ")))")
            )
        }
        guard let inspected = try CatalogInspection.table(named: table, in: query.database) else {
            return .failure(Refusal("\(table) is not a table"))
        }
        let key = inspected.rowIDColumn.map { [$0] } ?? inspected.columns.filter(\.isPrimaryKey).map(\.name)
        guard !key.isEmpty else { return .failure(Refusal("\(table) has no key to find its rows by")) }
        let aliases: Set<String> = ["rowid", "_rowid_", "oid"]
        var columns: [KeyColumn] = []
        for name in key {
            let isRowID = inspected.rowIDColumn?.lowercased() == name.lowercased()
            let found = query.columns.first { column in
                guard column.sourceTable == table, let source = column.sourceColumn?.lowercased() else { return false }
                return source == name.lowercased() || (isRowID && aliases.contains(source))
            }
            guard let found else {
                return .failure(
                    Refusal("the result lacks \(table)'s key (\(key.joined(separator: ", "))): add it to the SELECT")
                )
            }
            columns.append(KeyColumn(result: found.name, table: name))
        }
        return .success(QuerySourceTable(table: table, keyColumns: columns))
    }

    /// Why a query's rows are no rows of one table.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// The reason, in words ("the rows come from several tables (student, subject)").
        public var reason: String
        init(_ reason: String) { self.reason = reason }
        public var description: String { reason }
    }
}
