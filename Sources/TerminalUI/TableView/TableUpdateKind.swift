/// The kind of one operation in a batch update, named in `TableViewError`s.
///
///     if case .duplicateOperation(let kind, let other, _, _) = error {
///         print(kind, other)   // e.g. deleteRow reloadRow
///     }
public enum TableUpdateKind: String, Hashable, Sendable {
    /// Row operations (a move is named by its source or its destination).
    case insertRow, deleteRow, reloadRow, moveRowSource, moveRowDestination
    /// Section operations.
    case insertSection, deleteSection, reloadSection

    /// Whether the operation's index is in the coordinates after the update
    /// (inserts and move destinations) rather than before it.
    public var usesNewCoordinates: Bool {
        switch self {
        case .insertRow, .moveRowDestination, .insertSection: return true
        default: return false
        }
    }

    var phrase: String {
        switch self {
        case .insertRow: return "insert row"
        case .deleteRow: return "delete row"
        case .reloadRow: return "reload row"
        case .moveRowSource: return "move row"
        case .moveRowDestination: return "move a row to row"
        case .insertSection: return "insert section"
        case .deleteSection: return "delete section"
        case .reloadSection: return "reload section"
        }
    }

    var noun: String {
        switch self {
        case .insertRow, .insertSection: return "an insert"
        case .deleteRow, .deleteSection: return "a delete"
        case .reloadRow, .reloadSection: return "a reload"
        case .moveRowSource, .moveRowDestination: return "a move"
        }
    }
}
