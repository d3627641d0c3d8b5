import Foundation
import SQLiteStore

/// The vault of a stash: setting, checking and changing the master
/// passphrase, the format migrations, and the authenticated header and
/// manifest every save keeps.
///
/// The format contract (`vault_info.sealing`, `VaultHeader.format`):
/// - **1** (the first release): user IDs, URLs, notes and note bodies in
///   plaintext. Such a file is opened read-only with the first version's
///   model; the first unlock with the right passphrase migrates its schema
///   and seals its values in that one process. Plaintext is adopted in no
///   other case: a file of a later schema that says format 1 was changed
///   behind the app's back and is refused (`unsealedFormatNotFromFirstVersion`).
/// - **2**: every field sealed under the master key, bound to its entry.
///   Migrated at the first unlock: every value is opened and re-sealed in
///   format 3; plaintext where a ciphertext belongs is refused as tampering.
/// - **3** (this version): fields padded and sealed under a subkey, bound to
///   the entry's uid, field, name and revision; a verifier under its own
///   subkey (so a format-3 file holds nothing an older format would accept);
///   a MAC of the header (format, salt, limits, verifier) under the header
///   subkey; and a manifest of every entry (uid, name, revision, a hash of
///   each sealed column) with a generation counter, under the manifest
///   subkey. Unlocking checks both, and every write checks the manifest
///   before writing and writes the next generation in the same transaction
///   (the store's save hook, `installManifestHook()`: every save, undo and
///   redo of any context, whoever makes it), so a field rolled back from a
///   backup, an entry deleted, added or renamed with `sqlite3`, a second row
///   of an entry (its unique index on `uid` dropped) is refused, naming what
///   changed (`StashError.changedBehindTheAppsBack`); nothing is re-sealed then.
/// - A higher format is refused (`newerFormat`).
///
/// A whole file replaced by an older copy of itself (a backup) cannot be
/// told from the real one by its contents: the machines that unlocked it
/// remember what they last saw (`SeenStashes`, under `$XDG_STATE_HOME`), and
/// refuse a lower generation, or the same one with another MAC
/// (`StashError.rolledBack`), until the person accepts it. What that record
/// does and does not cover is in `SeenStashes`.
///
///     try stash.unlock(passphrase: typed)   // throws StashError.changedBehindTheAppsBack([…]) on tampering
extension Stash {
    /// Whether a master passphrase was set (the vault header exists).
    package var hasPassphrase: Bool { (try? storedHeader()) != nil }

    /// Whether the key is in memory.
    package var isUnlocked: Bool { vault.map { !$0.isClosed } ?? false }

    /// The stored vault header, nil before the first `setUp`.
    package func storedHeader() throws -> VaultHeader? {
        let hasFormat = store.model.version >= 2
        let rows = try store.database.query(
            "SELECT salt, ops_limit, mem_limit, algorithm, verifier\(hasFormat ? ", sealing" : "")"
                + " FROM vault_info ORDER BY id LIMIT 1"
        )
        guard let row = rows.first, case .blob(let salt) = row[0], case .blob(let verifier) = row[4],
            let ops = row[1].int64, let mem = row[2].int64, let algorithm = row[3].int64
        else { return nil }
        return VaultHeader(
            salt: salt,
            parameters: KDFParameters(
                opsLimit: UInt64(clamping: ops),
                memLimit: UInt64(clamping: mem),
                algorithm: Int32(truncatingIfNeeded: algorithm)
            ),
            verifier: verifier,
            format: hasFormat ? Int(row[5].int64 ?? 1) : 1
        )
    }

