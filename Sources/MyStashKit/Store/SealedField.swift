/// A field of a stash entry that is sealed at rest, and the associated data
/// that binds each sealed value to its entry.
///
/// Only a note's title and a password entry's name are plaintext (for sorting,
/// sections and `mystash list`); every other field is sealed on its own
/// (XChaCha20-Poly1305 under the vault key) with associated data naming the
/// sealing version, the entity, the entry's `uid`, the field and the entry's
/// name. A ciphertext moved to another row or another column, or a name
/// edited or swapped with `sqlite3`, no longer opens: the stash reports the
/// entry as tampered with, never shows another entry's secret.
///
///     let ad = SealedField.password.associatedData(uid: "9f…", name: "Bank")
///     let sealed = try vault.seal("hunter2", identity: ad)
public enum SealedField: String, CaseIterable, Sendable {
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
    public static let passwordFields: [SealedField] = [.userID, .password, .url, .notes, .totp, .history]

    /// The entity the field belongs to.
    public var entity: String { self == .body ? StashModel.note : StashModel.password }

    /// The model key of the field (the attribute name).
    public var key: String { rawValue }

    /// How a person calls the field ("user ID").
    public var label: String {
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

    /// The sealing scheme this binding describes (`vault_info.sealing`).
    public static let sealingVersion = 2

    /// The associated data of this field of the entry `uid` named `name`.
    ///
    /// Every part is length-prefixed, so no two different entries, fields or
    /// names can produce the same bytes, whatever characters a name holds.
    public func associatedData(uid: String, name: String) -> String {
        func part(_ text: String) -> String { "\(text.utf8.count):\(text)" }
        return "mystash/\(SealedField.sealingVersion) "
            + [entity, uid, rawValue, name].map(part).joined(separator: " ")
    }
}
