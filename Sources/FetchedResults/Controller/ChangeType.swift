/// The kind of a change reported in a ``ChangeBatch`` and to the delegate.
///
/// Deletes carry the old index path, inserts the new one, moves and updates both.
///
///     for change in batch.objectChanges where change.change == .move {
///         table.moveRow(at: change.from!, to: change.to!)
///     }
public enum ChangeType: String, Sendable, Hashable, CaseIterable {
    /// The object or section is new: only the new index path (or index) is set.
    case insert
    /// The object or section is gone: only the old index path (or index) is set.
    case delete
    /// The object changed place: from its old index path to its new one (possibly another section).
    case move
    /// The object changed but kept its place among the others: both index paths are set (they differ when rows before it came or went).
    case update
}
