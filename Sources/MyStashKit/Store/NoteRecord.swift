import SQLiteStore

/// A note as the stash file holds it (table `note`): the title in plaintext, the body sealed and
/// bound to the note (`SealedField.body`); the one declaration of the entity `Note`.
///
///     var note = try object.record(as: NoteRecord.self)
///     note.title = "Shopping"
///     try context.update(object, with: note)
package struct NoteRecord: SealedEntry, Codable, Equatable, Sendable {
    /// The attributes, by name.
    package enum CodingKeys: String, CodingKey { case uid, title, body, created, modified, revision }
    /// The attributes, for sorts, predicates and section keys.
    package typealias Columns = CodingKeys

    /// The entity `Note` of the current format (3): the title's initial is its section key.
    package static let entity = Entity(
        StashModel.note,
        attributes: [
            Attribute(Columns.uid.stringValue, .text),
            Attribute(Columns.title.stringValue, .text),
            Attribute(Columns.body.stringValue, .blob, optional: true),
            Attribute(Columns.created.stringValue, .dateTime),
            Attribute(Columns.modified.stringValue, .dateTime),
            Attribute(Columns.revision.stringValue, .integer, default: .integer(0)),
        ],
        derived: [.initial("titleInitial", of: Columns.title.stringValue)],
        uniqueKeys: [[Columns.uid.stringValue]]
    )

    package var uid: String
    package var title: String
    /// The sealed body.
    package var body: SealedValue
    /// Date-time text (`StoreDate.dateTimeText`), kept as the file holds it.
    package var created: String
    /// Date-time text of the last change, kept as the file holds it.
    package var modified: String
    package var revision: Int64

    var entryName: String { title }

    subscript(sealed field: SealedField) -> SealedValue {
        get { field == .body ? body : .none }
        set { if field == .body { body = newValue } }
    }
}
