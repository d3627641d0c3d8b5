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
/// limits and a verifier do. A stash of the first version (plaintext user
/// IDs, URLs, notes and bodies) is re-sealed on its first unlock, in one
/// transaction.
///
///     let stash = try Stash(path: path)
///     if stash.hasPassphrase { try stash.unlock(passphrase: typed) }
///     else { try stash.setUp(passphrase: typed, parameters: .interactive) }
///     let note = try stash.addNote(title: "Groceries", body: "milk")
///     let login = try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "s3cret"))
///     let secret = try stash.revealPassword(of: login)   // "s3cret"
///     stash.lock()                                        // key wiped
public final class Stash {
    /// The store file.
    public let path: String
    /// The SQLite store (its `database` is for inspection and tests).
    public let store: Store
    /// The context the app's lists and edits use. Replaced (dropping its undo
    /// history, which may hold ciphertexts under the old key) by `changePassphrase`.
    public private(set) var context: ObjectContext
    /// A context of its own for the vault header, so that undoing the app's
    /// edits can never undo setting or changing the passphrase.
    private let vaultContext: ObjectContext
    /// The unlocked vault; nil while locked.
    public private(set) var vault: Vault?

    /// Opens (creating when needed, mode 0600) the stash at `path`.
    ///
    /// With `readOnly`, nothing is created or written (for `mystash list`):
    /// a missing file throws `StashError.noStore`.
    public init(path: String, readOnly: Bool = false) throws {
        self.path = path
        if readOnly {
            guard FileManager.default.fileExists(atPath: path) else { throw StashError.noStore(path: path) }
        } else {
            try StashLocation.prepare(path: path)
        }
        self.store = try Store(path: path, model: StashModel.model, readOnly: readOnly)
        if !readOnly {
            StashLocation.tightenPermissions(path: path)
            // Replaced and deleted values are zeroed in the file, not left in free space.
            try store.database.execute("PRAGMA secure_delete = ON")
        }
        self.context = ObjectContext(store: store)
        self.vaultContext = ObjectContext(store: store)
    }

    deinit { vault?.close() }

    // MARK: - The vault

    /// Whether a master passphrase was set (the vault header exists).
    public var hasPassphrase: Bool { (try? storedHeader()) != nil }

    /// Whether the key is in memory.
    public var isUnlocked: Bool { vault.map { !$0.isClosed } ?? false }

    /// The stored vault header, nil before the first `setUp`.
    public func storedHeader() throws -> VaultHeader? {
        guard let info = try vaultContext.fetch(StashModel.vaultInfo, orderBy: "id", limit: 1).first else { return nil }
        return header(from: info)
    }

    /// First run: derives a key from `passphrase` with a new salt and stores
    /// the header. The vault is then unlocked.
    public func setUp(passphrase: SecureBytes, parameters: KDFParameters) throws {
        guard try storedHeader() == nil else { throw StashError.alreadyInitialized }
        let (newVault, header) = try Vault.create(passphrase: passphrase, parameters: parameters)
        let info = vaultContext.insert(into: StashModel.vaultInfo)
        write(header, to: info)
        do {
            try resealFirstVersion(with: newVault, info: info)
            try vaultContext.save()
        } catch {
            vaultContext.rollback()
            newVault.close()
            throw error
        }
        vault = newVault
        context = ObjectContext(store: store)
    }

    /// Later runs: checks `passphrase` against the stored verifier and keeps
    /// the key. A wrong passphrase throws `VaultError.wrongPassphrase` and
    /// writes nothing.
    ///
    /// The first unlock of a first-version stash seals what it kept in
    /// plaintext (user IDs, URLs, notes, note bodies) and re-seals its
    /// passwords under the new binding, all in one transaction; a failure
    /// leaves the stash locked and unchanged.
    public func unlock(passphrase: SecureBytes) throws {
        guard let header = try storedHeader() else { throw StashError.notInitialized }
        vault?.close()
        vault = nil
        let opened = try Vault.unlock(passphrase: passphrase, header: header)
        do {
            if let info = try vaultContext.fetch(StashModel.vaultInfo, orderBy: "id", limit: 1).first,
                (info["sealing"].int64 ?? 1) < Int64(SealedField.sealingVersion)
            {
                try resealFirstVersion(with: opened, info: info)
                try vaultContext.save()
                context = ObjectContext(store: store)
                // The plaintext of the old rows must not stay behind in the write-ahead log.
                _ = try? store.database.query("PRAGMA wal_checkpoint(TRUNCATE)")
            }
        } catch {
            vaultContext.rollback()
            opened.close()
            throw error
        }
        vault = opened
    }

