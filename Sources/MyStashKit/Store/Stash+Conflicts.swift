import SQLiteStore

/// What an editor loaded of a password entry: its fields as they opened, and the revision they
/// were read at — what a save compares the file with (another program may have saved since).
///
///     let loaded = LoadedEntry(entry: try stash.read(object).entry, revision: try object.record(as: PasswordRecord.self).revision)
package struct LoadedEntry: Equatable, Sendable {
    package var entry: PasswordEntry
    package var revision: Int64

    package init(entry: PasswordEntry, revision: Int64) {
        self.entry = entry
        self.revision = revision
    }
}

/// What an editor loaded of a note: its title, its body (nil when it did not open) and revision.
package struct LoadedNote: Equatable, Sendable {
    package var title: String
    package var body: String?
    package var revision: Int64

    package init(title: String, body: String?, revision: Int64) {
        self.title = title
        self.body = body
        self.revision = revision
    }

    /// What an editor loads of `note`: its title and revision, and `body` (nil: it did not open).
    init(_ note: NoteRecord, body: String?) {
        self.init(title: note.title, body: body, revision: note.revision)
    }
}

/// What a save does when another program changed the entry since the editor loaded it.
///
///     do { try stash.updatePassword(object, with: edited, loaded: loaded) }
///     catch StashError.changedElsewhere { try stash.updatePassword(object, with: edited, loaded: loaded, resolving: .reapply) }
package enum ConflictResolution: Sendable, Equatable {
    /// Save nothing: throw `StashError.changedElsewhere` naming the entry (the default).
    case refuse
    /// Take the entry as the file holds it now and apply only the fields the editor changed.
    case reapply
    /// Write the editor's values over the other program's (every field as the editor has it).
    case overwrite
}

extension Stash {
    /// Inside a save's transaction (under the write lock): compares the revision of `object`'s
    /// row in the file with the one the editor loaded. Returns false when they are the same;
    /// true when another program saved the entry since and `resolving` allows going on — the
    /// object is then refreshed from the file, so what is written next starts from its values.
    /// Throws `StashError.changedElsewhere` when it refuses, or the row is gone.
    func checkRevision(
        of object: ManagedObject,
        loadedAt revision: Int64,
        name: String,
        resolving: ConflictResolution
    ) throws -> Bool {
        let kind: StashKind = object.entity.name == StashModel.note ? .notes : .passwords
        let entry = try sealedEntry(object)
        let row = try store.database.query(
            "SELECT revision, uid FROM \(kind.table) WHERE id = ?",
            [.integer(object.objectID.rowID)]
        ).first
        guard let row, row[1].string == entry.uid else {
            throw StashError.changedElsewhere(kind: kind.entryWord, name: name, deleted: true)
        }
        let inFile = row[0].int64 ?? -1
        if inFile != entry.revision {
            // The context has not caught up with the file yet: read the row again.
            _ = try context.fetch(object.entity.name, where: "id = ?", [.integer(object.objectID.rowID)])
        }
        guard inFile != revision else { return false }
        guard resolving != .refuse else {
            throw StashError.changedElsewhere(kind: kind.entryWord, name: name, deleted: false)
        }
        return true
    }

    /// `current` with each field `edited` changed from `loaded` (the fields the person changed).
    static func reapplying(
        _ edited: PasswordEntry,
        over loaded: PasswordEntry,
        onto current: PasswordEntry
    )
        -> PasswordEntry
    {
        var result = current
        if edited.name != loaded.name { result.name = edited.name }
        if edited.userID != loaded.userID { result.userID = edited.userID }
        if edited.password != loaded.password { result.password = edited.password }
        if edited.url != loaded.url { result.url = edited.url }
        if edited.notes != loaded.notes { result.notes = edited.notes }
        if edited.totp != loaded.totp { result.totp = edited.totp }
        return result
    }

    /// The labels of the fields `edited` changed from `loaded` ("URL", "password"), for a message.
    package static func changedFields(_ edited: PasswordEntry, from loaded: PasswordEntry) -> [String] {
        var fields: [String] = []
        if edited.name != loaded.name { fields.append("name") }
        if edited.userID != loaded.userID { fields.append(SealedField.userID.label) }
        if edited.password != loaded.password { fields.append(SealedField.password.label) }
        if edited.url != loaded.url { fields.append(SealedField.url.label) }
        if edited.notes != loaded.notes { fields.append(SealedField.notes.label) }
        if edited.totp != loaded.totp { fields.append(SealedField.totp.label) }
        return fields
    }
}
