/// The previous passwords of an entry, newest first, with the time each was replaced.
///
/// Sealed as one field (`SealedField.history`); the plaintext is a sequence
/// of `<date> <byte count>:<password>` items, so a password may hold any
/// character, spaces and line breaks included.
///
///     var history = PasswordHistory()
///     history.record("old-secret", replacedAt: "2026-12-01T09:00:00Z")
///     let again = try PasswordHistory(encoded: history.encoded)   // the same items
package struct PasswordHistory: Hashable, Sendable {
    /// One previous password and when it stopped being the current one.
    package struct Item: Hashable, Sendable {
        /// `YYYY-MM-DDTHH:MM:SSZ`.
        package var replaced: String
        package var password: String

        package init(replaced: String, password: String) {
            self.replaced = replaced
            self.password = password
        }
    }

    /// How many previous passwords are kept.
    package static let limit = 20

    /// Newest first.
    package var items: [Item]

    package init(items: [Item] = []) { self.items = items }

    /// Puts `password` first (an empty one is not recorded), keeping at most `limit` items.
    package mutating func record(_ password: String, replacedAt date: String) {
        guard !password.isEmpty else { return }
        items.insert(Item(replaced: date, password: password), at: 0)
        if items.count > PasswordHistory.limit { items.removeLast(items.count - PasswordHistory.limit) }
    }

    /// The plaintext that is sealed.
    package var encoded: String {
        items.map { "\($0.replaced) \($0.password.utf8.count):\($0.password)" }.joined()
    }

    /// Decodes `encoded`; the empty string is an empty history.
    package init(encoded: String) throws {
        var items: [Item] = []
        let bytes = Array(encoded.utf8)
        var index = 0
        func read(until terminator: UInt8) throws -> String {
            guard let end = bytes[index...].firstIndex(of: terminator) else { throw StashError.malformedHistory }
            defer { index = end + 1 }
            return String(decoding: bytes[index..<end], as: UTF8.self)
        }
        while index < bytes.count {
            let date = try read(until: UInt8(ascii: " "))
            guard let count = Int(try read(until: UInt8(ascii: ":"))), count >= 0, index + count <= bytes.count else {
                throw StashError.malformedHistory
            }
            items.append(
                Item(replaced: date, password: String(decoding: bytes[index..<(index + count)], as: UTF8.self))
            )
            index += count
        }
        self.items = items
    }
}
