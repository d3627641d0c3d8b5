import Foundation
import SQLiteStore

/// One batch of changes to a controller's results, as a value.
///
/// Delivered to ``FetchedResultsController/onChange`` (and, call by call, to
/// the delegate). It obeys rules 3 and 4 of <doc:ChangeBatches>: deletes and move
/// sources use the **old** index paths, inserts and move destinations the
/// **new** ones, updates carry both; no object appears twice; an object whose
/// position did not change is an update, never a move to itself. Applying it
/// to the old snapshot — remove deleted rows, move sources and deleted
/// sections; insert new sections in ascending order; insert inserted rows and
/// move destinations in ascending order — gives exactly the new results.
///
///     controller.onChange = { batch in
///         for s in batch.sectionChanges { print(s.change, s.index, s.name) }
///         for o in batch.objectChanges { print(o.change, o.id, o.from as Any, o.to as Any) }
///         print(batch.counts)   // rows per section after the batch
///     }
public struct ChangeBatch: Sendable, Equatable {
    /// A section inserted (at its new index) or deleted (at its old index).
    public struct SectionChange: Sendable, Hashable {
        /// `.insert` or `.delete` (the controller never moves or updates a section).
        public var change: ChangeType
        /// The section's index: before the batch for a delete, after it for an insert.
        public var index: Int
        /// The section's name (the section key's value as text).
        public var name: String

        /// A section change (tests and code that build batches by hand).
        public init(change: ChangeType, index: Int, name: String) {
            self.change = change
            self.index = index
            self.name = name
        }
    }

    /// An object inserted (`to`), deleted (`from`), moved or updated (both).
    public struct ObjectChange: Sendable, Hashable {
        /// `.insert`, `.delete`, `.move` or `.update`.
        public var change: ChangeType
        /// The object that changed.
        public var id: ObjectID
        /// The index path before the batch (delete, move, update).
        public var from: IndexPath?
        /// The index path after the batch (insert, move, update).
        public var to: IndexPath?

        /// An object change (tests and code that build batches by hand).
        public init(change: ChangeType, id: ObjectID, from: IndexPath?, to: IndexPath?) {
            self.change = change
            self.id = id
            self.from = from
            self.to = to
        }
    }

    /// Section deletes (ascending old index), then inserts (ascending new index).
    public var sectionChanges: [SectionChange]
    /// Deletes, inserts, moves, then updates.
    public var objectChanges: [ObjectChange]
    /// The number of objects in every section after the batch.
    public var counts: [Int]
    /// The section names after the batch.
    public var sectionNames: [String]
    /// True when the batch comes from a refetch after the store reported a reset.
    public var isReset: Bool

    /// A batch (tests and code that build batches by hand; the controller makes the real ones).
    public init(
        sectionChanges: [SectionChange] = [],
        objectChanges: [ObjectChange] = [],
        counts: [Int] = [],
        sectionNames: [String] = [],
        isReset: Bool = false
    ) {
        self.sectionChanges = sectionChanges
        self.objectChanges = objectChanges
        self.counts = counts
        self.sectionNames = sectionNames
        self.isReset = isReset
    }

    /// True when nothing changed.
    public var isEmpty: Bool { sectionChanges.isEmpty && objectChanges.isEmpty }
}
