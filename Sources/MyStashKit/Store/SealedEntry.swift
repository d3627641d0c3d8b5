import SQLiteStore

/// A stash entry as the file holds it, a note or a password entry: its identity, the name and
/// revision its sealed fields are bound to, and those fields, still sealed (plaintext never
/// lives in a record: it is opened from it field by field, and wiped after use).
///
///     var note = try object.record(as: NoteRecord.self)
///     note[sealed: .body] = try stash.seal("milk", .body, of: note, vault: vault)
protocol SealedEntry: EntityRecord {
    /// The entry's random identity (`uid`): survives renames and undo.
    var uid: String { get }
    /// A note's title or a password entry's name: plaintext, bound into every sealed field.
    var entryName: String { get }
    /// Counts the entry's changes: its fields are sealed bound to it.
    var revision: Int64 { get set }
    /// A sealed field of the entry.
    subscript(sealed field: SealedField) -> SealedValue { get set }
}

extension SealedEntry {
    /// What the entry's sealed fields are bound to.
    var binding: Stash.EntryBinding { Stash.EntryBinding(uid: uid, name: entryName, revision: revision) }
}
