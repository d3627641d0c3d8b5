import Foundation
import SQLiteStore

@testable import MyStashKit

/// A stash as the release before the authenticated format wrote it (format
/// 2): every field sealed under the master key, unpadded, bound to
/// `mystash/2` associated data; no revisions, header MAC or manifest.
enum SecondVersionStash {
    static let model = StashModel.secondVersion

    /// Writes a format-2 stash at `path` with `notes` (title, body) and `passwords`.
    static func make(
        at path: String,
        passphrase: String,
        notes: [(String, String)],
        passwords: [PasswordEntry],
        parameters: KDFParameters = .minimum
    ) throws {
        let legacy = try LegacyVaultInfo.begin(
            at: path,
            model: model,
            passphrase: passphrase,
            parameters: parameters,
            format: 2
        )
        defer { legacy.vault.close() }
        legacy.info["sealing"] = .integer(2)
        let (context, vault, now) = (legacy.context, legacy.vault, legacy.now)
        for (index, (title, body)) in notes.enumerated() {
            let note = context.insert(into: StashModel.note)
            let uid = "fedcba9876543210fedcba98765432\(String(format: "%02d", index))"
            note["uid"] = .text(uid)
            note["title"] = .text(title)
            note["body"] = .blob(
                try vault.sealLegacy(body, identity: SealedField.body.formatTwoAssociatedData(uid: uid, name: title))
            )
            note["created"] = now
            note["modified"] = now
        }
        for (index, entry) in passwords.enumerated() {
            let object = context.insert(into: StashModel.password)
            let uid = "0123456789abcdef0123456789abcd\(String(format: "%02d", index))"
            object["uid"] = .text(uid)
            object["name"] = .text(entry.name)
            let values: [(SealedField, String)] = [
                (.userID, entry.userID), (.password, entry.password), (.url, entry.url ?? ""),
                (.notes, entry.notes ?? ""), (.totp, entry.totp ?? ""), (.history, entry.history.encoded),
            ]
            for (field, value) in values {
                object[field.key] = .blob(
                    try vault.sealLegacy(value, identity: field.formatTwoAssociatedData(uid: uid, name: entry.name))
                )
            }
            object["modified"] = now
        }
        try legacy.finish()
    }
}
