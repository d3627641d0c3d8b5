import Foundation

/// A Swift type that one attribute's value converts to and from, for typed
/// records (``StoreRecord``).
///
/// `init?(storeValue:)` returns nil when the stored value is of another kind
/// (or NULL, for a non-optional type); the record layer turns that into a
/// ``StoreError/validation(entity:key:reason:)`` naming the key.
///
///     let count = Int(storeValue: .integer(3))        // 3
///     let name = String(storeValue: .null)            // nil: NULL is not a String
///     let nickname = String?(storeValue: .null)       // .some(.none): an optional takes NULL
///     Date(timeIntervalSince1970: 0).storeValue       // .text("1970-01-01T00:00:00Z")
public protocol StoreValueConvertible {
    /// The Swift value of a stored value; nil when it cannot be one.
    init?(storeValue: StoreValue)
    /// The value as the store keeps it.
    var storeValue: StoreValue { get }
}

extension StoreValue: StoreValueConvertible {
    /// The value itself: any stored value, NULL included.
    public init?(storeValue: StoreValue) { self = storeValue }
    /// The value itself.
    public var storeValue: StoreValue { self }
}

extension String: StoreValueConvertible {
    /// Text; nil for other kinds.
    public init?(storeValue: StoreValue) {
        guard let text = storeValue.string else { return nil }
        self = text
    }
    /// `.text`.
    public var storeValue: StoreValue { .text(self) }
}

extension Int64: StoreValueConvertible {
    /// An integer (or an integral real); nil for other kinds.
    public init?(storeValue: StoreValue) {
        guard let value = storeValue.int64 else { return nil }
        self = value
    }
    /// `.integer`.
    public var storeValue: StoreValue { .integer(self) }
}

extension Int: StoreValueConvertible {
    /// An integer (or an integral real) that fits; nil otherwise.
    public init?(storeValue: StoreValue) {
        guard let value = storeValue.int64, let fitting = Int(exactly: value) else { return nil }
        self = fitting
    }
    /// `.integer`.
    public var storeValue: StoreValue { .integer(Int64(self)) }
}

extension Double: StoreValueConvertible {
    /// A number (integers convert); nil for other kinds.
    public init?(storeValue: StoreValue) {
        guard let value = storeValue.double else { return nil }
        self = value
    }
    /// `.real`.
    public var storeValue: StoreValue { .real(self) }
}

extension Bool: StoreValueConvertible {
    /// A number read as SQLite does (non-zero is true); nil for other kinds.
    public init?(storeValue: StoreValue) {
        guard let value = storeValue.bool else { return nil }
        self = value
    }
    /// `.integer(1)` or `.integer(0)`.
    public var storeValue: StoreValue { .bool(self) }
}

extension Data: StoreValueConvertible {
    /// A blob; nil for other kinds.
    public init?(storeValue: StoreValue) {
        guard let bytes = storeValue.bytes else { return nil }
        self = Data(bytes)
    }
    /// `.blob`.
    public var storeValue: StoreValue { .data(self) }
}

extension Date: StoreValueConvertible {
    /// A date (`YYYY-MM-DD`, midnight UTC) or date-time text (see ``StoreDate``); nil otherwise.
    public init?(storeValue: StoreValue) {
        guard let text = storeValue.string,
            let date = StoreDate.dateTime(from: text) ?? StoreDate.date(from: text)
        else { return nil }
        self = date
    }
    /// Date-time text; a record written into a `.date` attribute keeps the day only.
    public var storeValue: StoreValue { .dateTime(self) }
}

extension Optional: StoreValueConvertible where Wrapped: StoreValueConvertible {
    /// `nil` (a successful conversion) for NULL, the wrapped value otherwise; the conversion
    /// fails when the value is of another kind.
    public init?(storeValue: StoreValue) {
        if storeValue.isNull {
            self = .none
        } else if let value = Wrapped(storeValue: storeValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
    /// NULL for nil.
    public var storeValue: StoreValue { self?.storeValue ?? .null }
}
