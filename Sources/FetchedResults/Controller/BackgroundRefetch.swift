import SQLiteStore

/// A refetch and diff running on another thread, over the store's second
/// connection (``Store/acquireReaderConnection()``) as a `BackgroundJob`: what a controller does
/// after a reset without blocking the thread it lives on (a 10-million-row
/// refetch takes seconds).
///
/// It runs the controller's fetch query, then diffs the new ids against a copy
/// of the results taken when it started (the same diff as
/// `FetchedResultsController/refetchAndDiff(updated:isReset:)`). The controller
/// installs the outcome on its own thread, in
/// ``FetchedResultsController/deliverFinishedRefetch()``, and only when its
/// results did not change meanwhile (same `generation`); otherwise it starts again.
///
/// Without old results (``FetchedResultsController/performFetchInBackground(onFinish:)``,
/// the first fetch) it runs the query only, and the batch is empty.
final class BackgroundRefetch {
    struct Outcome {
        var list: OrderedIDList
        var records: [SectionRecord]
        var batch: ChangeBatch
    }

    /// The results a refetch diffs against.
    struct OldResults {
        var sequence: IDSequence
        var records: [SectionRecord]
        var starts: [Int]
    }

    /// The controller's generation the old results belong to.
    let generation: Int
    let plan: FetchPlan
    /// The query and the diff.
    let job: BackgroundJob<Outcome>
    private let old: OldResults?
    private let isReset: Bool

    init(
        plan: FetchPlan,
        old: OldResults?,
        generation: Int,
        isReset: Bool,
        onFinish: (@Sendable () -> Void)?
    ) {
        self.plan = plan
        self.old = old
        self.generation = generation
        self.isReset = isReset
        self.job = BackgroundJob(onFinish: onFinish)
    }

    /// Runs the job with the store's second connection, given back (from the worker) when done.
    func start(with lease: ReaderConnectionLease) {
        job.start(with: lease) { [self] lease, _ in try run(on: lease.database) }
    }

    private func run(on database: Database) throws -> Outcome {
        let (list, records) = try FetchedResultsController.runFetch(plan, on: database)
        guard let old else { return Outcome(list: list, records: records, batch: ChangeBatch()) }
        let batch = FetchedResultsController.diff(
            old: old.sequence,
            oldRecords: old.records,
            oldStarts: old.starts,
            new: list.sequence,
            newRecords: records,
            hasSections: plan.sectionExpression != nil,
            root: plan.entity.name,
            updated: [],
            isReset: isReset
        )
        return Outcome(list: list, records: records, batch: batch)
    }
}

extension FetchedResultsController {
    /// Starts `refetchAndDiff(updated:isReset:)`'s work on another thread, over the store's
    /// second connection, and returns at once: the query and the diff of a 10-million-row
    /// table never block the controller's thread. Call ``deliverFinishedRefetch()`` from
    /// that thread (every tick of a run loop; it is one atomic load while the work runs):
    /// once the work is done, it applies the batch and delivers it to the delegate,
    /// ``onChange`` and ``changeBatches(bufferingPolicy:)`` as any batch. `onFinish` is
    /// called on the worker thread when the result is ready, to wake a run loop.
    ///
    /// While one runs, another call queues one more refetch after it (changes committed
    /// meanwhile may not be in the running one); when the results change in between
    /// (the controller's own context saved), the finished work is discarded and runs again.
    /// Returns false, doing nothing, before a fetch or when the store has no second
    /// connection (an in-memory store): call `refetchAndDiff(updated:isReset:)` then.
    ///
    ///     if let changes = try context.processExternalChanges(), changes.isReset {
    ///         if !controller.refetchInBackground() { try controller.refetchAndDiff(isReset: true) }
    ///     }
    ///     // on every tick:
    ///     try controller.deliverFinishedRefetch()
    @discardableResult
    public func refetchInBackground(isReset: Bool = true, onFinish: (@Sendable () -> Void)? = nil) -> Bool {
        guard hasFetched, context.store.hasReaderConnection else { return false }
        if backgroundRefetch != nil {
            backgroundRefetchQueued = true
            if let onFinish { backgroundRefetchOnFinish = onFinish }
            return true
        }
        guard let plan = try? makePlan() else { return false }
        // The prefix build may hold the second connection: stop it (its keys are about to be replaced).
        cancelPrefixJobAndWait()
        guard let lease = context.store.acquireReaderConnection() else { return false }
        if let onFinish { backgroundRefetchOnFinish = onFinish }
        let job = BackgroundRefetch(
            plan: plan,
            old: BackgroundRefetch.OldResults(sequence: list.sequence, records: sectionRecords, starts: sectionStarts),
            generation: generation,
            isReset: isReset,
            onFinish: backgroundRefetchOnFinish
        )
        backgroundRefetchIsReset = isReset
        job.start(with: lease)
        backgroundRefetch = job
        return true
    }

