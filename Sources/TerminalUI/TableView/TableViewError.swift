/// A batch update that does not match the data source, found by `endUpdates`.
///
/// Why it exists: UIKit crashes on an inconsistent batch; we throw, the table
/// reloads itself so it stays consistent, and the caller logs the message.
/// The cases carry the counts; `description` reads like UIKit's exception.
///
///     do { try tableView.endUpdates() }
///     catch { log.write("\(error)") }   // the table has already reloaded
public enum TableViewError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A section that exists before and after the update has the wrong number of rows
    /// (`after != before − deleted − movedOut + inserted + movedIn`). `section` is the
    /// index after the update. Moves within one section are not counted.
    case invalidRowCount(
        section: Int,
        before: Int,
        after: Int,
        inserted: Int,
        deleted: Int,
        movedIn: Int,
        movedOut: Int
    )
    /// The number of sections is wrong (`after != before − deleted + inserted`).
    case invalidSectionCount(before: Int, after: Int, inserted: Int, deleted: Int)
    /// An operation names a section or row that does not exist (in the old
    /// coordinates for deletes, reloads and move sources; the new ones for inserts
    /// and move destinations). `row` is `nil` for section operations; `rowCount` is
    /// `nil` when the section itself is out of range.
    case indexOutOfRange(kind: TableUpdateKind, section: Int, row: Int?, sectionCount: Int, rowCount: Int?)
    /// Two operations of one batch touch the same row or section (e.g. a row deleted
    /// twice, or deleted and reloaded, or two inserts at one index path).
    case duplicateOperation(kind: TableUpdateKind, conflictsWith: TableUpdateKind, section: Int, row: Int?)
    /// `endUpdates` without a matching `beginUpdates`.
    case endUpdatesWithoutBeginUpdates

    public var description: String {
        switch self {
        case let .invalidRowCount(section, before, after, inserted, deleted, movedIn, movedOut):
            return
                "Invalid update: invalid number of rows in section \(section). The number of rows contained in an existing section after the update (\(after)) must be equal to the number of rows contained in that section before the update (\(before)), plus or minus the number of rows inserted or deleted from that section (\(inserted) inserted, \(deleted) deleted) and plus or minus the number of rows moved into or out of that section (\(movedIn) moved in, \(movedOut) moved out)."
        case let .invalidSectionCount(before, after, inserted, deleted):
            return
                "Invalid update: invalid number of sections. The number of sections contained in the table view after the update (\(after)) must be equal to the number of sections contained in the table view before the update (\(before)), plus or minus the number of sections inserted or deleted (\(inserted) inserted, \(deleted) deleted)."
        case let .indexOutOfRange(kind, section, row, sectionCount, rowCount):
            let when = kind.usesNewCoordinates ? "after" : "before"
            if let row {
                if let rowCount {
                    return
                        "Invalid update: attempt to \(kind.phrase) \(row) \(kind.usesNewCoordinates ? "into" : "from") section \(section), which only contains \(rowCount) rows \(when) the update."
                }
                return
                    "Invalid update: attempt to \(kind.phrase) \(row) \(kind.usesNewCoordinates ? "into" : "from") section \(section), but there are only \(sectionCount) sections \(when) the update."
            }
            return
                "Invalid update: attempt to \(kind.phrase) \(section), but there are only \(sectionCount) sections \(when) the update."
        case let .duplicateOperation(kind, other, section, row):
            let place = row.map { "row \($0) in section \(section)" } ?? "section \(section)"
            if kind == other {
                return "Invalid update: attempt to perform \(kind.noun) more than once for the same index (\(place))."
            }
            return "Invalid update: attempt to perform \(kind.noun) and \(other.noun) for the same index (\(place))."
        case .endUpdatesWithoutBeginUpdates:
            return "Invalid update: endUpdates() called without a matching beginUpdates()."
        }
    }
}
