/// The fields of one password entry as a person edits them (plaintext).
///
/// Lives only in memory, in the form; the stash seals `password` before it
/// reaches the store.
///
///     var entry = PasswordEntry(name: "Bank", userID: "me@example.com", password: PasswordGenerator().generate())
///     entry.url = "https://bank.example"
///     let object = try stash.addPassword(entry)
public struct PasswordEntry: Hashable, Sendable {
    public var name: String
    public var userID: String
    public var password: String
    public var url: String?
    public var notes: String?

    public init(name: String, userID: String = "", password: String = "", url: String? = nil, notes: String? = nil) {
        self.name = name
        self.userID = userID
        self.password = password
        self.url = url
        self.notes = notes
    }
}
