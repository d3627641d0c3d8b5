/// One row's change within a save, as the undo and redo stacks keep it.
///
/// `before`/`after` map column names to values; nil means the row does not
/// exist in that state. Inserts keep the full row with its `id` so that undo of
/// a delete re-creates the row with the same row id.
struct RowChange {
    let entity: String
    let rowID: Int64
    var before: [String: StoreValue]?
    var after: [String: StoreValue]?
}

/// A weak slot of the identity map.
struct WeakObject {
    weak var object: ManagedObject?
}
