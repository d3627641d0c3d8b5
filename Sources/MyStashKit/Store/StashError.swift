/// Failures of the stash (the store of notes and passwords) above the vault.
///
///     catch StashError.locked { print("unlock the stash first") }
package enum StashError: Error, Equatable, CustomStringConvertible {
    /// The store file or its directory cannot be created.
    case cannotCreate(path: String, reason: String)
    /// The store does not exist (for commands that only read).
    case noStore(path: String)
    /// A secret was needed but the vault is not unlocked.
    case locked
    /// `setUp` on a store that already has a master passphrase.
    case alreadyInitialized
    /// `unlock` on a store that has no master passphrase yet.
    case notInitialized
    /// A required field is empty (entity and key name it).
    case emptyField(entity: String, key: String)
    /// The two entries of a new passphrase differ.
    case passphrasesDiffer
    /// Another process changed the master passphrase while this one was unlocked.
    case passphraseChangedElsewhere
    /// Sealed fields of an entry do not open under the right key: their bytes,
    /// or the name or row they are bound to, were changed behind the app's back.
    case tampered(kind: String, name: String, fields: [String])
    /// A password history that does not decode.
    case malformedHistory
    /// No entry has this name.
    case noEntry(name: String)
    /// Several entries share the name (`--user` picks one).
    case ambiguousName(name: String, count: Int)
    /// The entry has no TOTP secret.
    case noTOTP(name: String)
    /// The entries do not match the authenticated manifest: each string says
    /// what was found changed ("the password entry “Bank” was deleted").
    case changedBehindTheAppsBack([String])
    /// The header says the values are not sealed yet (the first version's
    /// format), but this process did not upgrade the file from the first
    /// version: the flag was set behind the app's back.
    case unsealedFormatNotFromFirstVersion
    /// The stash was written by a newer mystash (its format is unknown here).
    case newerFormat(Int)
    /// Entries that could not be re-sealed by `changePassphrase(skippingDamaged:)`.
    case damagedEntries([String])
    /// Another program saved (or deleted) the entry since the editor loaded it: the save was refused.
    case changedElsewhere(kind: String, name: String, deleted: Bool)
    /// The stash is at a lower generation than this machine last saw, or at the same one with
    /// other contents: put back from an older copy (`SeenStashes`).
    case rolledBack(SeenStashes.Rollback)

    package var description: String {
        switch self {
        case .cannotCreate(let path, let reason): return "cannot create \(path): \(reason)"
        case .noStore(let path): return "no stash at \(path)"
        case .locked: return "the stash is locked"
        case .alreadyInitialized: return "the stash already has a master passphrase"
        case .notInitialized: return "the stash has no master passphrase yet"
        case .emptyField(let entity, let key): return "\(entity): \(key) must not be empty"
        case .passphrasesDiffer: return "the passphrases do not match"
        case .passphraseChangedElsewhere: return "the master passphrase was changed by another process; restart mystash"
        case .tampered(let kind, let name, let fields):
            return
                "the \(kind) “\(name)” has been tampered with or damaged (its \(fields.joined(separator: ", ")) cannot be decrypted)"
        case .malformedHistory: return "the password history is malformed"
        case .noEntry(let name): return "no entry named “\(name)”"
        case .ambiguousName(let name, let count): return "\(count) entries are named “\(name)”; choose one with --user"
        case .noTOTP(let name): return "“\(name)” has no TOTP secret"
        case .changedBehindTheAppsBack(let findings):
            return "the stash was changed behind mystash's back: \(findings.joined(separator: "; "))"
                + "; nothing was opened or sealed (restore it from a backup you trust)"
        case .unsealedFormatNotFromFirstVersion:
            return "the stash's header was changed behind mystash's back (its format was set to 1, values not yet"
                + " sealed, but this file was not upgraded from the first version by this run); nothing was sealed"
        case .newerFormat(let format): return "the stash is in format \(format), made by a newer mystash"
        case .damagedEntries(let names):
            return "these entries do not open and were left as they were: \(names.joined(separator: ", "))"
        case .rolledBack(let rollback): return "\(rollback); nothing was opened"
        case .changedElsewhere(let kind, let name, let deleted):
            return deleted
                ? "the \(kind) “\(name)” was deleted by another program since you opened it; nothing was saved"
                : "the \(kind) “\(name)” was changed by another program since you opened it; nothing was saved"
        }
    }
}
