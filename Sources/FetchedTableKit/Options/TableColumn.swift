import SQLiteStore

/// A column of the table shown: its name as written in the table and the type
/// its declared type (or, for a CSV file, its values) suggests.
///
///     TableColumn(name: "close_date", type: .date)
public struct TableColumn: Equatable, Sendable {
    /// The name as written in the table (attribute names, key paths and `--sort` use it).
    public var name: String
    /// The type guessed from the declared type or the values.
    public var type: AttributeType

    /// A column `name` of `type`.
    public init(name: String, type: AttributeType) {
        self.name = name
        self.type = type
    }

    /// Whether it reads as text first (a title's default).
    var isTextual: Bool { type == .text }

    /// Whether day(), month() and year() make sense of it.
    var isDateLike: Bool { type == .date || type == .dateTime || type == .text }
}
