import PostgreSQLChangeFeed
import PostgreSQLClient

/// A server table as the replica copies it: its columns, how its rows are
/// named (the integer key as the row id, another key through the key table,
/// or the row's content when it has no key), and the SELECT that reads it.
struct ReplicaShape: Sendable {
    let description: TableDescription
    let columns: [ReplicaColumn]
    /// The names of the table's change history, when it is tracked.
    let changeFeed: ChangeFeedConfiguration

    /// The columns that have an order column (``ReplicaColumn/orderColumn``), by index into
    /// ``columns``, in the order their order columns follow the columns in the replica.
    let ordered: [Int]

    init(_ description: TableDescription, changeFeed: ChangeFeedConfiguration) {
        self.description = description
        self.changeFeed = changeFeed
        var columns = description.columns.map(ReplicaColumn.init)
        var taken = Set(columns.map(\.name))
        ordered = columns.indices.filter { columns[$0].order != nil }
        for index in ordered {
            var name = "pgreplica_order_" + columns[index].name
            while !taken.insert(name).inserted { name += "_" }
            columns[index].orderColumn = name
        }
        self.columns = columns
    }

    /// The order columns' orders, in replica order.
    var orders: [ReplicaOrder] { ordered.compactMap { columns[$0].order } }

    /// The replica table's columns: the server's, then the order columns (``ordered``).
    var storedColumnNames: [String] {
        columns.map(\.name) + ordered.compactMap { columns[$0].orderColumn }
    }

    /// Each stored column's declared type in the replica (an order column's is `BLOB`).
    var storedColumnTypes: [String] {
        columns.map(\.declaredType) + ordered.map { _ in "BLOB" }
    }

    /// How many values a stored row has: ``storedColumnNames``'.
    var storedWidth: Int { columns.count + ordered.count }

    var source: TableName { description.name }
    var tableName: String { description.name.name }
    var keyColumns: [String] { description.primaryKey }

    /// The key column that is the replica's `INTEGER PRIMARY KEY`: the
    /// primary key when it is one integer column.
    var integerKey: String? {
        guard keyColumns.count == 1, let column = columns.first(where: { $0.name == keyColumns[0] }),
            column.storage == .integer
        else { return nil }
        return column.name
    }

    /// Why rows cannot be deleted, or nil.
    var readOnlyReason: String? {
        switch description.kind {
        case .view, .materializedView: return "\(source) is a view"
        case .foreignTable where keyColumns.isEmpty: return "\(source) is a foreign table without a primary key"
        default: return keyColumns.isEmpty ? "\(source) has no primary key" : nil
        }
    }

    /// What the list is told of the replica file at `path` holding `rowCount`
    /// rows of this table (after a copy, or after taking over an earlier one).
    func table(at path: String, rowCount: Int) -> ReplicaTable {
        ReplicaTable(
            path: path,
            tableName: tableName,
            source: source,
            kind: description.kind,
            keyColumns: keyColumns,
            columns: columns,
            rowIDColumn: integerKey,
            readOnlyReason: readOnlyReason,
            rowCount: rowCount
        )
    }

    /// The change feed of the table, or nil when it has no primary key.
    var feed: ChangeFeed? {
        keyColumns.isEmpty || description.kind == .view
            ? nil : ChangeFeed(table: source, keyColumns: keyColumns, configuration: changeFeed)
    }

    /// The key columns' types as SQL writes them, for casts.
    var keyTypes: [String] {
        keyColumns.map { key in columns.first { $0.name == key }?.postgresType ?? "text" }
    }

    /// What the SELECT of the copy reads: each column converted for the
    /// replica (`timestamptz` to local time, `bytea` to its size), then the text each
    /// order column's key is made from (``ReplicaOrder/sourceSQL``), then
    /// each key column's text (the history's form of a key).
    var selectList: String {
        let keys = keyColumns.indices.map { "\(keyTexts[$0]) AS replica_key_\($0)" }
        return (convertedColumns + orderSources + keys).joined(separator: ", ")
    }

    /// Each key column's text, as the change history records it (``ChangeFeed/keyText(of:)``).
    var keyTexts: [String] { keyColumns.map { ChangeFeed.keyText(of: SQLIdentifier.quote($0)) } }

    /// What the copy's `COPY` reads: as ``selectList``, without the key's text when the
    /// key is the integer row id (the copy writes it as the id; no need to read it twice).
    var copySelectList: String {
        integerKey == nil ? selectList : (convertedColumns + orderSources).joined(separator: ", ")
    }

