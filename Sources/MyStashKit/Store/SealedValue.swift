import SQLiteStore

/// A sealed field's value as the stash file holds it: a blob (nonce ‖ ciphertext ‖ tag, see
/// `SealedField`). Kept as the stored value, not as bytes, so that a NULL or a text put in a
/// sealed column behind the app's back still reads, and is reported as tampered with when it is
/// opened, for that field alone.
///
///     let sealed = SealedValue(bytes: try vault.seal("s3cret", identity: ad))
///     sealed.bytes   // the blob; nil for anything but a blob
package struct SealedValue: Codable, Equatable, Sendable, StoreValueConvertible {
    /// The value as the file holds it.
    package var stored: StoreValue

    /// No value yet (a new entry's field, sealed before it is saved).
    package static let none = SealedValue(stored: .null)

    /// A sealed value of `bytes`.
    package init(bytes: [UInt8]) { stored = .blob(bytes) }

    private init(stored: StoreValue) { self.stored = stored }

    /// The sealed bytes; nil when the file holds anything but a blob (tampering).
    package var bytes: [UInt8]? {
        if case .blob(let bytes) = stored { return bytes }
        return nil
    }

    /// Any stored value: what is not a blob is refused when the field is opened.
    package init?(storeValue: StoreValue) { stored = storeValue }
    /// The value as stored.
    package var storeValue: StoreValue { stored }

    /// Reads the sealed bytes (a record's decoder outside the store: JSON and the like).
    package init(from decoder: any Decoder) throws {
        self.init(bytes: try decoder.singleValueContainer().decode([UInt8].self))
    }

    /// Writes the sealed bytes (none for a value that is not a blob).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(bytes ?? [])
    }
}
