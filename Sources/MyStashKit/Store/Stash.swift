import Foundation
import SQLiteStore

/// The notes-and-passwords store, with its vault: what the app and the
/// command line work through.
///
/// Opening a stash creates a private file (mode 0600) when there is none.
/// Only note titles and entry names are plaintext; every other field is
/// sealed by the vault before it is written, each on its own and bound to
/// its entry through the associated data (`SealedField`: the entry's `uid`,
/// a random identity that survives undo, the field and the entry's name), so
/// a ciphertext moved to another row or column, or a name edited or swapped
/// behind the app's back, does not open: the entry is reported as tampered
/// with (`StashError.tampered`), never shown with another entry's secret.
/// The master passphrase never reaches the disk: only the salt, the KDF
/// limits and a verifier do. The header and a manifest of every entry are
/// authenticated, so entries deleted, added, renamed or rolled back behind
/// the app's back are refused at unlock and inside every write — a save
/// hook the store runs in each save, undo and redo transaction, so no path
/// (the list screen's delete, `u`) goes around it
/// (`StashError.changedBehindTheAppsBack`); older formats are migrated at
/// their first unlock (the format contract is in `Stash+Vault.swift`). A
/// save of an entry another program saved since it was loaded is refused
/// (`StashError.changedElsewhere`) unless the caller says how to settle it
/// (`ConflictResolution`).
///
///     let stash = try Stash(path: path)
///     if stash.hasPassphrase { try stash.unlock(passphrase: typed) }
///     else { try stash.setUp(passphrase: typed, parameters: .interactive) }
///     let note = try stash.addNote(title: "Groceries", body: "milk")
///     let login = try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "s3cret"))
///     let secret = try stash.revealPassword(of: login)   // "s3cret"
///     stash.lock()                                        // key wiped
package final class Stash {
    /// The store file.
    package let path: String
    /// The SQLite store (its `database` is for inspection and tests).
    /// A first-version file is opened read-only with the first version's
    /// model, and replaced by the store of the current model at its first
    /// unlock (see `Stash+Vault`). Every store the stash opens gets the
    /// manifest's save hook (`installManifestHook()`), whoever saves through it.
    package internal(set) var store: Store {
        didSet { installManifestHook() }
    }
    /// The context the app's lists and edits use. Replaced (dropping its undo
    /// history, which may hold ciphertexts under the old key) by `changePassphrase`.
    /// Each of its commits is recorded in `seen`.
    package internal(set) var context: ObjectContext {
        didSet { observeCommits(of: context) }
    }
    /// The unlocked vault; nil while locked.
    package internal(set) var vault: Vault?
    /// What this machine last saw of each stash (`$XDG_STATE_HOME/mystash/seen.json`): set by the
    /// command line, nil in tests that do not ask for it. With it, unlocking refuses a stash put
    /// back from an older copy, and limits edited beside an unchanged salt (see `SeenStashes`).
    package var seen: SeenStashes?
    /// Why the last record in `seen` could not be written, if it could not.
    package internal(set) var seenFailure: String?
    /// Whether the file is of the first version and this process has not
    /// migrated it yet: the only case in which plaintext values are sealed.
    var isFirstVersionPending = false

    /// Opens (creating when needed, mode 0600) the stash at `path`.
    ///
    /// With `readOnly`, nothing is created or written (for `mystash list`):
    /// a missing file throws `StashError.noStore`. An open that fails (a full disk: SQLite
    /// made the `-wal` and `-shm` files but could not size them) removes the companions it
    /// made, when no other connection has the file open: nothing is left behind.
    package init(path: String, readOnly: Bool = false) throws {
        self.path = path
        if readOnly {
            guard FileManager.default.fileExists(atPath: path) else { throw StashError.noStore(path: path) }
        } else {
            try StashLocation.prepare(path: path)
        }
        let companions = ForeignDatabaseFiles(path: path)
        let opened: (store: Store, isFirstVersion: Bool)
        do { opened = try Stash.openStore(at: path, readOnly: readOnly) } catch {
            companions.removeCompanionsMadeSince()
            throw error
        }
        self.store = opened.store
        self.isFirstVersionPending = opened.isFirstVersion
        self.context = ObjectContext(store: store)
        installManifestHook()
        observeCommits(of: context)
    }

    /// The store at `path`, and whether it is a first-version file (opened read-only until the
    /// first unlock migrates it, so that a run that stops before leaves it as it was).
    private static func openStore(at path: String, readOnly: Bool) throws -> (Store, Bool) {
        if schemaVersion(at: path) == 1 {
            return (try Store(path: path, model: StashModel.firstVersion, readOnly: true), true)
        }
        let store = try Store(path: path, model: StashModel.model, readOnly: readOnly)
        if !readOnly {
            StashLocation.tightenPermissions(path: path)
            // Replaced and deleted values are zeroed in the file, not left in free space.
            try store.database.execute("PRAGMA secure_delete = ON")
        }
        return (store, false)
    }

    deinit { vault?.close() }

    /// The schema version (`user_version`) of the file at `path`, read without writing; nil when it cannot be read.
    static func schemaVersion(at path: String) -> Int? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var options = Database.Options()
        options.readOnly = true
        return try? Database(path: path, options: options).userVersion()
    }

    // MARK: - Notes

    /// Adds a note (title required; its body sealed) and saves. Needs the vault unlocked.
    @discardableResult
    package func addNote(title: String, body: String) throws -> ManagedObject {
        let vault = try currentVault()
        try Stash.require(title, entity: StashModel.note, key: "title")
        let now = StoreDate.dateTimeText(from: Date())
        var record = NoteRecord(
            uid: Stash.newUID(),
            title: title,
            body: .none,
            created: now,
            modified: now,
            revision: 1
        )
        record.body = try seal(body, .body, of: record, vault: vault)
        let note = context.insert(record)
        try saveOrRollback()
        return note
    }

    /// Changes a note's title and body (re-sealing the body) and saves.
    /// Returns false (and saves nothing) when both are unchanged.
    ///
    /// A body that cannot be opened (tampered with or damaged) is kept as it
    /// is when `body` is empty, so that fixing the title does not destroy it.
    ///
    /// `loaded` is what the editor opened (nil: the note as it is in memory now). When another
    /// program saved the note since, the save is refused with `StashError.changedElsewhere`
    /// unless `resolving` says to reapply (the note as the file holds it, with only the fields
    /// the editor changed: title, text) or to overwrite. The check and the save are one
    /// transaction, under the write lock.
    @discardableResult
    package func updateNote(
        _ note: ManagedObject,
        title: String,
        body: String,
        loaded: LoadedNote? = nil,
        resolving: ConflictResolution = .refuse
    ) throws -> Bool {
        let vault = try currentVault()
        try Stash.require(title, entity: StashModel.note, key: "title")
        let base = try loaded ?? LoadedNote(note.record(as: NoteRecord.self), body: try? noteBody(of: note))
        return try transactionRollingBack {
            var title = title
            var body: String? = body
            let conflicted = try checkRevision(
                of: note,
                loadedAt: base.revision,
                name: base.title,
                resolving: resolving
            )
            var record = try note.record(as: NoteRecord.self)
            let current = try? openField(.body, of: record, vault: vault)
            if conflicted, resolving == .reapply {
                if title == base.title { title = record.title }
                if body == base.body { body = current }
            }
            if record.title == title && current == body { return false }
            record.revision += 1
            record.title = title
            if let body, current != nil || !body.isEmpty {
                record.body = try seal(body, .body, of: record, vault: vault)
            }  // else the unreadable body stays as it was
            record.modified = StoreDate.dateTimeText(from: Date())
            try context.update(note, with: record)
            try saveOrRollback()
            return true
        }
    }

    /// The decrypted body of a note. Throws `StashError.tampered` when it does not open.
    package func noteBody(of note: ManagedObject) throws -> String {
        try openField(.body, of: note, vault: try currentVault())
    }

    // MARK: - Passwords

    /// What an entry's sealed fields are bound to: its uid, name (a note's title) and revision.
    struct EntryBinding {
        var uid: String
        var name: String
        var revision: Int64

        func associatedData(_ field: SealedField) -> String {
            field.associatedData(uid: uid, name: name, revision: revision)
        }
    }

    /// Adds a password entry, sealing every field but the name, and saves. Needs the vault unlocked.
    @discardableResult
    package func addPassword(_ entry: PasswordEntry) throws -> ManagedObject {
        let vault = try currentVault()
        try Stash.require(entry.name, entity: StashModel.password, key: "name")
        let record = try filled(PasswordRecord(uid: Stash.newUID(), name: entry.name), with: entry, vault: vault)
        let object = context.insert(record)
        try saveOrRollback()
        return object
    }

    /// Replaces a password entry's fields (re-sealing each with a fresh nonce)
    /// and saves; a changed password goes first into the entry's history.
    ///
    /// A field that cannot be opened (tampered with or damaged) is never
    /// replaced by an empty value: when `entry` leaves it empty, its old
    /// ciphertext is kept as it is, and the result's `keptUnreadable` says so.
    /// Returns `changed: false` (and saves nothing) when nothing changed.
    ///
    /// `loaded` is what the editor opened (nil: the entry as it is in memory now). When another
    /// program saved the entry since (its revision in the file is not the loaded one), the save
    /// is refused with `StashError.changedElsewhere` naming the entry, unless `resolving` says
    /// to reapply — the entry as the file holds it, with only the fields the editor changed
    /// from `loaded` — or to overwrite with the editor's values. The check and the save are one
    /// transaction, under the write lock: no other save can come between them.
    @discardableResult
    package func updatePassword(
        _ object: ManagedObject,
        with entry: PasswordEntry,
        loaded: LoadedEntry? = nil,
        resolving: ConflictResolution = .refuse
    ) throws -> EntryUpdate {
        let vault = try currentVault()
        try Stash.require(entry.name, entity: StashModel.password, key: "name")
        let base =
            try loaded
            ?? LoadedEntry(entry: read(object).entry, revision: object.record(as: PasswordRecord.self).revision)
        return try transactionRollingBack {
            let conflicted = try checkRevision(
                of: object,
                loadedAt: base.revision,
                name: base.entry.name,
                resolving: resolving
            )
            let record = try object.record(as: PasswordRecord.self)
            let current = read(record, vault: vault)
            var entry = entry
            if conflicted {
                // The other program's history stays; the editor's is the one it loaded.
                entry.history = current.entry.history
                if resolving == .reapply { entry = Stash.reapplying(entry, over: base.entry, onto: current.entry) }
            }
            if entry.history.items.isEmpty { entry.history = current.entry.history }
            let keep = current.unreadable.filter { field in Stash.value(of: field, in: entry).isEmpty }
            if current.unreadable.isEmpty && current.entry == entry {
                return EntryUpdate(changed: false, keptUnreadable: [])
            }
            if !current.unreadable.contains(.password), current.entry.password != entry.password {
                entry.history.record(current.entry.password, replacedAt: StoreDate.dateTimeText(from: Date()))
            }
            try context.update(object, with: filled(record, with: entry, keeping: Set(keep), vault: vault))
            try saveOrRollback()
            return EntryUpdate(changed: true, keptUnreadable: keep)
        }
    }

    /// The decrypted password of an entry (for the form's reveal and copy only).
    /// Throws `StashError.tampered` when it does not open.
    package func revealPassword(of object: ManagedObject) throws -> String {
        try openField(.password, of: object, vault: try currentVault())
    }

    /// All fields of an entry, decrypted. Throws `StashError.tampered`
    /// naming the entry when any field does not open.
    package func entry(for object: ManagedObject) throws -> PasswordEntry {
        let reading = try read(object)
        guard reading.unreadable.isEmpty else {
            throw StashError.tampered(
                kind: StashKind.passwords.entryWord,
                name: reading.entry.name,
                fields: reading.unreadable.map(\.label)
            )
        }
        return reading.entry
    }

    /// All fields of an entry that open, and the ones that do not (left
    /// empty in `entry`): what the form shows. Throws only when locked.
    package func read(_ object: ManagedObject) throws -> EntryReading {
        try read(object, vault: try currentVault())
    }

    /// `read(_:)` with the vault at hand (an import reads every entry: one header check, not one each).
    func read(_ object: ManagedObject, vault: Vault) -> EntryReading {
        guard let record = try? object.record(as: PasswordRecord.self) else {
            // A row the record cannot read (a value of the wrong kind put there): nothing opens.
            let name = object.string(PasswordRecord.Columns.name.stringValue) ?? ""
            return EntryReading(entry: PasswordEntry(name: name), unreadable: SealedField.passwordFields)
        }
        return read(record, vault: vault)
    }

    /// The fields of `record` that open, and the ones that do not.
    func read(_ record: PasswordRecord, vault: Vault) -> EntryReading {
        var entry = PasswordEntry(name: record.name)
        var unreadable: [SealedField] = []
        for field in SealedField.passwordFields {
            do {
                let value = try openField(field, of: record, vault: vault)
                switch field {
                case .userID: entry.userID = value
                case .password: entry.password = value
                case .url: entry.url = value.isEmpty ? nil : value
                case .notes: entry.notes = value.isEmpty ? nil : value
                case .totp: entry.totp = value.isEmpty ? nil : value
                case .history: entry.history = try PasswordHistory(encoded: value)
                case .body: break
                }
            } catch {
                unreadable.append(field)
            }
        }
        return EntryReading(entry: entry, unreadable: unreadable)
    }

    /// `record` holding `entry`: renamed, at its next revision, every field but those `keeping` sealed again.
    func filled(
        _ record: PasswordRecord,
        with entry: PasswordEntry,
        keeping: Set<SealedField> = [],
        vault: Vault
    ) throws -> PasswordRecord {
        // A kept (unreadable) field stays bound to the old name and revision: it stays unreadable, as it was.
        var record = record
        record.name = entry.name
        record.revision += 1
        for field in SealedField.passwordFields where !keeping.contains(field) {
            record[sealed: field] = try seal(Stash.value(of: field, in: entry), field, of: record, vault: vault)
        }
        record.modified = StoreDate.dateTimeText(from: Date())
        return record
    }

    private static func value(of field: SealedField, in entry: PasswordEntry) -> String {
        switch field {
        case .userID: return entry.userID
        case .password: return entry.password
        case .url: return entry.url ?? ""
        case .notes: return entry.notes ?? ""
        case .totp: return entry.totp ?? ""
        case .history: return entry.history.encoded
        case .body: return ""
        }
    }

    // MARK: - Sealing

    /// `value` sealed as `field` of `entry`, bound to its uid, name and revision.
    func seal(_ value: String, _ field: SealedField, of entry: some SealedEntry, vault: Vault) throws -> SealedValue {
        SealedValue(
            bytes: try vault.seal(
                value,
                identity: entry.binding.associatedData(field),
                largeBlocks: field.usesLargeBlocks
            )
        )
    }

    /// The note or password entry `object` holds, as its record.
    /// Throws `StashError.tampered` for a row the record cannot read (a value of the wrong kind put there).
    func sealedEntry(_ object: ManagedObject) throws -> any SealedEntry {
        let isNote = object.entity.name == StashModel.note
        do {
            return isNote ? try object.record(as: NoteRecord.self) : try object.record(as: PasswordRecord.self)
        } catch {
            let kind: StashKind = isNote ? .notes : .passwords
            throw StashError.tampered(
                kind: kind.entryWord,
                name: object.string(kind.nameKey) ?? "",
                fields: kind.sealedFields.map(\.label)
            )
        }
    }

    /// One sealed field of `object`, decrypted.
    func openField(_ field: SealedField, of object: ManagedObject, vault: Vault) throws -> String {
        try openField(field, of: sealedEntry(object), vault: vault)
    }

    /// Opens one sealed field. Throws `StashError.tampered`: for a value
    /// that does not open, and for anything but a ciphertext (format 3
    /// seals every field, empty ones too: a NULL or plaintext was put there).
    func openField(_ field: SealedField, of entry: some SealedEntry, vault: Vault) throws -> String {
        guard let sealed = entry[sealed: field].bytes else {
            throw Stash.tampered(entry, fields: [field])  // NULL or plaintext where a ciphertext belongs
        }
        do {
            return try vault.openString(sealed, identity: entry.binding.associatedData(field))
        } catch VaultError.closed {
            throw StashError.locked
        } catch {
            throw Stash.tampered(entry, fields: [field])
        }
    }

    private static func tampered(_ entry: some SealedEntry, fields: [SealedField]) -> StashError {
        StashError.tampered(
            kind: (entry is NoteRecord ? StashKind.notes : .passwords).entryWord,
            name: entry.entryName,
            fields: fields.map(\.label)
        )
    }

    // MARK: - Search and listing

    /// The detail line of an entry in the list: a note's first non-empty line,
    /// a password entry's user ID, URL and current TOTP code with the seconds
    /// it has left (never the password); a warning when its fields do not open.
    package func listDetail(of object: ManagedObject, at date: Date = Date()) -> String {
        guard vault != nil else { return "" }
        guard let entry = try? sealedEntry(object) else { return "⚠ tampered with or damaged" }
        return listDetail(of: entry, at: date)
    }

    /// `listDetail(of:at:)` of an entry already read.
    func listDetail(of entry: any SealedEntry, at date: Date = Date()) -> String {
        guard let vault = try? currentVault() else { return "" }
        if entry is NoteRecord {
            guard let body = try? openField(.body, of: entry, vault: vault) else { return "⚠ tampered with or damaged" }
            let firstLine = body.split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
            return firstLine ?? "No additional text"
        }
        guard let user = try? openField(.userID, of: entry, vault: vault),
            let url = try? openField(.url, of: entry, vault: vault)
        else { return "⚠ tampered with or damaged" }
        var parts = [user, url].filter { !$0.isEmpty }
        if let secret = try? openField(.totp, of: entry, vault: vault), !secret.isEmpty {
            if let totp = try? TOTP(parsing: secret), let code = try? totp.code(at: date) {
                parts.append("\(code) (\(totp.secondsLeft(at: date)) s)")
            } else {
                parts.append("TOTP secret not usable")
            }
        }
        return parts.isEmpty ? "••••••" : parts.joined(separator: " · ")
    }

    /// The notes (title, body) or passwords (name, user ID, URL) whose text
    /// contains `text`, case-insensitively: searched in memory, after
    /// unlocking, since only titles and names are plaintext in the file.
    package func objectIDs(of kind: StashKind, matching text: String) throws -> [ObjectID] {
        guard !text.isEmpty else { return [] }
        let vault = try currentVault()
        let needle = text.lowercased()
        var found: [ObjectID] = []
        for object in try context.fetch(kind.entity, orderBy: "id") {
            guard let entry = try? sealedEntry(object) else { continue }
            var haystack = [entry.entryName]
            for field in kind.searchedFields { haystack.append((try? openField(field, of: entry, vault: vault)) ?? "") }
            if haystack.contains(where: { $0.lowercased().contains(needle) }) { found.append(object.objectID) }
        }
        return found
    }

    // MARK: - Both

    /// Deletes a note or a password and saves; `undo()` brings it back. Needs the vault unlocked (the manifest).
    package func delete(_ object: ManagedObject) throws {
        context.delete(object)
        try saveOrRollback()
    }

    /// Undoes the last save (e.g. a delete); the manifest is kept by the store's save hook, as
    /// for any undo of the context. Returns false when there is nothing to undo.
    @discardableResult
    package func undo() throws -> Bool {
        try context.undo() != nil
    }

    /// Titles of all notes, or names of all passwords, in the app's order
    /// (by letter section, `#` first, then case-insensitively). Never
    /// secrets; needs no passphrase.
    package func names(of kind: StashKind) throws -> [String] {
        let key = kind.nameKey
        let section = StashModel.initialSQL(column: key).replacingOccurrences(of: "$.", with: "t0.")
        return try context.fetch(kind.entity, orderBy: "\(section), t0.\(key) COLLATE NOCASE, t0.id")
            .map { $0.string(key) ?? "" }
    }

    /// Saves the context (the save hook checks the manifest before and writes it after, in the
    /// save's transaction); a failed save leaves the context as the file is.
    func saveOrRollback() throws {
        do { try context.save() } catch {
            context.rollback()
            throw error
        }
    }

    /// Runs `body` in one transaction; when it fails — the body threw, or the COMMIT did (a full
    /// disk) after the context's save inside it — the context's changes are rolled back too, so
    /// that it holds what the file holds (a context saved inside a transaction that then rolls
    /// back has its changes pending again) and the form's retry starts from the file.
    func transactionRollingBack<T>(_ body: () throws -> T) throws -> T {
        do { return try store.database.transaction(body) } catch {
            context.rollback()
            throw error
        }
    }

    private static func require(_ value: String, entity: String, key: String) throws {
        if value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw StashError.emptyField(entity: entity, key: key)
        }
    }

    static func newUID() -> String {
        Sodium.randomBytes(16).map { byte in
            let hex = Array("0123456789abcdef")
            return String([hex[Int(byte >> 4)], hex[Int(byte & 15)]])
        }.joined()
    }
}