    /// First run: derives a key from `passphrase` with a new salt and stores
    /// the header and the (empty) manifest. The vault is then unlocked.
    ///
    /// A first-version file without a passphrase has its notes sealed now.
    package func setUp(passphrase: SecureBytes, parameters: KDFParameters) throws {
        guard try storedHeader() == nil else { throw StashError.alreadyInitialized }
        let entries = try StashKind.allCases.reduce(0) {
            $0 + (try store.database.scalar("SELECT count(*) FROM \($1.table)").int64 ?? 0)
        }
        guard isFirstVersionPending || entries == 0 else {
            throw StashError.changedBehindTheAppsBack(["the vault header was removed while \(entries) entries remain"])
        }
        let fromFirstVersion = isFirstVersionPending
        try upgradeSchemaOfFirstVersion()
        let (newVault, header) = try Vault.create(passphrase: passphrase, parameters: parameters)
        do {
            try store.database.transaction {
                try store.database.run(
                    "INSERT INTO vault_info (salt, ops_limit, mem_limit, algorithm, verifier, changed, sealing)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        .blob(header.salt), .integer(0), .integer(0), .integer(0), .blob(header.verifier), .text(""),
                        .integer(0),
                    ]
                )
                if fromFirstVersion { try resealValues(from: 1, opening: newVault, sealing: newVault) }
                try writeHeader(header, vault: newVault)
                try writeManifest(vault: newVault)
            }
        } catch {
            newVault.close()
            throw error
        }
        vault = newVault
        context = ObjectContext(store: store)
        rememberSeen()
    }

    /// Later runs: checks `passphrase` against the stored verifier, then the
    /// header's MAC and the manifest, and keeps the key. A wrong passphrase
    /// throws `VaultError.wrongPassphrase`, a stash changed behind the app's
    /// back `StashError.changedBehindTheAppsBack` (or `VaultError.headerChanged`);
    /// neither writes anything.
    ///
    /// The first unlock of a stash of format 1 or 2 migrates it to format 3,
    /// in one transaction (see the type's format contract); a failure leaves
    /// the stash locked and unchanged.
    package func unlock(passphrase: SecureBytes) throws {
        _ = try unlock(passphrase: passphrase, toleratingChanges: false)
    }

    /// `unlock(passphrase:)`, with `seen` (`SeenStashes`) consulted: key-derivation limits other
    /// than the ones recorded beside the same salt throw `VaultError.headerChanged` before any
    /// key is derived; a stash at a lower generation than last seen here, or at the same one
    /// with another manifest MAC, throws `StashError.rolledBack` (nothing written) unless
    /// `acceptingRollback`, which makes its generation the one remembered.
    package func unlock(passphrase: SecureBytes, acceptingRollback: Bool) throws {
        _ = try unlock(passphrase: passphrase, toleratingChanges: false, acceptingRollback: acceptingRollback)
    }

    /// `unlock(passphrase:)`; with `toleratingChanges`, a stash whose entries
    /// do not match the manifest unlocks anyway and the findings are
    /// returned (for `mystash passwd --skip-damaged`, after the person
    /// agreed): the next `changePassphrase(to:parameters:skippingDamaged:)`
    /// writes a manifest of the entries as they are.
    func unlock(passphrase: SecureBytes, toleratingChanges: Bool, acceptingRollback: Bool = false) throws -> [String] {
        guard let header = try storedHeader() else { throw StashError.notInitialized }
        lock()
        if let recorded = seen?.parameters(forSalt: header.salt), recorded != header.parameters {
            // Limits change only with a new salt (setUp, passwd): these were edited in the file.
            throw VaultError.headerChanged(
                "its key-derivation limits were changed from \(recorded) to \(header.parameters)"
                    + " without a new salt"
            )
        }
        var opened = try Vault.unlock(passphrase: passphrase, header: header)
        var findings: [String] = []
        do {
            switch header.format {
            case VaultHeader.currentFormat:
                try verifyHeader(header, vault: opened)
                do {
                    try verifyManifest(vault: opened)
                    if !acceptingRollback, let rollback = try seenRollback(vault: opened) {
                        throw StashError.rolledBack(rollback)
                    }
                } catch StashError.changedBehindTheAppsBack(let found) {
                    guard toleratingChanges else { throw StashError.changedBehindTheAppsBack(found) }
                    findings = found
                }
            case 1, 2:
                guard header.format == 2 || isFirstVersionPending else {
                    throw StashError.unsealedFormatNotFromFirstVersion
                }
                opened = try migrate(from: header.format, with: opened)
            case ...0:
                throw StashError.unsealedFormatNotFromFirstVersion
            default:
                try verifyHeader(header, vault: opened)  // a format number raised behind the app's back is tampering
                throw StashError.newerFormat(header.format)
            }
        } catch {
            opened.close()
            throw error
        }
        vault = opened
        if findings.isEmpty { rememberSeen(acceptingRollback: acceptingRollback) }
        return findings
    }

    /// Format 1 or 2 → 3: every value re-sealed, the header and the manifest
    /// written, in one transaction; returns the vault with the format-3 header.
    private func migrate(from format: Int, with old: Vault) throws -> Vault {
        try upgradeSchemaOfFirstVersion()
        let upgraded = old.upgradedToCurrentFormat()
        do {
            try store.database.transaction {
                try resealValues(from: format, opening: old, sealing: upgraded)
                try writeHeader(upgraded.header, vault: upgraded)
                try writeManifest(vault: upgraded)
            }
        } catch {
            upgraded.close()
            throw error
        }
        old.close()
        context = ObjectContext(store: store)
        // The plaintext (or the old ciphertexts) must not stay behind in the write-ahead log.
        _ = try? store.database.query("PRAGMA wal_checkpoint(TRUNCATE)")
        return upgraded
    }

    /// A first-version file (opened read-only with its own model) gets the current schema now, in this process.
    private func upgradeSchemaOfFirstVersion() throws {
        guard isFirstVersionPending else { return }
        store = try Store(path: path, model: StashModel.model)
        try store.database.execute("PRAGMA secure_delete = ON")
        StashLocation.tightenPermissions(path: path)
        isFirstVersionPending = false
        context = ObjectContext(store: store)
    }

    /// Opens every sealed value as format `format` wrote it and seals it
    /// again in format 3 at revision 1 (in the caller's transaction).
    ///
    /// A value that does not open (a damaged ciphertext) is kept as it is:
    /// it stays unreadable, reported as damaged. Plaintext is adopted only
    /// in format 1 (the caller checked that this process upgraded the file),
    /// and only in the columns that version kept in plaintext; anywhere else
    /// it is tampering.
    private func resealValues(from format: Int, opening old: Vault, sealing new: Vault) throws {
        for kind in StashKind.allCases {
            let fields = kind.sealedFields
            let columns = fields.map { snakeCase($0.key) }
            for row in try store.database.query(
                "SELECT id, uid, \(kind.nameKey), \(columns.joined(separator: ", ")) FROM \(kind.table) ORDER BY id"
            ) {
                let uid = row[1].string ?? ""
                let name = row[2].string ?? ""
                var values: [StoreValue] = []
                for (index, field) in fields.enumerated() {
                    let value = row[3 + index]
                    var plain: [UInt8]
                    switch value {
                    case .null:
                        plain = []
                    case .text(let text) where format == 1 && field != .password:
                        plain = Array(text.utf8)
                    case .blob(let sealed):
                        let identity =
                            format == 1
                            ? "\(StashModel.password):\(uid)" : field.formatTwoAssociatedData(uid: uid, name: name)
                        guard let opened = try? old.openLegacy(sealed, identity: identity) else {
                            values.append(value)  // damaged: kept as it is, unreadable
                            continue
                        }
                        plain = opened
                    default:
                        throw StashError.tampered(kind: kind.entryWord, name: name, fields: [field.label])
                    }
                    defer { Sodium.wipe(&plain) }
                    let identity = field.associatedData(uid: uid, name: name, revision: 1)
                    values.append(.blob(try new.seal(plain, identity: identity, largeBlocks: field.usesLargeBlocks)))
                }
                try store.database.run(
                    "UPDATE \(kind.table) SET revision = 1, "
                        + columns.map { "\($0) = ?" }.joined(separator: ", ") + " WHERE id = ?",
                    values + [row[0]]
                )
            }
        }
    }

    /// Wipes the key from memory.
    package func lock() {
        vault?.close()
        vault = nil
    }

    /// Replaces the master passphrase: a new salt and key, and every sealed
    /// field re-sealed, all in one transaction (a failure, such as an entry
    /// that was tampered with, changes nothing). Returns the entries left as
    /// they were (`skippingDamaged` only).
    ///
    /// With `skippingDamaged`, a field that does not open is left as it is
    /// (unreadable, as it was) instead of failing, and the manifest is
    /// written for the entries as they are. Afterwards `context` is a new
    /// context (the old one's undo history may hold ciphertexts sealed under
    /// the old key and must not be replayed).
    @discardableResult
    package func changePassphrase(
        to passphrase: SecureBytes,
        parameters: KDFParameters? = nil,
        skippingDamaged: Bool = false
    ) throws -> [String] {
        let old = try currentVault()
        let (newVault, header) = try Vault.create(
            passphrase: passphrase,
            parameters: parameters ?? old.header.parameters
        )
        var damaged: [String] = []
        do {
            try store.database.transaction {
                if !skippingDamaged { try verifyManifest(vault: old) }
                for kind in StashKind.allCases {
                    damaged += try reseal(kind, opening: old, sealing: newVault, skippingDamaged: skippingDamaged)
                }
                try writeHeader(header, vault: newVault)
                try writeManifest(vault: newVault)
            }
        } catch {
            newVault.close()
            throw error
        }
        old.close()
        vault = newVault
        context = ObjectContext(store: store)
        rememberSeen(formerSalt: old.header.salt)
        return damaged
    }

    /// Re-seals every field of the entries of `kind` under `new`; the names of the entries left as they were.
    private func reseal(
        _ kind: StashKind,
        opening old: Vault,
        sealing new: Vault,
        skippingDamaged: Bool
    ) throws
        -> [String]
    {
        let fields = kind.sealedFields
        let columns = fields.map { snakeCase($0.key) }
        var damaged: [String] = []
        for row in try store.database.query(
            "SELECT id, uid, \(kind.nameKey), revision, \(columns.joined(separator: ", ")) FROM \(kind.table) ORDER BY id"
        ) {
            let uid = row[1].string ?? ""
            let name = row[2].string ?? ""
            let revision = row[3].int64 ?? 0
            var values: [StoreValue] = []
            var unreadable: [SealedField] = []
            for (index, field) in fields.enumerated() {
                let identity = field.associatedData(uid: uid, name: name, revision: revision)
                guard case .blob(let sealed) = row[4 + index], var plain = try? old.open(sealed, identity: identity)
                else {
                    unreadable.append(field)
                    values.append(row[4 + index])
                    continue
                }
                defer { Sodium.wipe(&plain) }
                values.append(.blob(try new.seal(plain, identity: identity, largeBlocks: field.usesLargeBlocks)))
            }
            if !unreadable.isEmpty {
                guard skippingDamaged else {
                    throw StashError.tampered(kind: kind.entryWord, name: name, fields: unreadable.map(\.label))
                }
                damaged.append("the \(kind.entryWord) “\(name)” (\(unreadable.map(\.label).joined(separator: ", ")))")
            }
            try store.database.run(
                "UPDATE \(kind.table) SET " + columns.map { "\($0) = ?" }.joined(separator: ", ") + " WHERE id = ?",
                values + [row[0]]
            )
        }
        return damaged
    }

    /// The entries with fields that do not open under the current key, each
    /// as "the password entry “Bank” (password)": what `changePassphrase(…skippingDamaged: true)` would leave.
    func unreadableEntries() throws -> [String] {
        let vault = try currentVault()
        var found: [String] = []
        for kind in StashKind.allCases {
            let fields = kind.sealedFields
            let columns = fields.map { snakeCase($0.key) }
            for row in try store.database.query(
                "SELECT uid, \(kind.nameKey), revision, \(columns.joined(separator: ", ")) FROM \(kind.table) ORDER BY id"
            ) {
                let name = row[1].string ?? ""
                let unreadable = fields.enumerated().filter { index, field in
                    let identity = field.associatedData(
                        uid: row[0].string ?? "",
                        name: name,
                        revision: row[2].int64 ?? 0
                    )
                    guard case .blob(let sealed) = row[3 + index],
                        var plain = try? vault.open(sealed, identity: identity)
                    else { return true }
                    Sodium.wipe(&plain)
                    return false
                }.map(\.element.label)
                if !unreadable.isEmpty {
                    found.append("the \(kind.entryWord) “\(name)” (\(unreadable.joined(separator: ", ")))")
                }
            }
        }
        return found
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

    // MARK: - The authenticated header and manifest

    /// Writes `header` (format 3) and its MAC into the one row of `vault_info`.
    private func writeHeader(_ header: VaultHeader, vault: Vault) throws {
        try store.database.run(
            "UPDATE vault_info SET salt = ?, ops_limit = ?, mem_limit = ?, algorithm = ?, verifier = ?, changed = ?,"
                + " sealing = ?, header_mac = ?",
            [
                .blob(header.salt), .integer(Int64(clamping: header.parameters.opsLimit)),
                .integer(Int64(clamping: header.parameters.memLimit)), .integer(Int64(header.parameters.algorithm)),
                .blob(header.verifier), .text(StoreDate.dateTimeText(from: Date())), .integer(Int64(header.format)),
                .blob(try vault.mac(header.authenticatedBytes, purpose: .header)),
            ]
        )
    }

    /// Throws `VaultError.headerChanged` unless the stored header MAC is the one of `header`.
    private func verifyHeader(_ header: VaultHeader, vault: Vault) throws {
        guard
            case .blob(let stored) = try store.database.scalar("SELECT header_mac FROM vault_info ORDER BY id LIMIT 1"),
            try vault.verify(stored, of: header.authenticatedBytes, purpose: .header)
        else { throw VaultError.headerChanged("its format, salt or limits do not match their MAC") }
    }

    /// The bytes the manifest MAC covers: the generation and the manifest.
    static func manifestMessage(generation: Int64, manifest: [UInt8]) -> [UInt8] {
        Array("mystash manifest generation \(generation)\n".utf8) + manifest
    }

    /// Throws `StashError.changedBehindTheAppsBack`, naming what changed,
    /// unless the rows match the stored, authenticated manifest.
    func verifyManifest(vault: Vault) throws {
        let rows = try store.database.query(
            "SELECT generation, manifest, manifest_mac FROM vault_info ORDER BY id LIMIT 1"
        )
        guard let row = rows.first, let generation = row[0].int64, case .blob(let manifest) = row[1],
            case .blob(let tag) = row[2]
        else { throw StashError.changedBehindTheAppsBack(["the manifest of the entries is missing"]) }
        guard
            try vault.verify(
                tag,
                of: Stash.manifestMessage(generation: generation, manifest: manifest),
                purpose: .manifest
            )
        else {
            throw StashError.changedBehindTheAppsBack(["the manifest of the entries does not match its MAC"])
        }
        try verifySchema()
        if try rowsMatch(manifest) { return }
        let stored = try StashManifest(decoding: manifest)
        let current = try StashManifest.read(from: store.database)
        var found = current.differences(from: stored)
        // The rows counted apart from the scan (SQLite may count through an index): a count the
        // entries found do not explain is a finding of its own.
        for kind in StashKind.allCases {
            let rows = try store.database.scalar("SELECT count(*) FROM \(kind.table)").int64 ?? -1
            if rows != Int64(current.count(of: kind)) || (found.isEmpty && rows != Int64(stored.count(of: kind))) {
                found.insert(
                    "the stash holds \(rows) \(kind.entriesWord), its manifest \(stored.count(of: kind))",
                    at: 0
                )
            }
        }
        if !found.isEmpty { throw StashError.changedBehindTheAppsBack(found) }
    }

    /// Whether the rows encode to exactly the stored (authenticated) `manifest`, and SQLite counts
    /// as many rows as were read: the stash as it was saved. Else the slower comparison names
    /// what changed.
    private func rowsMatch(_ manifest: [UInt8]) throws -> Bool {
        let (bytes, rows) = try StashManifest.encodedRows(from: store.database)
        guard bytes == manifest else { return false }
        for kind in StashKind.allCases {
            let counted = try store.database.scalar("SELECT count(*) FROM \(kind.table)").int64 ?? -1
            if counted != Int64(rows[kind] ?? -1) { return false }
        }
        return true
    }

    /// Throws `StashError.changedBehindTheAppsBack` unless each kind of entry has its unique index
    /// on `uid`: without it, an older copy of an entry can be put back beside it.
    func verifySchema() throws {
        let missing = try StashKind.allCases.filter { !(try store.enforcesUniqueKey(["uid"], of: $0.entity)) }
        guard missing.isEmpty else {
            throw StashError.changedBehindTheAppsBack(
                missing.map { "the unique index on the \($0.entriesWord)' uid is missing (dropped?)" }
            )
        }
    }

    /// Writes the manifest of the rows as they are, at the next generation, with its MAC; never
    /// for a stash without its unique indexes or with two rows of one uid.
    private func writeManifest(vault: Vault) throws {
        try verifySchema()
        let generation =
            (try store.database.scalar("SELECT generation FROM vault_info ORDER BY id LIMIT 1").int64 ?? 0) + 1
        let manifest = try StashManifest.encodedRows(from: store.database).bytes
        try store.database.run(
            "UPDATE vault_info SET generation = ?, manifest = ?, manifest_mac = ?",
            [
                .integer(generation), .blob(manifest),
                .blob(
                    try vault.mac(Stash.manifestMessage(generation: generation, manifest: manifest), purpose: .manifest)
                ),
            ]
        )
    }

    /// Makes the manifest part of every transaction in which a context writes the store — a
    /// save, an undo, a redo, whoever makes it (a form, the list screen's delete, `u`, an
    /// import): the stored manifest is checked against the rows before the write (a stash
    /// changed behind the app's back is not saved over) and the next one written after it, in
    /// the same transaction. Locked, every such write is refused (`StashError.locked`).
    func installManifestHook() {
        store.saveHook = SaveHook(
            willWrite: { [weak self] _, _ in
                guard let self else { throw StashError.locked }
                let vault = try self.currentVault()
                try self.verifyManifest(vault: vault)
                // Nor over a file put back from an older copy while the app was open.
                if let rollback = try self.seenRollback(vault: vault) { throw StashError.rolledBack(rollback) }
            },
            didWrite: { [weak self] _, _ in
                guard let self else { throw StashError.locked }
                try self.writeManifest(vault: try self.currentVault())
            }
        )
    }
}

extension Vault {
    /// The same key with a format-3 header (its verifier made for format 3): the migration's result.
    func upgradedToCurrentFormat() -> Vault {
        copy(withFormat: VaultHeader.currentFormat)
    }
}
