import SQLiteStore

/// One batch of changes to a ``GroupedResultsController``'s groups, as a value: the
/// rows of a table of groups (one section, a row per group, most rows first) that were
/// inserted, deleted, moved or updated.
///
/// The rules of a ``ChangeBatch`` hold (<doc:ChangeBatches>): deletes and move sources
/// use the **old** rows, inserts and move destinations the **new** ones, updates carry
/// both; no group appears twice; a group whose count changed but whose place among the
/// others did not is an update, never a move to itself. Applying the batch to the old
/// groups — remove the deleted groups and the move sources; insert the inserted groups
/// and the move destinations in ascending order — gives exactly the new groups.
///
///     grouped.onChange = { batch in
///         for change in batch.changes { print(change.change, change.value, change.from as Any, change.to as Any) }
///         print(batch.numberOfGroups, "groups,", batch.totalCount, "rows")
///     }
public struct GroupChangeBatch: Sendable, Equatable {
    /// A group inserted (`to`), deleted (`from`), moved or updated (both).
    public struct Change: Sendable, Hashable {
        /// `.insert` (the value's first row), `.delete` (its last row went), `.move` or `.update` (its count changed).
        public var change: ChangeType
        /// The group's value.
        public var value: StoreValue
        /// The group's row before the batch (delete, move, update).
        public var from: Int?
        /// The group's row after the batch (insert, move, update).
        public var to: Int?

        /// A change (tests and code that build batches by hand).
        public init(change: ChangeType, value: StoreValue, from: Int?, to: Int?) {
            self.change = change
            self.value = value
            self.from = from
            self.to = to
        }
    }

    /// Deletes (ascending old row), inserts (ascending new row), moves (ascending new row), then updates.
    public var changes: [Change]
    /// The groups after the batch.
    public var numberOfGroups: Int
    /// The rows counted after the batch (the sum of the groups' counts).
    public var totalCount: Int
    /// True when the batch comes from counting again after the store reported a reset.
    public var isReset: Bool

    /// A batch (tests and code that build batches by hand; the controller makes the real ones).
    public init(changes: [Change] = [], numberOfGroups: Int = 0, totalCount: Int = 0, isReset: Bool = false) {
        self.changes = changes
        self.numberOfGroups = numberOfGroups
        self.totalCount = totalCount
        self.isReset = isReset
    }

    /// True when no group changed.
    public var isEmpty: Bool { changes.isEmpty }
}

/// One group of a ``GroupedResultsController``: a value of its key path and the rows that hold it.
///
///     let top = grouped.group(at: 0)
///     print(top.value, top.count)   // text("CA") 37
public struct GroupInfo: Sendable, Hashable {
    /// The value (NULL for the rows without one).
    public var value: StoreValue
    /// The rows holding it.
    public var count: Int

    /// A group of `count` rows holding `value`.
    public init(value: StoreValue, count: Int) {
        self.value = value
        self.count = count
    }
}
