import SQLiteStore

/// A password entry as the stash file holds it (table `password`): the name in plaintext, every
/// other field sealed and bound to the entry (`SealedField`); the one declaration of the entity
/// `Password`.
///
///     var entry = try object.record(as: PasswordRecord.self)
///     entry.revision += 1
///     entry[sealed: .url] = try stash.seal("https://bank.example", .url, of: entry, vault: vault)
///     try context.update(object, with: entry)
package struct PasswordRecord: SealedEntry, Codable, Equatable, Sendable {
    /// The attributes, by name.
    package enum CodingKeys: String, CodingKey {
        case uid, name, userID, password, url, notes, totp, history, modified, revision
    }
    /// The attributes, for sorts, predicates and section keys.
    package typealias Columns = CodingKeys

    /// The entity `Password` of the current format (3): the name's initial is its section key.
    package static let entity = Entity(
        StashModel.password,
        attributes: [
            Attribute(Columns.uid.stringValue, .text),
            Attribute(Columns.name.stringValue, .text),
            Attribute(Columns.userID.stringValue, .blob, optional: true),
            Attribute(Columns.password.stringValue, .blob, optional: true),
            Attribute(Columns.url.stringValue, .blob, optional: true),
            Attribute(Columns.notes.stringValue, .blob, optional: true),
            Attribute(Columns.totp.stringValue, .blob, optional: true),
            Attribute(Columns.history.stringValue, .blob, optional: true),
            Attribute(Columns.modified.stringValue, .dateTime),
            Attribute(Columns.revision.stringValue, .integer, default: .integer(0)),
        ],
        derived: [.initial("nameInitial", of: Columns.name.stringValue)],
        uniqueKeys: [[Columns.uid.stringValue]]
    )

    package var uid: String
    package var name: String
    package var userID = SealedValue.none
    package var password = SealedValue.none
    package var url = SealedValue.none
    package var notes = SealedValue.none
    package var totp = SealedValue.none
    package var history = SealedValue.none
    /// Date-time text of the last change (`StoreDate.dateTimeText`), kept as the file holds it.
    package var modified = ""
    package var revision: Int64 = 0

    /// A new entry `name`, its fields not sealed yet.
    package init(uid: String, name: String) {
        self.uid = uid
        self.name = name
    }

    var entryName: String { name }

    subscript(sealed field: SealedField) -> SealedValue {
        get {
            switch field {
            case .userID: return userID
            case .password: return password
            case .url: return url
            case .notes: return notes
            case .totp: return totp
            case .history: return history
            case .body: return .none
            }
        }
        set {
            switch field {
            case .userID: userID = newValue
            case .password: password = newValue
            case .url: url = newValue
            case .notes: notes = newValue
            case .totp: totp = newValue
            case .history: history = newValue
            case .body: break
            }
        }
    }
}