    /// Stops a running ``refetchInBackground(isReset:onFinish:)`` at once and starts it again at the
    /// next ``deliverFinishedRefetch()``. Call it before a save of the controller's context over a
    /// database in rollback-journal mode: a long read there holds a shared lock that makes the save
    /// wait (up to the busy timeout). Does nothing when none runs.
    ///
    ///     controller.cancelBackgroundRefetch()
    ///     context.delete(row)
    ///     try context.save(actionName: "Deleted row")
    public func cancelBackgroundRefetch() {
        guard let refetch = backgroundRefetch, !refetch.job.isFinished else { return }
        refetch.job.cancel()
    }

    /// True while a ``refetchInBackground(isReset:onFinish:)`` is running or queued.
    public var isRefetchingInBackground: Bool { backgroundRefetch != nil }

    /// Applies and delivers the outcome of ``refetchInBackground(isReset:onFinish:)`` when it is
    /// ready and returns its batch (also when it is empty); nil while the work runs, when none
    /// was started, or when the results changed meanwhile and the work started again.
    /// Call it on the controller's thread. Throws the work's error (a failed query).
    ///
    ///     try controller.deliverFinishedRefetch()   // on every tick of the run loop
    @discardableResult
    public func deliverFinishedRefetch() throws -> ChangeBatch? {
        guard let refetch = backgroundRefetch, refetch.job.isFinished else { return nil }
        return try finish(refetch)
    }

    /// Waits for the running ``refetchInBackground(isReset:onFinish:)`` (and any it queues or
    /// restarts), delivers it and returns the last batch; nil when none was running. For
    /// scripts and tests: an interactive app calls ``deliverFinishedRefetch()`` instead.
    @discardableResult
    public func waitForBackgroundRefetch() throws -> ChangeBatch? {
        var last: ChangeBatch?
        while let refetch = backgroundRefetch {
            _ = refetch.job.wait()
            if let batch = try finish(refetch) { last = batch }
        }
        return last
    }

    private func finish(_ refetch: BackgroundRefetch) throws -> ChangeBatch? {
        backgroundRefetch = nil
        let isReset = backgroundRefetchIsReset
        let outcome: BackgroundRefetch.Outcome
        do {
            outcome = try refetch.job.wait().get()
        } catch let error as SQLiteError where refetch.job.isCancelled && error.isInterrupted {
            backgroundRefetchQueued = false
            if !refetchInBackground(isReset: isReset) { return try refetchAndDiff(isReset: isReset) }
            return nil
        } catch {
            restartQueuedRefetch()
            throw error
        }
        guard refetch.generation == generation, hasFetched, !refetch.job.isCancelled else {
            // The results moved under the work (an own save): its diff no longer starts from them.
            backgroundRefetchQueued = false
            if !refetchInBackground(isReset: isReset) { return try refetchAndDiff(isReset: isReset) }
            return nil
        }
        install(refetched: outcome.list, records: outcome.records, plan: refetch.plan)
        if !outcome.batch.isEmpty || isReset { deliver(outcome.batch) }
        restartQueuedRefetch()
        return outcome.batch
    }

    private func restartQueuedRefetch() {
        guard backgroundRefetchQueued else { return }
        backgroundRefetchQueued = false
        refetchInBackground(isReset: backgroundRefetchIsReset)
    }
}
