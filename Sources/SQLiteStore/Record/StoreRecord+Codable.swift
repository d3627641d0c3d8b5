import Foundation

/// A ``StoreRecord`` that is `Codable` reads and writes itself by its coding keys, one attribute
/// (or key path) per stored property, as GRDB's records do: no `init(row:)` or `encode(to:)` to write.
///
///     struct Student: StoreRecord, Codable {
///         static let entityName = "Student"
///         var name: String
///         var number: Int
///         var subject: String?     // NULL reads as nil, and nil writes NULL
///     }
///
///     context.insert(Student(name: "Ada", number: 7, subject: nil))
///     let students = try context.fetchRecords(Student.self, orderBy: "number")
///
/// Each property's type is one a stored value converts to (``StoreValueConvertible``: `String`,
/// `Int`, `Double`, `Bool`, `Date`, `Data`, their optionals) or another fixed-width integer or
/// `Float`; a nested `Codable` type is refused with `DecodingError` / `EncodingError`. A key
/// the entity lacks, or a value of the wrong kind, is the same error that names the key as in a
/// hand-written record. Rename a property's key with `CodingKeys` (`case secretIdentity =
/// "secret_identity"` when the attribute is named so).
extension StoreRecord where Self: Decodable {
    /// Reads the record by its coding keys from `row`.
    public init(row: RecordRow) throws {
        try self.init(from: RecordRowDecoder(row: row))
    }
}

extension StoreRecord where Self: Encodable {
    /// Writes the record's properties by their coding keys into `container`; a property that
    /// cannot be stored (a nested `Codable` type) makes the next `save()` of the object throw.
    public func encode(to container: inout RecordContainer) {
        let encoder = RecordContainerEncoder(container: container)
        do {
            try encode(to: encoder)
        } catch {
            let key = (error as? EncodingError).map(RecordCoding.key(of:)) ?? ""
            container.object.context?.recordError(
                .validation(entity: container.object.entity.name, key: key, reason: "\(error)")
            )
        }
    }
}

/// Decodes a record from one object's values: a keyed container only, no nesting.
struct RecordRowDecoder: Decoder {
    let row: RecordRow
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowContainer<Key>(row: row, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw RecordCoding.unsupported(codingPath, "a record is read by keys, one attribute each")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw RecordCoding.unsupported(codingPath, "a record is read by keys, one attribute each")
    }
}

