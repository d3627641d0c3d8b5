import SQLiteStore

/// The stash's data model: notes, passwords and the vault header.
///
/// Tables (`sqlite3 mystash.sqlite .schema`): `note` (uid, title, body,
/// created, modified, revision), `password` (uid, name, user_id, password,
/// url, notes, totp, history, modified, revision) and `vault_info` (salt, KDF
/// limits, verifier, sealing: the format version, header_mac, generation,
/// manifest, manifest_mac: one row). Only titles and names are plaintext:
/// every other field holds nonce ‖ ciphertext ‖ tag, bound to its entry (see
/// `SealedField`); the header and the manifest of every entry are
/// authenticated (see `Stash` for the format contract). Version 1 kept user
/// IDs, URLs, notes and note bodies in plaintext; such a file is opened
/// read-only with `firstVersion` until the first unlock with the right
/// passphrase, which migrates its schema and seals its values in that one
/// process (`Stash.unlock`).
/// `Note.titleInitial` and `Password.nameInitial` are derived section keys:
/// the first letter, upper-cased, or `#` for anything but ASCII A–Z.
///
///     let store = try Store(path: path, model: StashModel.model)
///     StashModel.initial(of: "élan")   // "#"
///     StashModel.initial(of: "bank")   // "B"
package enum StashModel {
    /// The notes entity (table `note`).
    package static let note = "Note"
    /// The passwords entity (table `password`).
    package static let password = "Password"
    /// The vault header entity (table `vault_info`, one row).
    package static let vaultInfo = "VaultInfo"

    /// `PRAGMA application_id` of a stash file ("MySt").
    package static let applicationID: Int32 = 0x4D79_5374

    /// The section key for a title or name: `A`…`Z`, or `#` (the library's initial,
    /// `DerivedAttribute.initial(of:)`).
    package static func initial(of text: String?) -> String {
        DerivedAttribute.initial(of: text.map(StoreValue.text) ?? .null).string ?? "#"
    }

    /// The same computation as `initial(of:)`, in SQL, for a column template.
    static func initialSQL(column: String) -> String {
        "(" + DerivedAttribute.initial(column, of: column).sql + ")"
    }

    /// Version 3 of the model (everything sealed but titles and names; revisions, header MAC, manifest):
    /// the notes and passwords as their records declare them (`NoteRecord`, `PasswordRecord`).
    package static let model = Model(
        version: 3,
        applicationID: applicationID,
        entities: [NoteRecord.entity, PasswordRecord.entity, vaultInfoEntity(authenticated: true)],
        migrations: [sealEverythingButNames, authenticateTheWhole]
    )

    /// Version 2 of the model, as the release before the authenticated format wrote it: the
    /// schema that ``authenticateTheWhole`` migrates (version 3 without the entries' revisions
    /// and the vault's header MAC, generation and manifest).
    package static let secondVersion = Model(
        version: 2,
        applicationID: applicationID,
        entities: [
            withoutRevision(NoteRecord.entity), withoutRevision(PasswordRecord.entity),
            vaultInfoEntity(authenticated: false),
        ]
    )

    /// The vault header's attributes in every version: the passphrase's salt, the KDF limits and
    /// algorithm, the verifier, and when the passphrase changed.
    private static let keyDerivation = [
        Attribute("salt", .blob),
        Attribute("opsLimit", .integer),
        Attribute("memLimit", .integer),
        Attribute("algorithm", .integer),
        Attribute("verifier", .blob),
        Attribute("changed", .dateTime),
    ]

    /// The vault header of the sealed versions: version 2 (`authenticated` false), and version 3,
    /// which adds the header MAC, generation and manifest.
    private static func vaultInfoEntity(authenticated: Bool) -> Entity {
        let wholeVault =
            authenticated
            ? [
                Attribute("headerMAC", .blob, optional: true),
                Attribute("generation", .integer, default: .integer(0)),
                Attribute("manifest", .blob, optional: true),
                Attribute("manifestMAC", .blob, optional: true),
            ] : []
        return Entity(
            vaultInfo,
            attributes: keyDerivation + [Attribute("sealing", .integer, default: .integer(1))] + wholeVault
        )
    }

    /// An entry's entity as version 2 had it: without the revision.
    private static func withoutRevision(_ entity: Entity) -> Entity {
        Entity(
            entity.name,
            attributes: entity.attributes.filter { $0.name != NoteRecord.Columns.revision.stringValue },
            derived: entity.derived,
            uniqueKeys: entity.uniqueKeys
        )
    }

    /// Version 1 of the model, as the first release wrote it: a file of this
    /// version is opened read-only with it until its first unlock.
    package static let firstVersion = Model(
        version: 1,
        applicationID: applicationID,
        entities: [
            Entity(
                note,
                attributes: [
                    Attribute("title", .text),
                    Attribute("body", .text, default: .text("")),
                    Attribute("created", .dateTime),
                    Attribute("modified", .dateTime),
                ]
            ),
            Entity(
                password,
                attributes: [
                    Attribute("uid", .text),
                    Attribute("name", .text),
                    Attribute("userID", .text, default: .text("")),
                    Attribute("password", .blob),
                    Attribute("url", .text, optional: true),
                    Attribute("notes", .text, optional: true),
                    Attribute("modified", .dateTime),
                ],
                uniqueKeys: [["uid"]]
            ),
            Entity(vaultInfo, attributes: keyDerivation),
        ]
    )

    /// Version 2 → 3, the schema part: a revision per entry, and the header
    /// MAC, generation and manifest of the vault. The values are re-sealed
    /// in format 3 on the first unlock (`Stash.unlock`).
    static let authenticateTheWhole = Migration(from: 2, to: 3) { db in
        try db.execute(
            """
            ALTER TABLE note ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE password ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE vault_info ADD COLUMN header_mac BLOB;
            ALTER TABLE vault_info ADD COLUMN generation INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE vault_info ADD COLUMN manifest BLOB;
            ALTER TABLE vault_info ADD COLUMN manifest_mac BLOB;
            """
        )
    }

    /// Version 1 → 2, the schema part: the sealed columns become BLOB columns
    /// (their version-1 plaintext is carried over unchanged, to be sealed on
    /// the first unlock), notes get a `uid`, `vault_info` a `sealing` version
    /// (1: values not yet re-sealed). `secure_delete` makes SQLite zero the
    /// pages the old tables leave behind.
    static let sealEverythingButNames = Migration(from: 1, to: 2) { db in
        try db.execute(
            """
            PRAGMA secure_delete = ON;
            CREATE TABLE password_v2 (
              id INTEGER PRIMARY KEY, uid TEXT NOT NULL, name TEXT NOT NULL, user_id BLOB, password BLOB,
              url BLOB, notes BLOB, totp BLOB, history BLOB, modified TEXT NOT NULL);
            INSERT INTO password_v2 (id, uid, name, user_id, password, url, notes, modified)
              SELECT id, uid, name, user_id, password, url, notes, modified FROM password;
            DROP TABLE password;
            ALTER TABLE password_v2 RENAME TO password;
            CREATE TABLE note_v2 (
              id INTEGER PRIMARY KEY, uid TEXT NOT NULL, title TEXT NOT NULL, body BLOB,
              created TEXT NOT NULL, modified TEXT NOT NULL);
            INSERT INTO note_v2 (id, uid, title, body, created, modified)
              SELECT id, lower(hex(randomblob(16))), title, body, created, modified FROM note;
            DROP TABLE note;
            ALTER TABLE note_v2 RENAME TO note;
            ALTER TABLE vault_info ADD COLUMN sealing INTEGER NOT NULL DEFAULT 1;
            """
        )
    }
}
