/// What one save (or one batch of another process's writes) changed.
///
/// Published to a context's observers after each `save()`, `undo()`, `redo()`
/// and by `processExternalChanges()`. Updates carry the changed keys; a change
/// of a related object reached through a to-one relationship appears as an
/// update of the referencing object with a key path (`"details.publishedOn"`).
/// An empty key set means "unknown keys" (another process's write).
/// `isReset` means "too much changed to describe: refetch".
///
///     context.addObserver { changes in
///         if changes.isReset { try? controller.performFetch(); return }
///         for id in changes.deleted { … }
///     }
public struct ChangeSet: Sendable, Equatable, CustomStringConvertible {
    /// Objects created (permanent IDs).
    public var inserted: Set<ObjectID>
    /// Objects changed, with the keys (and key paths through to-one relationships) that changed; an empty set means the keys are unknown (another process's write).
    public var updated: [ObjectID: Set<String>]
    /// Objects removed (including those removed by a cascade).
    public var deleted: Set<ObjectID>
    /// Too much changed to describe (a bulk write, or history pruned past the reader): refetch.
    public var isReset: Bool
    /// True when the changes were written by another process or connection (``ObjectContext/processExternalChanges()``), false for this context's own saves.
    public var isFromOtherProcess: Bool
    /// The rows the save wrote, as committed (empty for another process's writes): lets a
    /// reader of this change set skip reading them again. Not part of equality.
    package var writtenRows = WrittenRows()

    /// A change set (contexts make the real ones; tests and drivers may build their own).
    public init(
        inserted: Set<ObjectID> = [],
        updated: [ObjectID: Set<String>] = [:],
        deleted: Set<ObjectID> = [],
        isReset: Bool = false,
        isFromOtherProcess: Bool = false
    ) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.isReset = isReset
        self.isFromOtherProcess = isFromOtherProcess
    }

    /// Two change sets are equal when they report the same changes (the rows a save wrote aside).
    public static func == (a: ChangeSet, b: ChangeSet) -> Bool {
        a.inserted == b.inserted && a.updated == b.updated && a.deleted == b.deleted && a.isReset == b.isReset
            && a.isFromOtherProcess == b.isFromOtherProcess
    }

    /// True when nothing changed and no reset is requested.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && !isReset }

    public var description: String {
        var parts: [String] = []
        if isReset { parts.append("reset") }
        if !inserted.isEmpty {
            parts.append("inserted " + inserted.sorted().map(\.description).joined(separator: ", "))
        }
        if !updated.isEmpty {
            parts.append(
                "updated "
                    + updated.keys.sorted().map {
                        "\($0)\(updated[$0]!.isEmpty ? "" : "[" + updated[$0]!.sorted().joined(separator: ",") + "]")"
                    }.joined(separator: ", ")
            )
        }
        if !deleted.isEmpty { parts.append("deleted " + deleted.sorted().map(\.description).joined(separator: ", ")) }
        return "ChangeSet(" + (isFromOtherProcess ? "other process; " : "") + parts.joined(separator: "; ") + ")"
    }

    /// Adds keys to an update (creating it), unless the object was inserted or deleted in this set.
    mutating func addUpdate(_ id: ObjectID, keys: some Sequence<String>) {
        if inserted.contains(id) || deleted.contains(id) { return }
        updated[id, default: []].formUnion(keys)
    }
}

/// Identifies an observer registration, for ``ObjectContext/removeObserver(_:)``.
public struct ObserverToken: Hashable, Sendable {
    let id: Int
}
