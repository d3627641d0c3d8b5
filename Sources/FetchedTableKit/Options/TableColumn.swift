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

    /// Whether a sample of the values of a text column whose type is only declared
    /// (``typeIsChecked`` false) are all dates (`YYYY-MM-DD…`): set when the table is opened.
    package var sampleHoldsDates = false

    /// Whether a sample of its values holds date-times written with an offset from UTC
    /// (`2024-12-31T20:30:00-05:00`): set when the table is opened.
    package var holdsTimeZoneOffsets = false

    /// Whether its date-times are read in the terminal's time zone (`TZ`): shown, sorted and sectioned
    /// by the local time (``SQLiteStore/DerivedAttribute/localTime(_:of:column:)``) — a column that
    /// holds dates (``isDateLike``) written with offsets.
    var readsInLocalTime: Bool { holdsTimeZoneOffsets && isDateLike }

    /// Whether `S` offers its day(), month() and year(): a column that holds dates — a date or
    /// date-time column, or a declared text column whose sampled values are dates. Not a
    /// column of other text or numbers, whatever its name (`dep_time` holding `517`).
    var isDateLike: Bool {
        if type == .date || type == .dateTime { return true }
        return type == .text && !typeIsChecked && sampleHoldsDates
    }
}
