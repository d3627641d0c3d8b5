/// The fields of one password entry as a person edits them (plaintext).
///
/// Lives only in memory, in the form; the stash seals every field but the
/// name before it reaches the store (see `SealedField`).
///
///     var entry = PasswordEntry(name: "Bank", userID: "me@example.com", password: PasswordGenerator().generate())
///     entry.url = "https://bank.example"
///     let object = try stash.addPassword(entry)
package struct PasswordEntry: Hashable, Sendable {
    /// What the entry is for ("Bank"); required, shown in the list.
    package var name: String
    /// The login name; shown in the list (after unlocking).
    package var userID: String
    /// The secret, in clear: sealed before it reaches the store, never listed.
    package var password: String
    /// Where it is used; nil or empty for none.
    package var url: String?
    /// Free text; nil or empty for none.
    package var notes: String?
    /// A TOTP secret (base32, or an `otpauth://totp/…` URI); nil or empty for none.
    package var totp: String?
    /// The passwords this entry had before, newest first (kept by the stash when the password changes).
    package var history: PasswordHistory

    package init(
        name: String,
        userID: String = "",
        password: String = "",
        url: String? = nil,
        notes: String? = nil,
        totp: String? = nil,
        history: PasswordHistory = PasswordHistory()
    ) {
        self.name = name
        self.userID = userID
        self.password = password
        self.url = url
        self.notes = notes
        self.totp = totp
        self.history = history
    }
}