/// The two lists of the stash.
///
///     try stash.names(of: .passwords)
package enum StashKind: String, CaseIterable, Sendable {
    case notes, passwords

    /// The entity behind the list.
    package var entity: String { self == .notes ? StashModel.note : StashModel.password }
    /// The key shown and sorted by (`title` or `name`).
    package var nameKey: String {
        self == .notes ? NoteRecord.Columns.title.stringValue : PasswordRecord.Columns.name.stringValue
    }
    /// The derived section key (`titleInitial` or `nameInitial`).
    package var sectionKey: String { self == .notes ? "titleInitial" : "nameInitial" }
    /// The fields sealed in each entry of the list.
    package var sealedFields: [SealedField] { self == .notes ? [.body] : SealedField.passwordFields }
    /// The sealed fields `/` searches besides the title or name.
    package var searchedFields: [SealedField] { self == .notes ? [.body] : [.userID, .url] }
}

/// What `Stash.read(_:)` found in a password entry: the fields that open, and
/// the ones that do not (tampered with or damaged; empty in `entry`).
///
///     let reading = try stash.read(object)
///     if !reading.unreadable.isEmpty { form.errorMessage = "damaged" }
package struct EntryReading: Equatable, Sendable {
    package var entry: PasswordEntry
    package var unreadable: [SealedField]
}

/// What `Stash.updatePassword(_:with:)` did.
///
///     let update = try stash.updatePassword(object, with: entry)
///     if !update.keptUnreadable.isEmpty { print("the damaged password was kept as it was") }
package struct EntryUpdate: Equatable, Sendable {
    /// False when nothing changed and nothing was saved.
    package var changed: Bool
    /// Fields that could not be opened and were left as they were (their ciphertext kept).
    package var keptUnreadable: [SealedField]
}
