/// The identity of a stored object: its entity and row id.
///
/// Objects inserted but not yet saved have a temporary, negative row id; after
/// `save()` the object's ``ManagedObject/objectID`` is the permanent one, and
/// change sets only ever carry permanent IDs.
///
///     let id = ObjectID(entity: "FailedBankInfo", rowID: 12)
///     id.description // "FailedBankInfo/12"
public struct ObjectID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let entity: String
    public let rowID: Int64

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
