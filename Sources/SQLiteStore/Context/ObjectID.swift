/// The identity of a stored object: its entity and row id.
///
/// Objects inserted but not yet saved have a temporary, negative row id; after
/// `save()` the object's ``ManagedObject/objectID`` is the permanent one, and
/// change sets only ever carry permanent IDs.
///
///     let id = ObjectID(entity: "Book", rowID: 12)
///     id.description // "Book/12"
public struct ObjectID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The entity's name (`"Book"`).
    public let entity: String
    /// The row's `id` (negative while the object is unsaved).
    public let rowID: Int64

    /// The ID of row `rowID` of `entity`.
    public init(entity: String, rowID: Int64) {
        self.entity = entity
        self.rowID = rowID
    }

    /// True for an unsaved object's placeholder ID.
    public var isTemporary: Bool { rowID < 0 }

    public static func < (a: ObjectID, b: ObjectID) -> Bool {
        a.entity != b.entity ? a.entity < b.entity : a.rowID < b.rowID
    }

    public var description: String { "\(entity)/\(rowID)" }
}
