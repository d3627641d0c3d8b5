/// One term of an ORDER BY: a column and its direction.
public struct OrderTerm: Hashable, Sendable {
    /// The column's name (quoted when rendered).
    public let column: String
    /// Ascending (`ASC`) or descending (`DESC`).
    public let ascending: Bool

    /// A term of an ordering.
    public init(_ column: String, ascending: Bool = true) {
        self.column = column
        self.ascending = ascending
    }
}

/// A SELECT over one table rendered for PostgreSQL: the ordered list of
/// keys, or one keyset page — `WHERE (sort keys) come after the last row
/// seen` — with every value a bound parameter and every name quoted.
///
/// Keyset paging reads a page in the time of an index probe wherever it is
/// in the table, where `OFFSET` reads and drops every row before it. The
/// ordering must end with the primary key, so that it is total; its columns
/// must not be NULL at the boundary (sort on a nullable column with OFFSET,
/// or `coalesce` it in a view).
///
///     let order = [OrderTerm("ts", ascending: false), OrderTerm("id")]
///     let page = PageQuery(table: TableName(schema: "public", name: "events"), order: order, limit: 50)
///     let first = try connection.query(page.sql, page.parameters)
///     let next = page.after([.timestampWithTimeZone("2024-03-01 10:00:00+00"), .integer(1234)])
///     let second = try connection.query(next.sql, next.parameters)
public struct PageQuery: Hashable, Sendable {
    /// The table read.
    public let table: TableName
    /// The columns selected, in order; nil selects every column (`*`).
    public let columns: [String]?
    /// The ordering (ending with the primary key).
    public let order: [OrderTerm]
    /// At most this many rows; nil for all.
    public let limit: Int?
    /// The values of ``order``'s columns in the last row seen; nil for the first page.
    public let boundary: [PostgresValue]?

    /// A query for the first page (or every row when `limit` is nil).
    public init(table: TableName, columns: [String]? = nil, order: [OrderTerm], limit: Int? = nil) {
        self.init(table: table, columns: columns, order: order, limit: limit, boundary: nil)
    }

    private init(table: TableName, columns: [String]?, order: [OrderTerm], limit: Int?, boundary: [PostgresValue]?) {
        self.table = table
        self.columns = columns
        self.order = order
        self.limit = limit
        self.boundary = boundary
    }

    /// The same query for the page after the row whose ``order`` columns
    /// hold `boundary` (one value per term).
    public func after(_ boundary: [PostgresValue]) -> PageQuery {
        PageQuery(table: table, columns: columns, order: order, limit: limit, boundary: boundary)
    }

    /// The SQL, with `$1`, `$2`… for ``parameters``.
    public var sql: String {
        let selected = columns.map { $0.map(SQLIdentifier.quote).joined(separator: ", ") } ?? "*"
        var sql = "SELECT \(selected) FROM \(table.quoted)"
        if boundary != nil { sql += " WHERE " + keysetCondition }
        let ordering = order.map { SQLIdentifier.quote($0.column) + ($0.ascending ? "" : " DESC") }
        if !ordering.isEmpty { sql += " ORDER BY " + ordering.joined(separator: ", ") }
        if let limit { sql += " LIMIT \(limit)" }
        return sql
    }

    /// The bound values, in PostgreSQL's text form.
    public var parameters: [String?] { boundary?.map(\.parameterText) ?? [] }

    /// `(a > $1) OR (a = $1 AND b < $2) OR …`: "after" term by term, each in
    /// its own direction (a row comparison `(a, b) > ($1, $2)` only serves
    /// orderings in one direction).
    private var keysetCondition: String {
        let count = min(order.count, boundary?.count ?? 0)
        let alternatives = (0..<count).map { last -> String in
            let equal = (0..<last).map { "\(SQLIdentifier.quote(order[$0].column)) = \(parameter($0))" }
            let term = order[last]
            let step = "\(SQLIdentifier.quote(term.column)) \(term.ascending ? ">" : "<") \(parameter(last))"
            return "(" + (equal + [step]).joined(separator: " AND ") + ")"
        }
        return "(" + alternatives.joined(separator: " OR ") + ")"
    }

    /// `$n` cast to the column's type by the server's inference (untyped).
    private func parameter(_ index: Int) -> String { "$\(index + 1)" }
}
