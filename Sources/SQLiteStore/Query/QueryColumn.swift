import Foundation

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

extension QueryColumn {
    /// The result's columns that are plain columns of `table`, by result name: the table column
    /// each one reads (what a write through the result changes).
    package static func plainColumns(of table: String, in columns: [QueryColumn]) -> [String: String] {
        var plain: [String: String] = [:]
        for column in columns where column.sourceTable == table {
            if let source = column.sourceColumn { plain[column.name] = source }
        }
        return plain
    }

    /// The expressions of `sql`'s outermost select list that are named with `AS`, by that name
    /// (as written, quotes taken off): what a computed column of the result is computed from.
    ///
    ///     QueryColumn.expressions(in: "SELECT id, sum(qty) AS total FROM orders")   // ["total": "sum(qty)"]
    package static func expressions(in sql: String) -> [String: String] {
        var items: [String] = []
        var item = ""
        var depth = 0
        var started = false
        var word = ""
        var quote: Character?
        // The select list: from the first SELECT outside parentheses to the FROM after it.
        for character in sql {
            if let open = quote {
                if started { item.append(character) }
                if character == open { quote = nil }
                continue
            }
            if character.isLetter || character == "_" {
                word.append(character)
            } else {
                let ended = word.uppercased()
                word = ""
                if depth == 0 && !started && ended == "SELECT" {
                    started = true
                    item = ""
                    if character != " " { item.append(character) }
                    continue
                }
                if depth == 0 && started && ended == "FROM" {
                    item.removeLast(4)
                    break
                }
            }
            switch character {
            case "'", "\"", "`": quote = character
            case "(": depth += 1
            case ")": depth -= 1
            case "," where depth == 0 && started:
                items.append(item)
                item = ""
                continue
            default: break
            }
            if started { item.append(character) }
        }
        if started { items.append(item) }
        var found: [String: String] = [:]
        for item in items {
            let text = item.trimmingCharacters(in: .whitespacesAndNewlines)
            // The last AS names the column (an earlier one is inside the expression).
            guard let range = text.matches(of: #/\s+[Aa][Ss]\s+/#).last?.range else { continue }
            var name = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
            if let first = name.first, "\"`[".contains(first), name.count >= 2 {
                name = String(name.dropFirst().dropLast())
            }
            var expression = text[..<range.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
            for prefix in ["DISTINCT ", "ALL "] where expression.uppercased().hasPrefix(prefix) {
                expression = String(expression.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
            }
            found[name] = expression
        }
        return found
    }
}
