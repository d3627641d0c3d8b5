import Foundation
import SQLiteStore

/// The rows of a `FetchRequest` grouped by the value of one key path — each distinct
/// value with the number of rows that hold it, most rows first — kept up to date as the
/// store changes, with batches of changes a table view can animate: a frequency table
/// that is live.
///
/// It is the row controller's sibling (``FetchedResultsController``) and keeps its
/// promises the same way:
///
/// - ``performFetch()`` runs one query, `SELECT key, count(*) … GROUP BY key`, as a
///   person would type it into `sqlite3` (the groups are then ordered by count in Swift).
///   The request's predicate says which rows are counted; its sorts are not used.
/// - With ``onChange`` set, the controller observes its context (its own saves and
///   `processExternalChanges()`) and turns each change set into a ``GroupChangeBatch``
///   from the rows it names: a changed row's new group is read with one query for all of
///   them, its old group is the one the controller last counted it in. So a change set of
///   K rows costs one query and O(G + K log K) for G groups, never a count of every row.
///   Knowing each row's group takes one pass over the rows, made at the first change set
///   or, sooner, by ``prepareForChanges()`` (4 bytes a row).
/// - A reset (another process wrote to a file without history triggers) counts every
///   group again and diffs the groups: on this thread, or with
///   ``refetchesInBackgroundOnReset`` on the store's second connection.
/// - The batches obey the rules of <doc:ChangeBatches> for one section whose rows are
///   the groups (``GroupChangeBatch``): applied to the old groups they give the new ones.
///
///     var request = FetchRequest(entity: "Book")
///     request.predicate = try FetchPredicate("year >= 2000")
///     let byAuthor = GroupedResultsController(fetchRequest: request, context: context, groupKeyPath: "author")
///     try byAuthor.performFetch()
///     for group in byAuthor.groups { print(group.value, group.count) }
///     byAuthor.onChange = { batch in print(batch.changes.count, "groups changed") }
public final class GroupedResultsController: ChangeTrackingController {
    /// The rows counted: the entity, and the predicate they must match (the sorts are not used).
    public let fetchRequest: FetchRequest
    /// The key path whose value makes the groups (an attribute, a derived one such as
    /// `year(ts)`, or one through a to-one relationship).
    public let groupKeyPath: String
    /// The context the groups are read through and whose change sets are observed while tracking.
    public let context: ObjectContext

    /// Receives each change batch; setting it turns tracking on (and nil turns it off).
    public var onChange: ((GroupChangeBatch) -> Void)? {
        didSet { updateTracking() }
    }

    /// Called when processing a change set failed (the controller then counted every group again).
    public var onError: ((Error) -> Void)?
    /// The last error met while processing a change set.
    public internal(set) var lastError: Error?

    /// When true, a reset the context publishes (another connection wrote to a foreign
    /// database without history triggers) counts the groups again on the store's second
    /// connection; the batch arrives through ``pollBackgroundWork()``, which the owner calls when
    /// ``onBackgroundWorkFinished`` wakes it. Default false: counted at once, on this thread.
    public var refetchesInBackgroundOnReset = false

    var plan: GroupPlan?
    var table = GroupTable()
    /// Each counted row's group ordinal in ``table``; nil until a change set (or
    /// ``prepareForChanges()``) needed it, and again after a reset.
    var membership: RowIDMap?
    var hasFetched = false
    /// Bumped whenever the groups are replaced by counted ones (a background pass over older rows is then moot).
    var generation = 0
    /// Whether the context is observed, and whether the groups may be stale (see ``ChangeTracking``).
    var tracking = ChangeTracking()
    /// The work on the store's second connection, if any (one at a time).
    var background: BackgroundGrouping?
    /// A refetch that could not start (the second connection was busy), tried on the next poll:
    /// whether it follows a reset.
    var pendingRefetch: Bool?
    var backgroundWake: (@Sendable () -> Void)?
    /// How change sets were handled (for tests and the benchmark).
    package internal(set) var statistics = Statistics()

    /// Counters of how change sets were handled.
    package struct Statistics: Sendable, Equatable {
        /// Change sets counted from their rows.
        package var incrementalBatches = 0
        /// Times every group was counted again (resets).
        package var refetches = 0
        /// Passes over every row to learn its group.
        package var membershipBuilds = 0
    }

    /// A controller counting `fetchRequest`'s rows by the value of `groupKeyPath`; nothing is
    /// read until ``performFetch()``.
    public init(fetchRequest: FetchRequest, context: ObjectContext, groupKeyPath: String) {
        self.fetchRequest = fetchRequest
        self.context = context
        self.groupKeyPath = groupKeyPath
    }

    deinit {
        background?.job.cancel()
        tracking.end(on: context)
    }

    // MARK: Fetching

    /// Counts the groups: one `GROUP BY` query (on this thread).
    ///
    ///     try grouped.performFetch()   // throws FetchedResultsError, PredicateError, SQLiteError
    public func performFetch() throws {
        let plan = try GroupPlan(request: fetchRequest, groupKeyPath: groupKeyPath, model: context.store.model)
        cancelBackgroundWork()
        background = nil
        let position = try? context.store.historyPosition()
        let groups = try plan.readGroups(on: context.store.database)
        install(plan: plan, groups: groups, position: position)
    }

    /// Makes `groups` the groups counted (at history `position`), replacing any.
    func install(plan: GroupPlan, groups: [(value: StoreValue, count: Int)], position: Int64?) {
        self.plan = plan
        table = GroupTable(groups: groups)
        membership = nil
        generation += 1
        hasFetched = true
        tracking.installed(at: position, isTracking: isTracking)
        pendingRefetch = nil
        updateTracking()
    }

    // MARK: Groups

    /// The number of groups (distinct values among the rows counted).
    public var numberOfGroups: Int { table.count }

    /// The rows counted: the sum of the groups' counts.
    public var totalCount: Int { table.total }

    /// The group at `index`: most rows first, groups of as many rows by value (SQLite's binary order).
    ///
    ///     let top = grouped.group(at: 0)
    public func group(at index: Int) -> GroupInfo {
        let (value, count) = table.group(at: index)
        return GroupInfo(value: value, count: count)
    }

    /// Every group, in order (for a few thousand groups; a table view asks ``group(at:)`` for the rows it shows).
    public var groups: [GroupInfo] { (0..<table.count).map(group(at:)) }

    /// Where the group of `value` is (nil: no row holds it). 1 and 1.0 are one group, as in SQL.
    public func index(ofGroupValue value: StoreValue) -> Int? { table.position(of: value) }

    // MARK: Tracking

    /// True when ``onChange`` is set: the controller observes its context.
    public var isTracking: Bool { onChange != nil }

    /// Counts every group again and delivers the difference, after a change set could not be processed.
    func refetchAfterFailedChanges() {
        _ = try? refetchAndDiff(isReset: false)
    }

    func deliver(_ changes: [GroupChangeBatch.Change], isReset: Bool) -> GroupChangeBatch? {
        let batch = GroupChangeBatch(
            changes: changes,
            numberOfGroups: table.count,
            totalCount: table.total,
            isReset: isReset
        )
        guard !batch.isEmpty || isReset else { return nil }
        onChange?(batch)
        return batch
    }
}
