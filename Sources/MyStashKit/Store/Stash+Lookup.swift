import Foundation
import SQLiteStore

/// A field a script asks for (`show --field`, `copy --field`).
///
///     EntryField(rawValue: "user")   // .user
package enum EntryField: String, CaseIterable, Sendable {
    case password, user, url, notes, totp

    /// How a sentence names it ("the user ID").
    package var phrase: String {
        switch self {
        case .password: return "the password"
        case .user: return "the user ID"
        case .url: return "the URL"
        case .notes: return "the notes"
        case .totp: return "the TOTP code"
        }
    }
}

extension Stash {
    /// The password entries named `name` (and with user ID `user`, when given), oldest first.
    package func passwordObjects(named name: String, user: String? = nil) throws -> [ManagedObject] {
        let objects = try context.fetch(StashModel.password, where: "name = ?", [.text(name)], orderBy: "id")
        guard let user else { return objects }
        return try objects.filter { try read($0).entry.userID == user }
    }

    /// One field of the password entry `name` (or, for `notes` only, the
    /// text of a note titled `name` when no entry has that name: a note's
    /// text is never given out as a password); the TOTP field is the code at `date`.
    package func fieldValue(
        _ field: EntryField,
        ofEntryNamed name: String,
        user: String?,
        at date: Date
    ) throws -> String {
        let objects = try context.fetch(StashModel.password, where: "name = ?", [.text(name)], orderBy: "id")
        if objects.isEmpty {
            if field == .notes,
                let note = try context.fetch(StashModel.note, where: "title = ?", [.text(name)], orderBy: "id").first
            {
                return try noteBody(of: note)
            }
            throw StashError.noEntry(name: name)
        }
        if user == nil, objects.count == 1 { return try copyableValue(field, of: objects[0], at: date) }
        var entries = try objects.map { try entry(for: $0) }
        if let user { entries = entries.filter { $0.userID == user } }
        guard !entries.isEmpty else { throw StashError.noEntry(name: "\(name)” with user “\(user ?? "")") }
        guard entries.count == 1 else { throw StashError.ambiguousName(name: name, count: entries.count) }
        return try value(field, of: entries[0], name: name, at: date)
    }

    /// One field of an entry as `show` prints it and `copy` copies it (the TOTP field: the code at `date`).
    package func copyableValue(_ field: EntryField, of object: ManagedObject, at date: Date) throws -> String {
        let entry = try entry(for: object)
        return try value(field, of: entry, name: entry.name, at: date)
    }

    private func value(_ field: EntryField, of entry: PasswordEntry, name: String, at date: Date) throws -> String {
        switch field {
        case .password: return entry.password
        case .user: return entry.userID
        case .url: return entry.url ?? ""
        case .notes: return entry.notes ?? ""
        case .totp:
            guard let secret = entry.totp, !secret.isEmpty else { throw StashError.noTOTP(name: name) }
            return try TOTP(parsing: secret).code(at: date)
        }
    }
}
