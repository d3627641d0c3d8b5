/// The kinds of values an attribute holds, and how each is stored.
///
/// `.date` is `TEXT 'YYYY-MM-DD'`, `.dateTime` is `TEXT 'YYYY-MM-DDTHH:MM:SSZ'`,
/// `.bool` is `INTEGER 0/1`; the rest map to SQLite's own classes.
public enum AttributeType: Sendable, Hashable {
    /// The value kinds: text, 64-bit integer, double, bool (0/1), date (`YYYY-MM-DD`), date-time (`YYYY-MM-DDTHH:MM:SSZ`) and bytes.
    case text, integer, real, bool, date, dateTime, blob

    /// The declared column type in CREATE TABLE.
    package var sqlType: String {
        switch self {
        case .text, .date, .dateTime: return "TEXT"
        case .integer, .bool: return "INTEGER"
        case .real: return "REAL"
        case .blob: return "BLOB"
        }
    }
}

/// A stored property of an entity: one column of its table.
///
///     Attribute("publishedOn", .date, indexed: true)        // column published_on TEXT NOT NULL
///     Attribute("edition", .integer, optional: true)         // column edition INTEGER
///     Attribute("language", .text, default: .text(""))       // DEFAULT ''
public struct Attribute: Sendable, Hashable {
    /// The Swift-side name (camelCase), used in key paths.
    public var name: String
    /// The kind of value the attribute holds.
    public var type: AttributeType
    /// When false the column is NOT NULL and `save()` refuses NULL.
    public var isOptional: Bool
    /// The column DEFAULT, also the value of a new object.
    public var defaultValue: StoreValue?
    /// Creates an index on the column (for sorting and filtering).
    public var isIndexed: Bool
    /// The column name: `snake_case(name)`, or the column given to ``init(_:_:column:optional:declaredType:)``.
    public var columnName: String
    /// ``columnName`` as SQL (quoted when it must be: `"Close Date"`).
    package var sqlColumn: String { SQLIdentifier.quoted(columnName) }
    /// The column's type affinity, which decides how SQLite converts a value compared with it:
    /// that of `AttributeType.sqlType` for this project's columns, that of the declared type
    /// for a column of an existing table (a `DATE` column's is numeric, a column declared without
    /// a type has blob's); nil for a view's column computed by an expression, which has none.
    /// Predicates compare as SQLite does by it, in SQL and in Swift.
    public var affinity: TypeAffinity?
    /// True for a generated column of an existing table (`GENERATED ALWAYS AS (…)`): read like
    /// any other, never written (an insert leaves it to SQLite; setting it fails the save).
    package var isGenerated = false
    /// The `DEFAULT` an existing table declares for the column, as written (`1`, `'today'`,
    /// `CURRENT_TIMESTAMP`): what an insert that leaves the attribute unset stores. Nil without one
    /// (and for this project's columns, whose default is ``defaultValue``).
    package var defaultExpression: String?
    /// True when an existing table declares the column `NOT NULL` (the store leaves the check to
    /// SQLite: such an attribute is still ``isOptional``, its DEFAULT may fill it).
    package var isNotNull = false

    /// An attribute; required (NOT NULL) unless `optional`, indexed when `indexed`.
    public init(
        _ name: String,
        _ type: AttributeType,
        optional: Bool = false,
        default defaultValue: StoreValue? = nil,
        indexed: Bool = false
    ) {
        self.name = name
        self.type = type
        self.isOptional = optional
        self.defaultValue = defaultValue
        self.isIndexed = indexed
        self.columnName = snakeCase(name)
        self.affinity = TypeAffinity(declaredType: type.sqlType)
    }

    /// An attribute stored in the column `column` exactly as named in its table (for entities
    /// over existing tables): optional by default, no default value, no index of its own; its
    /// ``affinity`` that of the column's `declaredType` when it is given, else of `type`'s `AttributeType.sqlType`.
    ///
    ///     Attribute("Close Date", .date, column: "Close Date")   // key path "Close Date", SQL "Close Date"
    ///     Attribute("Closed", .date, column: "Closed", declaredType: "DATE")   // numeric affinity
    public init(
        _ name: String,
        _ type: AttributeType,
        column: String,
        optional: Bool = true,
        declaredType: String? = nil
    ) {
        self.name = name
        self.type = type
        self.isOptional = optional
        self.defaultValue = nil
        self.isIndexed = false
        self.columnName = column
        self.affinity = TypeAffinity(declaredType: declaredType ?? type.sqlType)
    }
}
