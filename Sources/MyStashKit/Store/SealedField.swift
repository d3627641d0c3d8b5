/// A field of a stash entry that is sealed at rest, and the associated data
/// that binds each sealed value to its entry.
///
/// Only a note's title and a password entry's name are plaintext (for sorting,
/// sections and `mystash list`); every other field is sealed on its own
/// (XChaCha20-Poly1305 under the vault key) with associated data naming the
/// format version, the entity, the entry's `uid`, the field, the entry's
/// name and its revision. A ciphertext moved to another row or another column, or a name
/// edited or swapped with `sqlite3`, no longer opens: the stash reports the
/// entry as tampered with, never shows another entry's secret.
///
///     let ad = SealedField.password.associatedData(uid: "9f…", name: "Bank", revision: 1)
///     let sealed = try vault.seal("hunter2", identity: ad)
package enum SealedField: String, CaseIterable, Sendable {
    /// A password entry's login name (`password.user_id`).
    case userID
    /// A password entry's password (`password.password`).
    case password
    /// A password entry's URL (`password.url`).
    case url
    /// A password entry's notes (`password.notes`).
    case notes
    /// A password entry's TOTP secret: base32 or an `otpauth://` URI (`password.totp`).
    case totp
    /// A password entry's previous passwords, encoded by `PasswordHistory` (`password.history`).
    case history
    /// A note's body (`note.body`).
    case body

    /// The fields of a password entry, in the order they are sealed.
    package static let passwordFields: [SealedField] = [.userID, .password, .url, .notes, .totp, .history]

    /// The entity the field belongs to.
    package var entity: String { self == .body ? StashModel.note : StashModel.password }

    /// The model key of the field (the attribute name).
    package var key: String { rawValue }

    /// How a person calls the field ("user ID").
    package var label: String {
        switch self {
        case .userID: return "user ID"
        case .password: return "password"
        case .url: return "URL"
        case .notes: return "notes"
        case .totp: return "TOTP secret"
        case .history: return "password history"
        case .body: return "text"
        }
    }

    /// The format this binding describes (`vault_info.sealing`, `VaultHeader.format`).
    package static let sealingVersion = VaultHeader.currentFormat

    /// Whether the field is padded to larger blocks (a password history holds many passwords).
    package var usesLargeBlocks: Bool { self == .history }

    /// The associated data of this field of the entry `uid` named `name`, at `revision` (format 3).
    ///
    /// Every part is length-prefixed, so no two different entries, fields,
    /// names or revisions can produce the same bytes, whatever characters a
    /// name holds. The revision grows with each change of the entry, so a
    /// field rolled back from an older copy of the entry does not open beside
    /// the entry's newer fields.
    package func associatedData(uid: String, name: String, revision: Int64) -> String {
        // One interpolation (an import opens 600,000 fields): the same bytes as the parts joined.
        let number = String(revision)
        return "mystash/\(SealedField.sealingVersion) \(entity.utf8.count):\(entity) \(uid.utf8.count):\(uid)"
            + " \(rawValue.utf8.count):\(rawValue) \(name.utf8.count):\(name) \(number.utf8.count):\(number)"
    }

    /// The associated data format 2 bound this field to (read once, when a stash of that format is migrated).
    func formatTwoAssociatedData(uid: String, name: String) -> String {
        "mystash/2 " + [entity, uid, rawValue, name].map(SealedField.part).joined(separator: " ")
    }

    private static func part(_ text: String) -> String { "\(text.utf8.count):\(text)" }
}
