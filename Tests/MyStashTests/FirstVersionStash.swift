import Foundation
import SQLiteStore

@testable import MyStashKit

/// A stash as the first version of mystash wrote it: the version-1 model
/// (user IDs, URLs, notes and note bodies in plaintext; each password sealed
/// with the associated data `"Password:<uid>"` only), made through the same
/// `Store` so that its schema, triggers and header are the ones that version made.
enum FirstVersionStash {
    static let model = StashModel.firstVersion

    /// Writes a version-1 stash at `path` with `passphrase`, `notes` (title, body) and `passwords`.
    static func make(at path: String, passphrase: String, notes: [(String, String)], passwords: [PasswordEntry]) throws
    {
        let legacy = try LegacyVaultInfo.begin(
            at: path,
            model: model,
            passphrase: passphrase,
            parameters: .minimum,
            format: 1
        )
        defer { legacy.vault.close() }
        let (context, vault, now) = (legacy.context, legacy.vault, legacy.now)
        for (title, body) in notes {
            let note = context.insert(into: StashModel.note)
            note["title"] = .text(title)
            note["body"] = .text(body)
            note["created"] = now
            note["modified"] = now
        }
        for (index, entry) in passwords.enumerated() {
            let object = context.insert(into: StashModel.password)
            let uid = "0123456789abcdef0123456789abcd\(String(format: "%02d", index))"
            object["uid"] = .text(uid)
            object["name"] = .text(entry.name)
            object["userID"] = .text(entry.userID)
            object["password"] = .blob(try vault.sealLegacy(entry.password, identity: "Password:\(uid)"))
            object["url"] = entry.url.map { .text($0) } ?? .null
            object["notes"] = entry.notes.map { .text($0) } ?? .null
            object["modified"] = now
        }
        try legacy.finish()
    }
}