    /// Seals what a first-version stash kept in plaintext and re-seals its
    /// passwords (bound then to the `uid` only), in `vaultContext` (saved by
    /// the caller, in one transaction). A version-1 password that does not
    /// open is kept as it is: it stays unreadable, reported as damaged.
    private func resealFirstVersion(with vault: Vault, info: ManagedObject) throws {
        for object in try vaultContext.fetch(StashModel.password) {
            let name = object.string("name") ?? ""
            let uid = object.string("uid") ?? ""
            for field in SealedField.passwordFields where field != .password {
                if case .blob = object[field.key] { continue }  // sealed already
                var plain = Array((object[field.key].string ?? "").utf8)
                defer { Sodium.wipe(&plain) }
                object[field.key] = .blob(try vault.seal(plain, identity: field.associatedData(uid: uid, name: name)))
            }
            if case .blob(let old) = object["password"],
                var plain = try? vault.open(old, identity: "\(StashModel.password):\(uid)")
            {
                defer { Sodium.wipe(&plain) }
                object["password"] = .blob(
                    try vault.seal(plain, identity: SealedField.password.associatedData(uid: uid, name: name))
                )
            }
        }
        for note in try vaultContext.fetch(StashModel.note) {
            if case .blob = note["body"] { continue }
            var plain = Array((note["body"].string ?? "").utf8)
            defer { Sodium.wipe(&plain) }
            note["body"] = .blob(
                try vault.seal(
                    plain,
                    identity: SealedField.body.associatedData(
                        uid: note.string("uid") ?? "",
                        name: note.string("title") ?? ""
                    )
                )
            )
        }
        info["sealing"] = .integer(Int64(SealedField.sealingVersion))
    }

    /// Wipes the key from memory.
    public func lock() {
        vault?.close()
        vault = nil
    }

    /// Replaces the master passphrase: a new salt and key, and every sealed
    /// field re-sealed, all in one transaction (a failure, such as an entry
    /// that was tampered with, changes nothing).
    ///
    /// Afterwards `context` is a new context (the old one's undo history may
    /// hold ciphertexts sealed under the old key and must not be replayed).
    public func changePassphrase(to passphrase: SecureBytes, parameters: KDFParameters? = nil) throws {
        let old = try currentVault()
        let (newVault, header) = try Vault.create(
            passphrase: passphrase,
            parameters: parameters ?? old.header.parameters
        )
        do {
            for kind in StashKind.allCases {
                for object in try vaultContext.fetch(kind.entity) {
                    for field in kind.sealedFields {
                        guard case .blob(let sealed) = object[field.key] else { continue }
                        let identity = Stash.identity(of: object, field: field)
                        var plain: [UInt8]
                        do { plain = try old.open(sealed, identity: identity) } catch {
                            throw Stash.tampered(object, fields: [field])
                        }
                        defer { Sodium.wipe(&plain) }
                        object[field.key] = .blob(try newVault.seal(plain, identity: identity))
                    }
                }
            }
            guard let info = try vaultContext.fetch(StashModel.vaultInfo, orderBy: "id", limit: 1).first else {
                throw StashError.notInitialized
            }
            write(header, to: info)
            try vaultContext.save()
        } catch {
            vaultContext.rollback()
            newVault.close()
            throw error
        }
        old.close()
        vault = newVault
        context = ObjectContext(store: store)
    }

    /// The unlocked vault, checked against the stored header so that a
    /// passphrase changed meanwhile by another process (`mystash passwd`) is
    /// noticed before anything is sealed with a stale key.
    func currentVault() throws -> Vault {
        guard let vault, !vault.isClosed else { throw StashError.locked }
        guard let stored = try storedHeader(), stored == vault.header else {
            lock()
            throw StashError.passphraseChangedElsewhere
        }
        return vault
    }