    /// The texts the order columns' keys are made from.
    private var orderSources: [String] {
        orders.enumerated().map { "\($1.sourceSQL) AS replica_order_\($0)" }
    }

    /// The key columns the copy's rows end with (``copySelectList``).
    var copyKeyCount: Int { integerKey == nil ? keyColumns.count : 0 }

    /// Each column as the replica keeps it.
    private var convertedColumns: [String] {
        columns.map { column -> String in
            let name = SQLIdentifier.quote(column.name)
            if column.isTimestampWithTimeZone { return "\(name)::timestamp AS \(name)" }
            if column.storage == .byteSize { return "octet_length(\(name)) AS \(name)" }
            return name
        }
    }

    /// `FROM` the table under the alias ``ReplicaShape/sourceAlias``, which
    /// an `ORDER BY` names so that it sorts by the table's columns, not by
    /// the converted values of the same names.
    var fromClause: String { "FROM \(source.quoted) AS \(ReplicaShape.sourceAlias)" }

    static let sourceAlias = "replica_source"

    /// A table column for `ORDER BY`.
    static func sortColumn(_ name: String) -> String { sourceAlias + "." + SQLIdentifier.quote(name) }

    /// `ORDER BY` of the copy: the key (so the row ids of a key table follow it).
    var keyOrder: String {
        keyColumns.isEmpty ? "" : " ORDER BY " + keyColumns.map(ReplicaShape.sortColumn).joined(separator: ", ")
    }

    /// `WHERE (key columns) IN (the keys bound as text arrays $1, $2…)`.
    var keyCondition: String {
        let columnsList = keyColumns.map(SQLIdentifier.quote).joined(separator: ", ")
        let arrays = keyColumns.indices.map { "$\($0 + 1)::text[]" }.joined(separator: ", ")
        let names = keyColumns.indices.map { "k\($0)" }
        let casts = zip(names, keyTypes).map { "\($0)::\($1)" }.joined(separator: ", ")
        return "(\(columnsList)) IN (SELECT \(casts) FROM unnest(\(arrays)) AS u(\(names.joined(separator: ", "))))"
    }

    /// The bound parameters of ``keyCondition`` for `keys` (each the key's texts).
    func keyParameters(_ keys: [[String]]) -> [String?] {
        keyColumns.indices.map { index in
            PostgresValue.array(keys.map { .text($0[index]) }).parameterText
        }
    }
}

/// The server table's columns are no longer a replica's: what changed, in a person's words.
struct ReplicaShapeChange: Error, Equatable {
    let reason: String
}

extension ReplicaShape {
    /// What changed in the table's columns since this shape was read — a column renamed,
    /// added, dropped or retyped — or nil when nothing did. A table that is gone is no change
    /// here: its statements fail with the server's words (``ReplicaStatus/refused(since:reason:advice:)``).
    func change(on connection: PostgresConnection) throws(PostgresError) -> ReplicaShapeChange? {
        let result = try connection.query(
            """
            SELECT a.attname, format_type(a.atttypid, a.atttypmod)
            FROM pg_attribute a
            WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attnum
            """,
            [source.quoted]
        )
        let now = (0..<result.rowCount).map { row in
            (name: result.text(row: row, column: 0) ?? "", type: result.text(row: row, column: 1) ?? "")
        }
        guard !now.isEmpty else { return nil }
        let before = description.columns.map { (name: $0.name, type: $0.typeName) }
        guard now.map(\.name) != before.map(\.name) || now.map(\.type) != before.map(\.type) else { return nil }
        let gone = before.filter { old in !now.contains { $0.name == old.name } }.map(\.name)
        let new = now.filter { current in !before.contains { $0.name == current.name } }.map(\.name)
        let retyped = now.filter { current in before.contains { $0.name == current.name && $0.type != current.type } }
        let table = source.description
        if gone.count == 1, new.count == 1, now.count == before.count {
            return ReplicaShapeChange(reason: "the column \(gone[0]) of \(table) was renamed \(new[0])")
        }
        var parts: [String] = []
        if !gone.isEmpty { parts.append("\(gone.joined(separator: ", ")) dropped") }
        if !new.isEmpty { parts.append("\(new.joined(separator: ", ")) added") }
        if !retyped.isEmpty { parts.append("\(retyped.map(\.name).joined(separator: ", ")) of another type") }
        if parts.isEmpty { parts.append("its columns reordered") }
        return ReplicaShapeChange(reason: "the columns of \(table) changed: " + parts.joined(separator: "; "))
    }
}
