import CSVImport
import SQLiteStore

/// How the columns of a CSV file map onto one entity's table: each
/// ``ImportField`` names a column (with its header aliases), the table
/// column it fills and the parser of its values; ``key`` names the field
/// whose value identifies a row (the upsert key); ``rowCheck`` refuses rows
/// whose values do not go together.
///
///     let mapping = EntityMapping(table: "student", key: "number", fields: [
///         ImportField(CSVColumn("Name", aliases: ["Student"]), to: "name"),
///         ImportField(CSVColumn("Number"), to: "number", parse: ImportField.integer),
///         ImportField(CSVColumn("Subject", required: false), to: "subject"),
///     ])
public struct EntityMapping: Sendable {
    /// The table written.
    public var table: String
    /// The table column of the upsert key (one of the fields' columns).
    public var key: String
    /// The mapped columns, in any order.
    public var fields: [ImportField]
    /// A check of a whole row's parsed values (by table column); a problem refuses the row.
    public var rowCheck: (@Sendable ([String: StoreValue]) -> RowProblem?)?

    /// A mapping into `table`, keyed on the table column `key`.
    public init(
        table: String,
        key: String,
        fields: [ImportField],
        rowCheck: (@Sendable ([String: StoreValue]) -> RowProblem?)? = nil
    ) {
        self.table = table
        self.key = key
        self.fields = fields
        self.rowCheck = rowCheck
    }
}

/// One column of an ``EntityMapping``: the CSV column, the table column it
/// fills, and the parser of its (trimmed) text.
///
/// An empty field is NULL, or "missing …" when the value is required
/// (`requiresValue`, true for the key). A parser throws ``InvalidValue`` with
/// the reason a person reads: `students.csv:4: not a whole number (column "Number", value "x7")`.
///
///     let subject = ImportField(CSVColumn("Subject", aliases: ["Course"]), to: "subject",
///                               parse: { .text($0.capitalized) })
public struct ImportField: Sendable {
    /// A value a parser refuses, with the reason ("not a whole number").
    public struct InvalidValue: Error, Sendable {
        /// What is wrong with the value.
        public var reason: String
        /// A refusal saying `reason`.
        public init(_ reason: String) { self.reason = reason }
    }

    /// The CSV column (its documented name and header aliases).
    public var column: CSVColumn
    /// The table column filled.
    public var attribute: String
    /// Whether an empty field refuses the row ("missing name").
    public var requiresValue: Bool
    /// Turns the field's trimmed, non-empty text into the stored value.
    public var parse: @Sendable (String) throws -> StoreValue

    /// A field for `column` filling `attribute`, parsed by `parse` (text as it is by default).
    public init(
        _ column: CSVColumn,
        to attribute: String,
        requiresValue: Bool = false,
        parse: @escaping @Sendable (String) throws -> StoreValue = ImportField.text
    ) {
        self.column = column
        self.attribute = attribute
        self.requiresValue = requiresValue
        self.parse = parse
    }

    /// Text as it is: `ImportField.text("Ada")` is `.text("Ada")`.
    public static let text: @Sendable (String) throws -> StoreValue = { .text($0) }

    /// A whole number (digits, an optional sign): `try ImportField.integer("17")` is `.integer(17)`.
    public static let integer: @Sendable (String) throws -> StoreValue = { text in
        guard let value = Int64(text) else { throw InvalidValue("not a whole number") }
        return .integer(value)
    }

    /// A date in any of `CalendarDay`'s forms, stored as `YYYY-MM-DD`:
    /// `try ImportField.date("26-Apr-24")` is `.text("2024-04-26")`.
    public static let date: @Sendable (String) throws -> StoreValue = { text in
        guard let day = CalendarDay.parse(text) else { throw InvalidValue("not a valid date") }
        return .text(day.isoText)
    }
}
