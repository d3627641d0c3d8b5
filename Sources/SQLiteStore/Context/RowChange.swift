/// One row's change as a change set is built from it (``ObjectContext``'s undo and redo).
///
/// `before`/`after` map column names to values; nil means the row does not
/// exist in that state. An update names only the columns that changed.
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