    private func header(from info: ManagedObject) -> VaultHeader? {
        guard case .blob(let salt) = info["salt"], case .blob(let verifier) = info["verifier"],
            let ops = info["opsLimit"].int64, let mem = info["memLimit"].int64,
            let algorithm = info["algorithm"].int64
        else { return nil }
        return VaultHeader(
            salt: salt,
            parameters: KDFParameters(
                opsLimit: UInt64(clamping: ops),
                memLimit: UInt64(clamping: mem),
                algorithm: Int32(truncatingIfNeeded: algorithm)
            ),
            verifier: verifier
        )
    }

    private func write(_ header: VaultHeader, to info: ManagedObject) {
        info["salt"] = .blob(header.salt)
        info["verifier"] = .blob(header.verifier)
        info["opsLimit"] = .integer(Int64(clamping: header.parameters.opsLimit))
        info["memLimit"] = .integer(Int64(clamping: header.parameters.memLimit))
        info["algorithm"] = .integer(Int64(header.parameters.algorithm))
        info["changed"] = .text(StoreDate.dateTimeText(from: Date()))
        info["sealing"] = .integer(Int64(SealedField.sealingVersion))
    }

    // MARK: - Notes

    /// Adds a note (title required; its body sealed) and saves. Needs the vault unlocked.
    @discardableResult
    public func addNote(title: String, body: String) throws -> ManagedObject {
        let vault = try currentVault()
        try Stash.require(title, entity: StashModel.note, key: "title")
        let note = context.insert(into: StashModel.note)
        let now = StoreValue.text(StoreDate.dateTimeText(from: Date()))
        note["uid"] = .text(Stash.newUID())
        note["title"] = .text(title)
        note["created"] = now
        note["modified"] = now
        do {
            note["body"] = try seal(body, .body, of: note, vault: vault)
        } catch {
            context.rollback()
            throw error
        }
        try saveOrRollback()
        return note
    }

    /// Changes a note's title and body (re-sealing the body) and saves.
    /// Returns false (and saves nothing) when both are unchanged.
    ///
    /// A body that cannot be opened (tampered with or damaged) is kept as it
    /// is when `body` is empty, so that fixing the title does not destroy it.
    @discardableResult
    public func updateNote(_ note: ManagedObject, title: String, body: String) throws -> Bool {
        let vault = try currentVault()
        try Stash.require(title, entity: StashModel.note, key: "title")
        let current = try? noteBody(of: note)
        if note.string("title") == title && current == body { return false }
        do {
            if current == nil && body.isEmpty {
                note["title"] = .text(title)  // the unreadable body stays as it was
            } else {
                note["title"] = .text(title)
                note["body"] = try seal(body, .body, of: note, vault: vault)
            }
            note["modified"] = .text(StoreDate.dateTimeText(from: Date()))
        } catch {
            context.rollback()
            throw error
        }
        try saveOrRollback()
        return true
    }

    /// The decrypted body of a note. Throws `StashError.tampered` when it does not open.
    public func noteBody(of note: ManagedObject) throws -> String {
        try open(.body, of: note, vault: try currentVault())
    }

    // MARK: - Passwords

    /// The associated data a sealed field of a row is bound to.
    public static func identity(of object: ManagedObject, field: SealedField) -> String {
        let nameKey = object.entity.name == StashModel.note ? "title" : "name"
        return field.associatedData(uid: object.string("uid") ?? "", name: object.string(nameKey) ?? "")
    }

