/// The kind of a change reported in a ``ChangeBatch`` and to the delegate.
///
/// Deletes carry the old index path, inserts the new one, moves and updates both.
///
///     for change in batch.objectChanges where change.change == .move {
///         table.moveRow(at: change.from!, to: change.to!)
///     }
public enum ChangeType: String, Sendable, Hashable, CaseIterable {
    case insert
    case delete
    case move
    case update
}
