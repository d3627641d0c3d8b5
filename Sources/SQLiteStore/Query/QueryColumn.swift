/// One column of a query's result: the name it is listed under, its declared type, and the
/// column of a table it is read from when it is a plain column reference.
///
/// Names are unique: a second column of the same name is numbered as SQLite numbers it in a
/// `CREATE TABLE … AS SELECT` (`id`, `id:1`, `id:2`).
///
///     query.columns.map(\.name)           // ["subject", "students"]
///     query.columns[0].source             // ("student", "subject")
///     query.columns[1].source             // nil: count(*) is an expression
public struct QueryColumn: Sendable, Hashable {
    /// The name the result lists it under (made unique).
    public var name: String
    /// The declared type of the table column it is read from (`TEXT`, `INTEGER`), or of the
    /// server's type on PostgreSQL; `""` for an expression.
    public var declaredType: String
    /// The table the value is read from, when the column is a plain reference to a table's
    /// column (SQLite's `sqlite3_column_table_name`), nil for an expression.
    public var sourceTable: String?
    /// The name of that table column (SQLite's `sqlite3_column_origin_name`).
    public var sourceColumn: String?

    /// A column of a result.
    public init(name: String, declaredType: String = "", sourceTable: String? = nil, sourceColumn: String? = nil) {
        self.name = name
        self.declaredType = declaredType
        self.sourceTable = sourceTable
        self.sourceColumn = sourceColumn
    }

    /// `names` made unique the way SQLite names a `CREATE TABLE … AS SELECT`'s columns:
    /// a repeated name gets `:1`, `:2`… (the first keeps its own), never a name already taken.
    ///
    ///     QueryColumn.uniqueNames(["id", "name", "id"])   // ["id", "name", "id:1"]
    public static func uniqueNames(_ names: [String]) -> [String] {
        var taken = Set(names.map { $0.lowercased() })
        var seen = Set<String>()
        return names.map { name in
            guard seen.insert(name.lowercased()).inserted else {
                var number = 1
                while taken.contains("\(name):\(number)".lowercased()) { number += 1 }
                let unique = "\(name):\(number)"
                taken.insert(unique.lowercased())
                return unique
            }
            return name
        }
    }
}
