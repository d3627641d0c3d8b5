import Foundation
import SQLiteStore

/// The notes-and-passwords store, with its vault: what the app and the
/// command line work through.
///
/// Opening a stash creates a private file (mode 0600) when there is none.
/// Notes are plain; each password is sealed by the vault before it is
/// written, bound to the row's `uid` (associated data `"Password:<uid>"`,
/// a random identity that survives undo and renaming), so a ciphertext
/// moved to another row does not open. The master passphrase never reaches
/// the disk: only the salt, the KDF limits and a verifier do.
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
        if !readOnly { StashLocation.tightenPermissions(path: path) }
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
        do { try vaultContext.save() } catch {
            vaultContext.rollback()
            newVault.close()
            throw error
        }
        vault = newVault
    }

    /// Later runs: checks `passphrase` against the stored verifier and keeps
    /// the key. A wrong passphrase throws `VaultError.wrongPassphrase` and
    /// writes nothing.
    public func unlock(passphrase: SecureBytes) throws {
        guard let header = try storedHeader() else { throw StashError.notInitialized }
        vault?.close()
        vault = try Vault.unlock(passphrase: passphrase, header: header)
    }

    /// Wipes the key from memory.
    public func lock() {
        vault?.close()
        vault = nil
    }

    /// Replaces the master passphrase: a new salt and key, and every password
    /// re-sealed, all in one transaction (a failure changes nothing).
    ///
    /// Afterwards `context` is a new context (the old one's undo history may
    /// hold ciphertexts sealed under the old key and must not be replayed).
    public func changePassphrase(to passphrase: SecureBytes, parameters: KDFParameters? = nil) throws {
        let old = try currentVault()
        let (newVault, header) = try Vault.create(passphrase: passphrase, parameters: parameters ?? old.header.parameters)
        do {
            for object in try vaultContext.fetch(StashModel.password) {
                let identity = Stash.identity(of: object)
                guard case .blob(let sealed) = object["password"] else { continue }
                var plain = try old.open(sealed, identity: identity)
                defer { Sodium.wipe(&plain) }
                object["password"] = .blob(try newVault.seal(plain, identity: identity))
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
    private func currentVault() throws -> Vault {
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
              let algorithm = info["algorithm"].int64 else { return nil }
        return VaultHeader(salt: salt,
                           parameters: KDFParameters(opsLimit: UInt64(clamping: ops), memLimit: UInt64(clamping: mem),
                                                     algorithm: Int32(truncatingIfNeeded: algorithm)),
                           verifier: verifier)
    }

    private func write(_ header: VaultHeader, to info: ManagedObject) {
        info["salt"] = .blob(header.salt)
        info["verifier"] = .blob(header.verifier)
        info["opsLimit"] = .integer(Int64(clamping: header.parameters.opsLimit))
        info["memLimit"] = .integer(Int64(clamping: header.parameters.memLimit))
        info["algorithm"] = .integer(Int64(header.parameters.algorithm))
        info["changed"] = .text(StoreDate.dateTimeText(from: Date()))
    }

    // MARK: - Notes

    /// Adds a note (title required) and saves.
    @discardableResult
    public func addNote(title: String, body: String) throws -> ManagedObject {
        try Stash.require(title, entity: StashModel.note, key: "title")
        let note = context.insert(into: StashModel.note)
        let now = StoreValue.text(StoreDate.dateTimeText(from: Date()))
        note["title"] = .text(title)
        note["body"] = .text(body)
        note["created"] = now
        note["modified"] = now
        try saveOrRollback()
        return note
    }

    /// Changes a note's title and body and saves. Returns false (and saves
    /// nothing) when both are unchanged.
    @discardableResult
    public func updateNote(_ note: ManagedObject, title: String, body: String) throws -> Bool {
        try Stash.require(title, entity: StashModel.note, key: "title")
        if note.string("title") == title && note.string("body") == body { return false }
        note["title"] = .text(title)
        note["body"] = .text(body)
        note["modified"] = .text(StoreDate.dateTimeText(from: Date()))
        try saveOrRollback()
        return true
    }

    // MARK: - Passwords

    /// The associated data a password row's ciphertext is bound to.
    public static func identity(of password: ManagedObject) -> String {
        "\(StashModel.password):\(password.string("uid") ?? "")"
    }

    /// Adds a password entry, sealing its password, and saves. Needs the vault unlocked.
    @discardableResult
    public func addPassword(_ entry: PasswordEntry) throws -> ManagedObject {
        let vault = try currentVault()
        try Stash.require(entry.name, entity: StashModel.password, key: "name")
        let object = context.insert(into: StashModel.password)
        object["uid"] = .text(Stash.newUID())
        do {
            try fill(object, with: entry, vault: vault)
        } catch {
            context.rollback()
            throw error
        }
        try saveOrRollback()
        return object
    }

    /// Replaces a password entry's fields (re-sealing the password with a fresh
    /// nonce) and saves. Returns false (and saves nothing) when nothing changed.
    @discardableResult
    public func updatePassword(_ object: ManagedObject, with entry: PasswordEntry) throws -> Bool {
        let vault = try currentVault()
        try Stash.require(entry.name, entity: StashModel.password, key: "name")
        if (try? self.entry(for: object)) == entry { return false }
        do {
            try fill(object, with: entry, vault: vault)
        } catch {
            context.rollback()
            throw error
        }
        try saveOrRollback()
        return true
    }

    /// The decrypted password of an entry (for the form's reveal and copy only).
    public func revealPassword(of object: ManagedObject) throws -> String {
        let vault = try currentVault()
        guard case .blob(let sealed) = object["password"] else { return "" }
        return try vault.openString(sealed, identity: Stash.identity(of: object))
    }

    /// All fields of an entry, the password decrypted.
    public func entry(for object: ManagedObject) throws -> PasswordEntry {
        PasswordEntry(name: object.string("name") ?? "", userID: object.string("userID") ?? "",
                      password: try revealPassword(of: object),
                      url: object.string("url"), notes: object.string("notes"))
    }

    private func fill(_ object: ManagedObject, with entry: PasswordEntry, vault: Vault) throws {
        object["name"] = .text(entry.name)
        object["userID"] = .text(entry.userID)
        object["password"] = .blob(try vault.seal(entry.password, identity: Stash.identity(of: object)))
        object["url"] = Stash.optionalText(entry.url)
        object["notes"] = Stash.optionalText(entry.notes)
        object["modified"] = .text(StoreDate.dateTimeText(from: Date()))
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

    private func saveOrRollback() throws {
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

    private static func newUID() -> String {
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
}
