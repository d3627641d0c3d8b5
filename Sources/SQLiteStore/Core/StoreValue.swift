import Foundation

/// A value as SQLite stores it: one of its five storage classes.
///
/// Every attribute value crosses the store boundary as a `StoreValue`, so the
/// layers above never see SQLite types. Dates are `.text("YYYY-MM-DD")`,
/// date-times `.text("YYYY-MM-DDTHH:MM:SSZ")` (see ``StoreDate``), and bools
/// `.integer(0)` / `.integer(1)`, which keeps the file readable with `sqlite3`.
///
///     let name: StoreValue = .text("First–Citizens")
///     let year = StoreValue.integer(2011)
///     year.int64 // 2011
public enum StoreValue: Hashable, Sendable {
    /// SQL NULL.
    case null
    /// A 64-bit integer (also bools, 0 and 1).
    case integer(Int64)
    /// A 64-bit floating-point number (SQLite's REAL).
    case real(Double)
    /// UTF-8 text (also dates, as ISO text).
    case text(String)
    /// Bytes.
    case blob([UInt8])

    /// True for `.null`.
    @inlinable public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The integer value; a real with an integral value converts, other cases give nil.
    @inlinable public var int64: Int64? {
        switch self {
        case .integer(let v): return v
        case .real(let d):
            guard d.rounded() == d, let i = Int64(exactly: d) else { return nil }
            return i
        default: return nil
        }
    }

    /// The numeric value as a Double (integers convert), nil otherwise.
    @inlinable public var double: Double? {
        switch self {
        case .integer(let v): return Double(v)
        case .real(let d): return d
        default: return nil
        }
    }

    /// The text value, nil for other cases.
    @inlinable public var string: String? {
        if case .text(let s) = self { return s }
        return nil
    }

    /// The bytes of a blob, nil for other cases.
    @inlinable public var bytes: [UInt8]? {
        if case .blob(let b) = self { return b }
        return nil
    }

    /// A bool read the way SQLite does in a WHERE clause: non-zero numbers are true.
    public var bool: Bool? {
        switch self {
        case .integer(let v): return v != 0
        case .real(let d): return d != 0
        default: return nil
        }
    }
}

extension StoreValue: CustomStringConvertible {
    /// A SQL-literal-like rendering, for messages and debugging.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let v): return String(v)
        case .real(let d): return String(d)
        case .text(let s): return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let b): return "X'" + b.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}

extension StoreValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(nilLiteral: ()) { self = .null }
}

extension StoreValue {
    /// A date stored the model's way: `.text("YYYY-MM-DD")` (UTC).
    public static func date(_ date: Date) -> StoreValue { .text(StoreDate.text(from: date)) }
    /// A date-time stored the model's way: `.text("YYYY-MM-DDTHH:MM:SSZ")`.
    public static func dateTime(_ date: Date) -> StoreValue { .text(StoreDate.dateTimeText(from: date)) }
    /// A blob from `Data`.
    public static func data(_ data: Data) -> StoreValue { .blob([UInt8](data)) }
    /// The bytes of a blob as `Data`, nil for other cases.
    public var data: Data? { bytes.map { Data($0) } }
    /// A bool stored as `.integer(0/1)`.
    public static func bool(_ value: Bool) -> StoreValue { .integer(value ? 1 : 0) }
}
