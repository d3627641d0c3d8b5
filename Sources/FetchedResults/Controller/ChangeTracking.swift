import SQLiteStore

/// What a controller keeps to follow its context's change sets (rule 9 of <doc:ChangeBatches>):
/// the observer it registered while tracking, the store's history position while it does not,
/// and whether its results may be stale (the store moved while nobody tracked them).
///
/// ``FetchedResultsController`` and ``GroupedResultsController`` both hold one and follow
/// their context through ``ChangeTrackingController``; what a change set does to their
/// results stays theirs (`process(_:)`).
struct ChangeTracking {
    /// Set when tracking was off for a while after a fetch and the store moved: the next change set refetches.
    var isStale = false
    private var observerToken: ObserverToken?
    /// The store's history position the results were known to be current at, while untracked.
    private var positionWhenUntracked: Int64?

    /// New results were installed, current at history `position`: they are not stale, and an
    /// untracked controller compares `position` with the store's when it starts tracking.
    mutating func installed(at position: Int64?, isTracking: Bool) {
        isStale = false
        positionWhenUntracked = isTracking ? nil : position
    }

    /// Observes `context` (calling `observer` with each change set) when `isTracking`, and stops
    /// observing when not. Starting to track results fetched earlier marks them stale if the
    /// store moved in between; stopping remembers the position it stopped at.
    mutating func update(
        isTracking: Bool,
        hasFetched: Bool,
        context: ObjectContext,
        observer: @escaping (ChangeSet) -> Void
    ) {
        if isTracking {
            guard observerToken == nil else { return }
            observerToken = context.addObserver(observer)
            if hasFetched, let before = positionWhenUntracked, let now = try? context.store.historyPosition(),
                now != before
            {
                isStale = true
            }
            positionWhenUntracked = nil
        } else if let token = observerToken {
            context.removeObserver(token)
            observerToken = nil
            if hasFetched { positionWhenUntracked = try? context.store.historyPosition() }
        }
    }

    /// Stops observing `context` (the controller is going away).
    func end(on context: ObjectContext) {
        if let token = observerToken { context.removeObserver(token) }
    }
}

/// A controller that follows its context's change sets through a ``ChangeTracking``: one
/// implementation of turning tracking on and off and of a change set whose processing failed
/// (the error is kept and reported, then everything is read again).
protocol ChangeTrackingController: AnyObject {
    associatedtype Batch
    var context: ObjectContext { get }
    /// Whether anything receives the controller's batches (then it observes its context).
    var isTracking: Bool { get }
    var hasFetched: Bool { get }
    var tracking: ChangeTracking { get set }
    var onError: ((Error) -> Void)? { get }
    var lastError: Error? { get set }
    /// Turns one change set into a batch, applies it and delivers it.
    func process(_ changes: ChangeSet) throws -> Batch?
    /// Reads the results again and delivers the difference, after `process(_:)` failed.
    func refetchAfterFailedChanges()
}

extension ChangeTrackingController {
    /// Observes the context while ``isTracking``, and stops when not (rule 9 of <doc:ChangeBatches>).
    func updateTracking() {
        let isTracking = isTracking
        let hasFetched = hasFetched
        tracking.update(isTracking: isTracking, hasFetched: hasFetched, context: context) { [weak self] changes in
            self?.handle(changes)
        }
    }

    /// Processes a change set the context published; a failure is kept in ``lastError``, given to
    /// ``onError``, and the results read again.
    func handle(_ changes: ChangeSet) {
        do {
            _ = try process(changes)
        } catch {
            lastError = error
            onError?(error)
            refetchAfterFailedChanges()
        }
    }
}
