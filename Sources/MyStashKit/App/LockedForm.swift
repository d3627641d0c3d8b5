import Foundation
import TerminalUI

/// An open form while the app is locked: its values (the edits not yet saved,
/// and the values it was opened with) sealed under the vault's key just before
/// the key is wiped, the form itself emptied. Unlocking opens them again and
/// puts them back, so the person returns to the form as they left it, while
/// no plaintext of it stays in the form meanwhile.
///
///     let locked = try LockedForm(taking: editor.form, vault: vault)   // the form is empty now
///     // … locked; unlocked again …
///     try locked.restore(into: editor.form, vault: stash.vault!)
struct LockedForm {
    /// The ciphertext of the form's values (JSON of `[current, initial]`).
    private let sealed: [UInt8]

    /// What the seal is bound to: it opens for nothing else.
    static let identity = "open form while locked"

    /// Takes `form`'s values (leaving every field wiped) and seals them with `vault`.
    init(taking form: Form, vault: Vault) throws {
        let taken = form.takeValues()
        var plaintext = [UInt8](try JSONEncoder().encode([taken.current, taken.initial]))
        defer { Sodium.wipe(&plaintext) }
        sealed = try vault.seal(plaintext, identity: LockedForm.identity)
    }

    /// Opens the values with `vault` (the key of the same passphrase) and puts them back into `form`.
    func restore(into form: Form, vault: Vault) throws {
        var plaintext = try vault.open(sealed, identity: LockedForm.identity)
        defer { Sodium.wipe(&plaintext) }
        let values = try JSONDecoder().decode([[String]].self, from: Data(plaintext))
        guard values.count == 2 else { throw VaultError.cannotOpen(identity: LockedForm.identity) }
        form.restoreValues((values[0], values[1]))
    }
}
