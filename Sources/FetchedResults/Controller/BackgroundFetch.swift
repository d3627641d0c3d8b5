import SQLiteStore

/// A first fetch running on the store's second connection
/// (``FetchedResultsController/performFetchInBackground(onFinish:)``): the query
/// job, and what the controller needs when it installs the outcome on its own thread.
final class BackgroundFetch {
    /// The query (a ``BackgroundRefetch`` without old results: no diff), as a `BackgroundJob`.
    let query: BackgroundRefetch
    /// The store's history position when the fetch started: the results are at
    /// least that current (the query's snapshot starts later).
    let position: Int64?
    /// Where the results go when nothing was written meanwhile (nil: no cache).
    let cache: FetchedResultsController.CacheIdentity?
    /// Set when the context published a change set while the query ran and the
    /// controller was tracking: that change set may be missing from the results.
    var missedChanges = false

    init(query: BackgroundRefetch, position: Int64?, cache: FetchedResultsController.CacheIdentity?) {
        self.query = query
        self.position = position
        self.cache = cache
    }
}

extension FetchedResultsController {
    /// Starts ``performFetch()``'s query on another thread, over the store's second
    /// connection, and returns at once: the first fetch of a 10-million-row table
    /// takes seconds, during which the thread the controller lives on stays free
    /// (to answer keys, to quit). Call ``finishBackgroundFetch()`` from that thread
    /// (every tick of a run loop; one atomic load while the query runs): once the
    /// query is done, it installs the results and the controller is fetched, as
    /// after `performFetch()`. `onFinish` is called on the worker thread when the
    /// results are ready, to wake a run loop.
    ///
    /// The request is validated at once (this throws what `performFetch()` throws
    /// for a bad request). The results cache is not read (call
    /// ``performFetchFromCache()`` first); the results are saved to it when nothing
    /// was written to the store while the query ran. Changes committed meanwhile are
    /// not lost: the context publishes them afterwards as for any fetch (processing a
    /// change set the results already hold changes nothing), and one published while
    /// the query ran is followed by a refetch in the background.
    ///
    /// Returns false, starting nothing, when the store has no free second connection
    /// (an in-memory store, or the connection is busy): call `performFetch()` then.
    /// A fetch (`performFetch()`, or another call of this) replaces one that runs.
    ///
    ///     if try !controller.performFetchFromCache() {
    ///         if try !controller.performFetchInBackground() { try controller.performFetch() }
    ///     }
    ///     // every tick, until it returns true:
    ///     if try controller.finishBackgroundFetch() { showResults() }
    @discardableResult
    public func performFetchInBackground(onFinish: (@Sendable () -> Void)? = nil) throws -> Bool {
        let plan = try makePlan()
        if let name = cacheName, !ResultsCache.isValidName(name) { throw FetchedResultsError.invalidCacheName(name) }
        cancelBackgroundFetch()
        guard context.store.hasReaderConnection else { return false }
        cancelPrefixJobAndWait()
        guard let lease = context.store.acquireReaderConnection() else { return false }
        let position = try? context.store.historyPosition()
        let job = BackgroundRefetch(plan: plan, old: nil, generation: generation, isReset: false, onFinish: onFinish)
        backgroundFetch = BackgroundFetch(query: job, position: position, cache: cacheIdentity(for: plan))
        job.start(with: lease)
        return true
    }

    /// True while a ``performFetchInBackground(onFinish:)`` runs (its results not installed yet).
    public var isFetchingInBackground: Bool { backgroundFetch != nil }

    /// Installs the results of ``performFetchInBackground(onFinish:)`` when its query is done
    /// and returns true: the controller is then fetched. False while the query runs, or when
    /// none was started. Call it on the controller's thread. Throws the query's error (the
    /// controller then stays unfetched).
    ///
    ///     if try controller.finishBackgroundFetch() { showResults() }   // on every tick
    public func finishBackgroundFetch() throws -> Bool {
        guard let pending = backgroundFetch, pending.query.job.isFinished else { return false }
        return try install(pending)
    }

    /// Waits for the running ``performFetchInBackground(onFinish:)`` and installs its results;
    /// false when none was running. For scripts and tests: an interactive app calls
    /// ``finishBackgroundFetch()`` on every tick instead.
    ///
    ///     if try controller.performFetchInBackground() { try controller.waitForBackgroundFetch() }
    @discardableResult
    public func waitForBackgroundFetch() throws -> Bool {
        guard let pending = backgroundFetch else { return false }
        _ = pending.query.job.wait()
        return try install(pending)
    }

    /// Stops a running ``performFetchInBackground(onFinish:)`` (its query is interrupted, its
    /// results never installed). Does nothing when none runs.
    func cancelBackgroundFetch() {
        backgroundFetch?.query.job.cancel()
        backgroundFetch = nil
    }

    private func install(_ pending: BackgroundFetch) throws -> Bool {
        backgroundFetch = nil
        let (list, records) = try pending.query.job.wait().get().fetched
        if let cache = pending.cache, let before = pending.position, (try? context.store.historyPosition()) == before {
            save((list, records), to: cache)
        }
        plan = pending.query.plan
        lastFetchUsedCache = false
        install(fetched: (list, records), untrackedSince: pending.position)
        if pending.missedChanges && !refetchInBackground(isReset: false) { try refetchAndDiff() }
        return true
    }
}

extension BackgroundRefetch.Outcome {
    /// The ids and sections fetched.
    var fetched: (OrderedIDList, [SectionRecord]) { (list, records) }
}
