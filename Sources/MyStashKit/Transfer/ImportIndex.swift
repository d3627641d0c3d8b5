import SQLiteStore

/// What `Stash.importItems` matches each item of a file against, read from the stash once: the
/// oldest password entry of each name and user ID (the user ID decrypted), the oldest note of
/// each title. Looking each item up in the store instead (a scan of the names, a decryption of
/// every namesake's user ID) made a re-import quadratic: 16,000 rows took 40 s.
///
/// The index holds the entries as they were before the import: two rows of one file with the
/// same name and user ID update the same entry, as before.
///
///     let index = try ImportIndex(of: stash)
///     index.password(named: "Bank", user: "me")   // the entry's object, or nil
struct ImportIndex {
    private var passwords: [Key: (object: ManagedObject, userIDOpens: Bool)] = [:]
    private var notes: [[UInt8]: ManagedObject] = [:]

    /// A name and user ID, compared byte for byte (as SQLite's `name = ?` compares; Swift's `==`
    /// would also take a decomposed "é" for a precomposed one).
    private struct Key: Hashable {
        var name: [UInt8]
        var user: [UInt8]
    }

    /// Reads every entry and note of `stash` (unlocked). An entry whose user ID does not open
    /// counts as having an empty one, as `Stash.read` shows it.
    init(of stash: Stash) throws {
        let vault = try stash.currentVault()
        for object in try stash.context.fetch(StashModel.password, orderBy: "id") {
            guard let record = try? object.record(as: PasswordRecord.self) else { continue }
            let user = try? stash.openField(.userID, of: record, vault: vault)
            let key = Key(name: Array(record.name.utf8), user: Array((user ?? "").utf8))
            if passwords[key] == nil { passwords[key] = (object, user != nil) }
        }
        for note in try stash.context.fetch(StashModel.note, orderBy: "id") {
            let title = Array(((try? note.record(as: NoteRecord.self))?.title ?? "").utf8)
            if notes[title] == nil { notes[title] = note }
        }
    }

    /// The oldest entry named `name` with user ID `user`, and whether its user ID opened.
    func password(named name: String, user: String) -> (object: ManagedObject, userIDOpens: Bool)? {
        passwords[Key(name: Array(name.utf8), user: Array(user.utf8))]
    }

    /// The oldest note titled `title`.
    func note(titled title: String) -> ManagedObject? { notes[Array(title.utf8)] }
}
