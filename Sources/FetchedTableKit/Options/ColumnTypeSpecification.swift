import BulkImport
import SQLiteStore

/// `--type 'COLUMN=TYPE, …'`: the type a person gives a column, one of `integer`, `real`,
/// `text`, `date`, `datetime`, `boolean` (a name with spaces, commas or `=` in double quotes).
///
/// A SQLite file is never written: the type says how the column's values read and line up,
/// and which section keys `S` offers. A CSV file's cache stores the values as the type
/// (``CSVTableRetyping``, all or nothing) and keeps it until the file changes.
///
///     let types = try ColumnTypeSpecification.parse("dep_delay=integer, \"Closing Date\"=date")
///     types[1].column   // "Closing Date"
package struct ColumnTypeSpecification: Equatable, Sendable {
    /// The column, as written in the table.
    package var column: String
    /// Its type.
    package var type: CSVTableRetyping.Target

    /// A column of `type`.
    package init(column: String, type: CSVTableRetyping.Target) {
        self.column = column
        self.type = type
    }

    /// The store's type of the values.
    package var attributeType: AttributeType { ColumnTypeSpecification.attributeType(of: type) }

    /// The store's type of a ``CSVTableRetyping/Target``.
    package static func attributeType(of type: CSVTableRetyping.Target) -> AttributeType {
        switch type {
        case .integer: return .integer
        case .real: return .real
        case .text: return .text
        case .date: return .date
        case .dateTime: return .dateTime
        case .boolean: return .bool
        }
    }

    /// The target of an attribute type (nil for a BLOB).
    package static func target(of type: AttributeType) -> CSVTableRetyping.Target? {
        switch type {
        case .integer: return .integer
        case .real: return .real
        case .text: return .text
        case .date: return .date
        case .dateTime: return .dateTime
        case .bool: return .boolean
        default: return nil
        }
    }

    /// The `--type` value's columns and types, in order (a column named twice: the last wins).
    package static func parse(_ text: String) throws(OptionError) -> [ColumnTypeSpecification] {
        let names = CSVTableRetyping.Target.allCases.map(\.rawValue).joined(separator: ", ")
        var out: [ColumnTypeSpecification] = []
        for part in try OptionText.splitList(text, option: "--type") {
            guard let equals = lastEqualsOutsideQuotes(part) else {
                throw OptionError("--type: \"\(part)\" is not COLUMN=TYPE (types: \(names))")
            }
            let column = TableOptions.unquoted(String(part[..<equals]).trimmingCharacters(in: .whitespaces))
            let typeName = part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces).lowercased()
            guard !column.isEmpty else { throw OptionError("--type: no column before \"=\" in \"\(part)\"") }
            guard let type = CSVTableRetyping.Target(rawValue: typeName) else {
                throw OptionError("--type: unknown type \"\(typeName)\" for \(column); the types: \(names)")
            }
            out.removeAll { $0.column == column }
            out.append(ColumnTypeSpecification(column: column, type: type))
        }
        guard !out.isEmpty else { throw OptionError("--type: no column given") }
        return out
    }

    /// The last `=` of `text` outside double quotes.
    private static func lastEqualsOutsideQuotes(_ text: String) -> String.Index? {
        var inQuotes = false
        var found: String.Index?
        for index in text.indices {
            if text[index] == "\"" { inQuotes.toggle() }
            if text[index] == "=", !inQuotes { found = index }
        }
        return found
    }
}
