import Foundation

/// One value of a result, decoded by its column's type — PostgreSQL's types
/// as a person reads them.
///
/// Exact where PostgreSQL is exact: `numeric` keeps the server's text
/// (`12345678901234567890.000001` is not rounded through a `Double`); dates
/// and timestamps keep the server's ISO form, `timestamptz` in the session's
/// time zone, which ``PostgresConnection`` sets to the terminal's. `json` and
/// `jsonb` are compact text; arrays hold their elements; `bytea` keeps its
/// bytes and shows its size.
///
///     let row = try connection.query("SELECT 1::int, 2.50::numeric, '{1,2}'::int[]").rows[0]
///     row[0]              // .integer(1)
///     row[1].displayText  // "2.50"
///     row[2]              // .array([.integer(1), .integer(2)])
public enum PostgresValue: Hashable, Sendable {
    /// SQL NULL.
    case null
    /// `boolean`.
    case boolean(Bool)
    /// `smallint`, `integer`, `bigint`, `oid`.
    case integer(Int64)
    /// `real`, `double precision`.
    case real(Double)
    /// `numeric`, exact: the server's text.
    case numeric(String)
    /// `text`, `varchar`, `char`, `name`, and any type without a case of its
    /// own (its text form: `interval`, `inet`, enums…).
    case text(String)
    /// `date`, ISO form (`2024-03-01`).
    case date(String)
    /// `timestamp` (without time zone), ISO form (`2024-03-01 12:30:00.5`).
    case timestamp(String)
    /// `timestamptz`, ISO form in the session's time zone (`2024-03-01 12:30:00+01`).
    case timestampWithTimeZone(String)
    /// `uuid`, lower-case hexadecimal with dashes.
    case uuid(String)
    /// `json`, `jsonb`, compact (no whitespace outside strings).
    case json(String)
    /// An array; multidimensional arrays nest.
    case array([PostgresValue])
    /// `bytea`.
    case bytes([UInt8])

    /// The value as a person reads it in a list or a detail screen: NULL as
    /// `NULL`, booleans as `true`/`false`, `bytea` as its size (`12 bytes`),
    /// arrays in PostgreSQL's braces (`{1,2,NULL}`).
    public var displayText: String {
        switch self {
        case .null: "NULL"
        case .boolean(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .real(let value): PostgresValue.realText(value)
        case .numeric(let text), .text(let text), .date(let text), .timestamp(let text),
            .timestampWithTimeZone(let text), .uuid(let text), .json(let text):
            text
        case .array(let elements): ArrayLiteral.render(elements)
        case .bytes(let bytes): bytes.count == 1 ? "1 byte" : "\(bytes.count) bytes"
        }
    }

    /// The value in PostgreSQL's text input form, for a query parameter
    /// (nil for NULL): what the server reads back as the same value
    /// (`bytea` in hex, `\x0102`; arrays as literals).
    public var parameterText: String? {
        switch self {
        case .null: nil
        case .boolean(let value): value ? "t" : "f"
        case .bytes(let bytes): "\\x" + bytes.map { String(format: "%02x", $0) }.joined()
        case .array(let elements): ArrayLiteral.render(elements, parameter: true)
        default: displayText
        }
    }

    /// Whether this is SQL NULL.
    public var isNull: Bool { self == .null }

    private static func realText(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "Infinity" : "-Infinity" }
        return "\(value)"
    }
}
