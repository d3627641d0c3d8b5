import PostgreSQLReplica

/// The changes a browser made on a server table, for `u` and Ctrl-R: each named as the status
/// line names it ("Edited price of “pen”"), with what undoes it there. Undoing a change gives
/// the change that redoes it, and the other way round.
typealias PostgresChanges = ServerChanges<PostgresChange>

/// Changes made on a server, for `u` and Ctrl-R (a table copy's, ``PostgresChanges``; a query
/// result's, ``PostgresQueryWrites/Change``): two stacks of named changes.
struct ServerChanges<Change: Sendable> {
    /// Which stack a key works on.
    enum Direction { case undo, redo }

    private var undone: [(name: String, change: Change)] = []
    private var done: [(name: String, change: Change)] = []

    /// A new change made (`u` undoes it); what was undone can no longer be redone.
    mutating func did(_ name: String, _ change: Change) {
        done.append((name, change))
        undone.removeAll()
    }

    /// The newest change of `direction`'s stack, taken off it.
    mutating func take(_ direction: Direction) -> (name: String, change: Change)? {
        direction == .undo ? done.popLast() : undone.popLast()
    }

    /// The change taken for `direction` was inverted: `inverse` goes on the other stack.
    mutating func stepped(_ direction: Direction, _ name: String, _ inverse: Change) {
        if direction == .undo { undone.append((name, inverse)) } else { done.append((name, inverse)) }
    }

    /// The change taken for `direction` could not be inverted (the server out of reach): it
    /// stays, to try again.
    mutating func putBack(_ direction: Direction, _ change: (name: String, change: Change)) {
        if direction == .undo { done.append(change) } else { undone.append(change) }
    }
}

/// One change on the server, as what inverting it takes.
enum PostgresChange: Sendable {
    /// Rows deleted (their values as they were): inverted by writing them back.
    case deleted([DeletedRow])
    /// Rows present that were added or written back (as the write left them): inverted by
    /// deleting them, only while they still hold that.
    case present([AddedRow])
    /// A cell written: inverted by writing its value before back, over the value it wrote only.
    case edited(EditedCell)

    /// Makes the inverse change on the server (on the requests' thread) and returns it.
    func inverted(on replica: PostgresReplica) throws -> PostgresChange {
        switch self {
        case .deleted(let rows):
            return .present(try replica.restore(rows))
        case .present(let added):
            let rows = try replica.delete(added)
            if rows.isEmpty { throw ReplicaError.conflict(reason: "another session deleted the row since") }
            return .deleted(rows)
        case .edited(let edit):
            return .edited(try replica.revert(edit))
        }
    }

    /// The rows it leaves in the table (to select), none for a delete.
    var rowIDs: [Int64] {
        switch self {
        case .deleted: []
        case .present(let rows): rows.map(\.rowID)
        case .edited(let edit): [edit.rowID]
        }
    }
}
