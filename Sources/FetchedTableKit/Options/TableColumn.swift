import SQLiteStore

/// A column of the table shown: its name as written in the table and the type
/// its declared type (or, for a CSV file, its values) suggests.
///
///     TableColumn(name: "close_date", type: .date)
package struct TableColumn: Equatable, Sendable {
    /// The name as written in the table (attribute names, key paths and `--sort` use it).
    package var name: String
    /// The type guessed from the declared type or the values.
    package var type: AttributeType
    /// True when every value is known to be of ``type`` (a CSV file's column, typed from all its values),
    /// not only declared so (a `sqlite3` shell can store anything in a DATE column).
    package var typeIsChecked = false

    /// A column `name` of `type`.
    package init(name: String, type: AttributeType) {
        self.name = name
        self.type = type
    }

    /// Whether it reads as text first (a title's default).
    var isTextual: Bool { type == .text }

    /// Whether `S` offers its day(), month() and year(): a date or date-time column, or a text
    /// column named like one (`close_date`, `created_at`, `ts`, `time`, `day`).
    var isDateLike: Bool {
        if type == .date || type == .dateTime { return true }
        guard type == .text else { return false }
        let lower = name.lowercased()
        return ["date", "time", "day"].contains { lower.contains($0) } || lower == "ts"
            || lower.hasSuffix("_at") || lower.hasSuffix("_on")
    }
}