/// The keyed container of ``RecordRowDecoder``.
private struct RowContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let row: RecordRow
    let codingPath: [any CodingKey]
    var allKeys: [Key] { row.object.entity.attributes.compactMap { Key(stringValue: $0.name) } }

    /// True: an optional property's key is read too, so that a key the entity lacks is an error, not nil.
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { try (row[key.stringValue] as StoreValue).isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try row[key.stringValue] }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try row[key.stringValue] }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try row[key.stringValue] }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try row[key.stringValue] }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try row[key.stringValue] }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try row[key.stringValue] as Double) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try exact(row[key.stringValue] as Int64, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try exact(row[key.stringValue] as Int64, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try exact(row[key.stringValue] as Int64, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try exact(row[key.stringValue] as Int64, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try exact(row[key.stringValue] as Int64, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try exact(row[key.stringValue] as Int64, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try exact(row[key.stringValue] as Int64, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try exact(row[key.stringValue] as Int64, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let convertible = T.self as? any StoreValueConvertible.Type else {
            throw RecordCoding.unsupported(codingPath + [key], "\(T.self) is not a stored value's type")
        }
        let value: StoreValue = try row[key.stringValue]
        guard let converted = convertible.init(storeValue: value) as? T else {
            throw StoreError.validation(
                entity: row.object.entity.name,
                key: key.stringValue,
                reason: "\(value) is not a value of type \(T.self)"
            )
        }
        return converted
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw RecordCoding.unsupported(codingPath + [key], "a record's property is one attribute")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw RecordCoding.unsupported(codingPath + [key], "a record's property is one attribute")
    }

    func superDecoder() throws -> any Decoder { RecordRowDecoder(row: row, codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { RecordRowDecoder(row: row, codingPath: codingPath) }

    /// `value` as `T`, or the validation error naming `key` when it does not fit.
    private func exact<T: FixedWidthInteger>(_ value: Int64, _ key: Key) throws -> T {
        guard let exact = T(exactly: value) else {
            throw StoreError.validation(
                entity: row.object.entity.name,
                key: key.stringValue,
                reason: "\(value) does not fit in \(T.self)"
            )
        }
        return exact
    }
}

/// Encodes a record into one object's values: a keyed container only, no nesting.
struct RecordContainerEncoder: Encoder {
    let container: RecordContainer
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ObjectContainer<Key>(container: container, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        RefusingContainer<RecordCoding.AnyKey>(codingPath: codingPath)
    }
    func singleValueContainer() -> any SingleValueEncodingContainer {
        RefusingContainer<RecordCoding.AnyKey>(codingPath: codingPath)
    }
}

/// The keyed container of ``RecordContainerEncoder``: `nil` writes NULL (an update clears the attribute).
private struct ObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var container: RecordContainer
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { container[key.stringValue] = nil }
    mutating func encode(_ value: Bool, forKey key: Key) throws { container[key.stringValue] = value }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { container[key.stringValue] = value }
    mutating func encode(_ value: String, forKey key: Key) throws { container[key.stringValue] = value }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { container[key.stringValue] = value }
    mutating func encode(_ value: Double, forKey key: Key) throws { container[key.stringValue] = value }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { container[key.stringValue] = value }
    mutating func encode(_ value: Int, forKey key: Key) throws { container[key.stringValue] = value }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { container[key.stringValue] = value }
    mutating func encode(_ value: Int64, forKey key: Key) throws { container[key.stringValue] = value }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { container[key.stringValue] = value }
    mutating func encode(_ value: Float, forKey key: Key) throws { container[key.stringValue] = Double(value) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        container[key.stringValue] = value.map { Double($0) }
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encode(exact(value, key), forKey: key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        try encodeIfPresent(value.map { try exact($0, key) } as Int64?, forKey: key)
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encode(exact(value, key), forKey: key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        try encodeIfPresent(value.map { try exact($0, key) } as Int64?, forKey: key)
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encode(exact(value, key), forKey: key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        try encodeIfPresent(value.map { try exact($0, key) } as Int64?, forKey: key)
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encode(exact(value, key), forKey: key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        try encodeIfPresent(value.map { try exact($0, key) } as Int64?, forKey: key)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encode(exact(value, key), forKey: key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        try encodeIfPresent(value.map { try exact($0, key) } as Int64?, forKey: key)
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encode(exact(value, key), forKey: key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        try encodeIfPresent(value.map { try exact($0, key) } as Int64?, forKey: key)
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encode(exact(value, key), forKey: key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        try encodeIfPresent(value.map { try exact($0, key) } as Int64?, forKey: key)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encode(exact(value, key), forKey: key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        try encodeIfPresent(value.map { try exact($0, key) } as Int64?, forKey: key)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        guard let convertible = value as? any StoreValueConvertible else {
            throw RecordCoding.unencodable(value, codingPath + [key], "\(T.self) is not a stored value's type")
        }
        container[key.stringValue] = convertible
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    )
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(RefusingContainer<NestedKey>(codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        RefusingContainer<Key>(codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { RecordContainerEncoder(container: container, codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        RecordContainerEncoder(container: container, codingPath: codingPath)
    }

    /// `value` as an `Int64`, or an error naming `key` when it does not fit (a `UInt64` past `Int64.max`).
    private func exact<T: FixedWidthInteger>(_ value: T, _ key: Key) throws -> Int64 {
        guard let exact = Int64(exactly: value) else {
            throw RecordCoding.unencodable(value, codingPath + [key], "\(value) does not fit in a stored integer")
        }
        return exact
    }
}

/// The containers a record's property cannot use (it is one attribute): every write throws.
private struct RefusingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol, UnkeyedEncodingContainer,
    SingleValueEncodingContainer
{
    let codingPath: [any CodingKey]
    var count: Int { 0 }

    private func refuse(_ value: Any) -> EncodingError {
        RecordCoding.unencodable(value, codingPath, "a record's property is one attribute, not a nested value")
    }

    mutating func encodeNil(forKey key: Key) throws { throw refuse(Optional<Int>.none as Any) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw refuse(value) }
    mutating func encodeNil() throws { throw refuse(Optional<Int>.none as Any) }
    mutating func encode<T: Encodable>(_ value: T) throws { throw refuse(value) }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    )
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(RefusingContainer<NestedKey>(codingPath: codingPath))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    )
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(RefusingContainer<NestedKey>(codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { self }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { RefusingEncoder(codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { RefusingEncoder(codingPath: codingPath) }
}

/// The encoder of a nested value: every container refuses.
private struct RefusingEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RefusingContainer<Key>(codingPath: codingPath))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        RefusingContainer<RecordCoding.AnyKey>(codingPath: codingPath)
    }
    func singleValueContainer() -> any SingleValueEncodingContainer {
        RefusingContainer<RecordCoding.AnyKey>(codingPath: codingPath)
    }
}

/// The errors of record coding.
enum RecordCoding {
    /// A key for containers that have none.
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The key an encoding error is about (the last of its coding path).
    static func key(of error: EncodingError) -> String {
        guard case .invalidValue(_, let context) = error else { return "" }
        return context.codingPath.last?.stringValue ?? ""
    }

    static func unsupported(_ path: [any CodingKey], _ reason: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: reason))
    }

    static func unencodable(_ value: Any, _ path: [any CodingKey], _ reason: String) -> EncodingError {
        .invalidValue(value, EncodingError.Context(codingPath: path, debugDescription: reason))
    }
}
