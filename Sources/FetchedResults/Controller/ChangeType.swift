/// The kind of a change reported in a ``ChangeBatch`` and to the delegate.
public enum ChangeType: String, Sendable, Hashable, CaseIterable {
    case insert
    case delete
    case move
    case update
}
