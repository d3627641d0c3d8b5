/// Why a change feed was not installed.
///
///     do { try feed.install(on: connection) } catch let error as ChangeFeedError { print(error) }
public enum ChangeFeedError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An object the feed would use — the history table, its registry of tracked tables,
    /// or one of their functions — belongs to another role. The feed refuses it: the
    /// owner of what the triggers run could run its own code in the name of every role
    /// that writes a tracked table. `object` names it (`the table public.changefeed_history`).
    case ownedByAnotherRole(object: String, owner: String)

    /// The sentence a person reads.
    public var description: String {
        switch self {
        case .ownedByAnotherRole(let object, let owner):
            "\(object) belongs to the role \(owner), not to this one; the change history is not installed "
                + "over another role's objects (\(owner) can install it, or drop \(object))"
        }
    }
}