    /// Adds a password entry, sealing every field but the name, and saves. Needs the vault unlocked.
    @discardableResult
    public func addPassword(_ entry: PasswordEntry) throws -> ManagedObject {
        let vault = try currentVault()
        try Stash.require(entry.name, entity: StashModel.password, key: "name")
        let object = context.insert(into: StashModel.password)
        object["uid"] = .text(Stash.newUID())
        do {
            try fill(object, with: entry, keeping: [], vault: vault)
        } catch {
            context.rollback()
            throw error
        }
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
    @discardableResult
    public func updatePassword(_ object: ManagedObject, with entry: PasswordEntry) throws -> EntryUpdate {
        let vault = try currentVault()
        try Stash.require(entry.name, entity: StashModel.password, key: "name")
        let current = try read(object)
        var entry = entry
        if entry.history.items.isEmpty { entry.history = current.entry.history }
        let keep = current.unreadable.filter { field in Stash.value(of: field, in: entry).isEmpty }
        if current.unreadable.isEmpty && current.entry == entry {
            return EntryUpdate(changed: false, keptUnreadable: [])
        }
        if !current.unreadable.contains(.password), current.entry.password != entry.password {
            entry.history.record(current.entry.password, replacedAt: StoreDate.dateTimeText(from: Date()))
        }
        do {
            try fill(object, with: entry, keeping: Set(keep), vault: vault)
        } catch {
            context.rollback()
            throw error
        }
        try saveOrRollback()
        return EntryUpdate(changed: true, keptUnreadable: keep)
    }

    /// The decrypted password of an entry (for the form's reveal and copy only).
    /// Throws `StashError.tampered` when it does not open.
    public func revealPassword(of object: ManagedObject) throws -> String {
        try open(.password, of: object, vault: try currentVault())
    }

    /// All fields of an entry, decrypted. Throws `StashError.tampered`
    /// naming the entry when any field does not open.
    public func entry(for object: ManagedObject) throws -> PasswordEntry {
        let reading = try read(object)
        guard reading.unreadable.isEmpty else { throw Stash.tampered(object, fields: reading.unreadable) }
        return reading.entry
    }

    /// All fields of an entry that open, and the ones that do not (left
    /// empty in `entry`): what the form shows. Throws only when locked.
    public func read(_ object: ManagedObject) throws -> EntryReading {
        let vault = try currentVault()
        var entry = PasswordEntry(name: object.string("name") ?? "")
        var unreadable: [SealedField] = []
        for field in SealedField.passwordFields {
            do {
                let value = try open(field, of: object, vault: vault)
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

    func fill(_ object: ManagedObject, with entry: PasswordEntry, keeping: Set<SealedField>, vault: Vault) throws {
        // A kept (unreadable) field stays bound to the old name: it stays unreadable, as it was.
        object["name"] = .text(entry.name)
        for field in SealedField.passwordFields where !keeping.contains(field) {
            object[field.key] = try seal(Stash.value(of: field, in: entry), field, of: object, vault: vault)
        }
        object["modified"] = .text(StoreDate.dateTimeText(from: Date()))
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

    func seal(_ value: String, _ field: SealedField, of object: ManagedObject, vault: Vault) throws -> StoreValue {
        .blob(try vault.seal(value, identity: Stash.identity(of: object, field: field)))
    }

    /// Opens one sealed field; a NULL field is empty. Throws `StashError.tampered`.
    private func open(_ field: SealedField, of object: ManagedObject, vault: Vault) throws -> String {
        switch object[field.key] {
        case .null: return ""
        case .blob(let sealed):
            do {
                return try vault.openString(sealed, identity: Stash.identity(of: object, field: field))
            } catch VaultError.closed {
                throw StashError.locked
            } catch {
                throw Stash.tampered(object, fields: [field])
            }
        default:
            throw Stash.tampered(object, fields: [field])  // plaintext where a ciphertext belongs
        }
    }

    private static func tampered(_ object: ManagedObject, fields: [SealedField]) -> StashError {
        let isNote = object.entity.name == StashModel.note
        return StashError.tampered(
            kind: isNote ? "note" : "password entry",
            name: object.string(isNote ? "title" : "name") ?? "",
            fields: fields.map(\.label)
        )
    }

    // MARK: - Search and listing

    /// The detail line of an entry in the list: a note's first non-empty line,
    /// a password entry's user ID, URL and current TOTP code with the seconds
    /// it has left (never the password); a warning when its fields do not open.
    public func listDetail(of object: ManagedObject, at date: Date = Date()) -> String {
        guard let vault = try? currentVault() else { return "" }
        if object.entity.name == StashModel.note {
            guard let body = try? open(.body, of: object, vault: vault) else { return "⚠ tampered with or damaged" }
            let firstLine = body.split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
            return firstLine ?? "No additional text"
        }
        guard let user = try? open(.userID, of: object, vault: vault),
            let url = try? open(.url, of: object, vault: vault)
        else { return "⚠ tampered with or damaged" }
        var parts = [user, url].filter { !$0.isEmpty }
        if let secret = try? open(.totp, of: object, vault: vault), !secret.isEmpty {
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
    public func objectIDs(of kind: StashKind, matching text: String) throws -> [ObjectID] {
        guard !text.isEmpty else { return [] }
        let vault = try currentVault()
        let needle = text.lowercased()
        var found: [ObjectID] = []
        for object in try context.fetch(kind.entity, orderBy: "id") {
            var haystack = [object.string(kind.nameKey) ?? ""]
            for field in kind.searchedFields { haystack.append((try? open(field, of: object, vault: vault)) ?? "") }
            if haystack.contains(where: { $0.lowercased().contains(needle) }) { found.append(object.objectID) }
        }
        return found
    }

    // MARK: - Both

    /// Deletes a note or a password and saves; `undo()` brings it back.
    public func delete(_ object: ManagedObject) throws {
        context.delete(object)
        try saveOrRollback()
    }

    /// Undoes the last save (e.g. a delete). Returns false when there is nothing to undo.
    @discardableResult
    public func undo() throws -> Bool {
        guard context.canUndo else { return false }
        try context.undo()
        return true
    }

    /// Titles of all notes, or names of all passwords, in the app's order
    /// (by letter section, `#` first, then case-insensitively). Never
    /// secrets; needs no passphrase.
    public func names(of kind: StashKind) throws -> [String] {
        let key = kind.nameKey
        let section = StashModel.initialSQL(column: key).replacingOccurrences(of: "$.", with: "t0.")
        return try context.fetch(kind.entity, orderBy: "\(section), t0.\(key) COLLATE NOCASE, t0.id")
            .map { $0.string(key) ?? "" }
    }

    func saveOrRollback() throws {
        do { try context.save() } catch {
            context.rollback()
            throw error
        }
    }

    private static func require(_ value: String, entity: String, key: String) throws {
        if value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw StashError.emptyField(entity: entity, key: key)
        }
    }

    private static func optionalText(_ value: String?) -> StoreValue {
        guard let value, !value.isEmpty else { return .null }
        return .text(value)
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
public enum StashKind: String, CaseIterable, Sendable {
    case notes, passwords

    /// The entity behind the list.
    public var entity: String { self == .notes ? StashModel.note : StashModel.password }
    /// The key shown and sorted by (`title` or `name`).
    public var nameKey: String { self == .notes ? "title" : "name" }
    /// The derived section key (`titleInitial` or `nameInitial`).
    public var sectionKey: String { self == .notes ? "titleInitial" : "nameInitial" }
    /// The fields sealed in each entry of the list.
    public var sealedFields: [SealedField] { self == .notes ? [.body] : SealedField.passwordFields }
    /// The sealed fields `/` searches besides the title or name.
    public var searchedFields: [SealedField] { self == .notes ? [.body] : [.userID, .url] }
}

/// What `Stash.read(_:)` found in a password entry: the fields that open, and
/// the ones that do not (tampered with or damaged; empty in `entry`).
///
///     let reading = try stash.read(object)
///     if !reading.unreadable.isEmpty { form.errorMessage = "damaged" }
public struct EntryReading: Equatable, Sendable {
    public var entry: PasswordEntry
    public var unreadable: [SealedField]
}

/// What `Stash.updatePassword(_:with:)` did.
///
///     let update = try stash.updatePassword(object, with: entry)
///     if !update.keptUnreadable.isEmpty { print("the damaged password was kept as it was") }
public struct EntryUpdate: Equatable, Sendable {
    /// False when nothing changed and nothing was saved.
    public var changed: Bool
    /// Fields that could not be opened and were left as they were (their ciphertext kept).
    public var keptUnreadable: [SealedField]
}
