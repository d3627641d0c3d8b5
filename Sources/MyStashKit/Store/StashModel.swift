import SQLiteStore

/// The stash's data model: notes, passwords and the vault header.
///
/// Tables (`sqlite3 mystash.sqlite .schema`): `note` (title, body, created,
/// modified), `password` (uid, name, user_id, password = nonce ‖ ciphertext,
/// url, notes, modified) and `vault_info` (salt, KDF limits, verifier: one row).
/// `Note.titleInitial` and `Password.nameInitial` are derived section keys:
/// the first letter, upper-cased, or `#` for anything but ASCII A–Z.
///
///     let store = try Store(path: path, model: StashModel.model)
///     StashModel.initial(of: "élan")   // "#"
///     StashModel.initial(of: "bank")   // "B"
public enum StashModel {
    /// The notes entity (table `note`).
    public static let note = "Note"
    /// The passwords entity (table `password`).
    public static let password = "Password"
    /// The vault header entity (table `vault_info`, one row).
    public static let vaultInfo = "VaultInfo"

    /// `PRAGMA application_id` of a stash file ("MySt").
    public static let applicationID: Int32 = 0x4D79_5374

    /// The section key for a title or name: `A`…`Z`, or `#`.
    ///
    /// ASCII only, to agree exactly with the SQL (`upper` without ICU folds
    /// ASCII only; `substr` counts code points as Swift's first scalar does).
    public static func initial(of text: String?) -> String {
        guard let scalar = text?.unicodeScalars.first else { return "#" }
        switch scalar.value {
        case 0x41...0x5A: return String(scalar)
        case 0x61...0x7A: return String(Unicode.Scalar(scalar.value - 0x20)!)
        default: return "#"
        }
    }

    /// The same computation as `initial(of:)`, in SQL, for a column template.
    static func initialSQL(column: String) -> String {
        let first = "upper(substr($.\(column), 1, 1))"
        return "(CASE WHEN \(first) BETWEEN 'A' AND 'Z' THEN \(first) ELSE '#' END)"
    }

    private static func initialAttribute(_ name: String, of key: String, column: String) -> DerivedAttribute {
        DerivedAttribute(name, .text, sql: initialSQL(column: column)) { attribute in
            .text(initial(of: attribute(key).string))
        }
    }

    /// Version 1 of the model.
    public static let model = Model(version: 1, applicationID: applicationID, entities: [
        Entity(note, attributes: [
            Attribute("title", .text),
            Attribute("body", .text, default: .text("")),
            Attribute("created", .dateTime),
            Attribute("modified", .dateTime),
        ], derived: [initialAttribute("titleInitial", of: "title", column: "title")]),
        Entity(password, attributes: [
            Attribute("uid", .text),
            Attribute("name", .text),
            Attribute("userID", .text, default: .text("")),
            Attribute("password", .blob),
            Attribute("url", .text, optional: true),
            Attribute("notes", .text, optional: true),
            Attribute("modified", .dateTime),
        ], derived: [initialAttribute("nameInitial", of: "name", column: "name")],
           uniqueKeys: [["uid"]]),
        Entity(vaultInfo, attributes: [
            Attribute("salt", .blob),
            Attribute("opsLimit", .integer),
            Attribute("memLimit", .integer),
            Attribute("algorithm", .integer),
            Attribute("verifier", .blob),
            Attribute("changed", .dateTime),
        ]),
    ])
}
