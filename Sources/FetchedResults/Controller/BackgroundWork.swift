/// The kinds of work a ``FetchedResultsController`` can do on the store's second,
/// read-only connection instead of on the thread it lives on (see <doc:RunningInTheBackground>).
///
/// Each kind is started by ``FetchedResultsController/startInBackground(_:onFinish:)``;
/// ``FetchedResultsController/pollBackgroundWork()`` (on the controller's thread, when
/// ``FetchedResultsController/onBackgroundWorkFinished`` woke it) installs a finished fetch
/// and delivers a finished refetch; ``FetchedResultsController/waitForBackgroundWork()``
/// blocks until all of it is done; ``FetchedResultsController/cancelBackgroundWork()`` stops it.
///
///     if controller.startInBackground(.fetch) != .started { try controller.performFetch() }
public enum BackgroundWork: Sendable, Hashable, CaseIterable {
    /// ``FetchedResultsController/performFetch()``'s query (the results cache is not read;
    /// it is written when nothing was written to the store meanwhile). A poll installs the
    /// results: the controller is then fetched.
    case fetch
    /// A refetch of a fetched controller, diffed against its results: what the controller does
    /// after a reset (``FetchedResultsController/refetchesInBackgroundOnReset`` starts it then).
    /// A poll applies the batch and delivers it like any other.
    case refetch
    /// The per-row sort-key prefixes incremental change sets use (``FetchedResultsController/prepareForChanges()``);
    /// the next change set picks them up. Not started while
    /// ``FetchedResultsController/defersPreparationForChanges`` is set.
    case prepareForChanges
    /// The results written to the controller's cache, without fetching into the controller:
    /// a later ``FetchedResultsController/performFetch()`` of the same request reads them
    /// (<doc:ResultsCaches>). Nothing is installed; dropping the controller does not stop it.
    case warmCache
}

/// What ``FetchedResultsController/startInBackground(_:onFinish:)`` did.
///
///     switch controller.startInBackground(.warmCache) {
///     case .started, .notNeeded, .unavailable: break
///     case .busy: break   // try again on the next tick
///     }
public enum BackgroundStart: Sendable, Hashable {
    /// The work runs (or, for a refetch while one runs, is queued after it).
    case started
    /// Nothing to do: the work is done (a valid cache, prefixes built), already running, or deferred.
    case notNeeded
    /// The store's second connection is in use: try again later, or do the work on this thread.
    case busy
    /// The work cannot run in the background here: the store has no second connection (an
    /// in-memory store), the controller is not fetched yet (a refetch, the prefixes), or it has
    /// no cache to fill (no `cacheName`, a fetch limit or offset). Do it on this thread.
    case unavailable
}

/// What ``FetchedResultsController/pollBackgroundWork()`` or
/// ``FetchedResultsController/waitForBackgroundWork()`` installed on the controller.
///
///     if case .fetched? = try controller.pollBackgroundWork() { print(controller.numberOfObjects) }
public enum BackgroundOutcome: Sendable, Equatable {
    /// A background fetch's results are installed: the controller is fetched.
    case fetched
    /// A background refetch's batch was applied and delivered (to the delegate,
    /// ``FetchedResultsController/onChange`` and ``FetchedResultsController/changeBatches(bufferingPolicy:)``).
    case refetched(ChangeBatch)
}

extension FetchedResultsController {
    /// Starts `work` on the store's second connection and returns at once, so that the
    /// thread the controller lives on stays free (the first fetch or a refetch of ten million
    /// rows takes seconds). Only one job holds that connection at a time: while it is in use
    /// the answer is ``BackgroundStart/busy``. `onFinish`, when given, is kept: the controller
    /// calls it on the worker thread whenever a job of its own finishes, to wake a run loop.
    ///
    /// Whatever is not ``BackgroundStart/started`` the caller may do on its own thread: a
    /// fetch of a bad request is ``BackgroundStart/unavailable``, and ``performFetch()`` then
    /// throws why. A ``BackgroundWork/fetch`` replaces the background fetch or refetch that
    /// runs; a ``BackgroundWork/refetch`` while one runs is queued after it.
    ///
    ///     controller.onBackgroundWorkFinished = loop.poster { [unowned controller] in
    ///         if case .fetched? = try? controller.pollBackgroundWork() { showResults() }
    ///     }
    ///     if controller.startInBackground(.fetch) != .started { try controller.performFetch() }
    @discardableResult
    public func startInBackground(
        _ work: BackgroundWork,
        onFinish: (@Sendable () -> Void)? = nil
    ) -> BackgroundStart {
        if let onFinish { backgroundWake = onFinish }
        switch work {
        case .fetch: return (try? startBackgroundFetch()) ?? .unavailable
        case .refetch: return startBackgroundRefetch(isReset: true)
        case .prepareForChanges: return defersPreparationForChanges ? .notNeeded : startPrefixJob()
        case .warmCache: return startCacheWarming()
        }
    }

    /// Called on the worker thread whenever background work of this controller finishes (a
    /// fetch, a refetch — also one ``refetchesInBackgroundOnReset`` started —, the prefixes, a
    /// cache warming): what wakes a run loop, which then calls ``pollBackgroundWork()`` on the
    /// controller's thread, so that nothing polls for the result. The `onFinish` of
    /// ``startInBackground(_:onFinish:)`` sets it too. Default nil.
    ///
    ///     controller.onBackgroundWorkFinished = loop.poster { [weak list] in list?.deliverBackgroundWork() }
    public var onBackgroundWorkFinished: (@Sendable () -> Void)? {
        get { backgroundWake }
        set { backgroundWake = newValue }
    }

    /// The work started and not done yet: a fetch or refetch until a poll installs it (a
    /// queued refetch too), the prefixes and a cache warming while they are read.
    ///
    ///     while controller.backgroundWork.contains(.prepareForChanges) { usleep(1_000) }
    public var backgroundWork: Set<BackgroundWork> {
        var work: Set<BackgroundWork> = []
        if let query = backgroundQuery { work.insert(query.isFetch ? .fetch : .refetch) }
        if let prefixes = prefixJob, !prefixes.job.isFinished { work.insert(.prepareForChanges) }
        if let warming = cacheWarming, !warming.isFinished { work.insert(.warmCache) }
        return work
    }

    /// What a run loop calls on the controller's thread when ``onBackgroundWorkFinished`` woke
    /// it: installs a finished fetch, or applies and delivers a finished refetch, and returns what it did; nil while
    /// the work runs (one atomic load), when none was started, or when the work had to start
    /// again (it was cancelled, or the results changed under a refetch). Work that
    /// ``cancelBackgroundWork()`` stopped and the controller still needs starts again here.
    /// Throws the work's error (a failed query; a fetch then leaves the controller unfetched).
    ///
    ///     try context.processExternalChanges()
    ///     try controller.pollBackgroundWork()
    @discardableResult
    public func pollBackgroundWork() throws -> BackgroundOutcome? {
        if let warming = cacheWarming, warming.isFinished { cacheWarming = nil }
        if let prefixes = prefixJob, prefixes.job.isCancelled, prefixes.job.isFinished { _ = startPrefixJob() }
        guard let query = backgroundQuery, query.job.isFinished else { return nil }
        return try finish(query)
    }

    /// Blocks until the controller's background work is done, installing and delivering as
    /// ``pollBackgroundWork()`` does (also a refetch that follows a fetch or runs again), and
    /// returns the last outcome; nil when nothing was installed. For scripts and tests: an
    /// interactive app polls when the work's end wakes it instead.
    ///
    ///     if controller.startInBackground(.fetch) == .started { try controller.waitForBackgroundWork() }
    @discardableResult
    public func waitForBackgroundWork() throws -> BackgroundOutcome? {
        var last: BackgroundOutcome?
        while let query = backgroundQuery {
            _ = query.job.wait()
            if let outcome = try finish(query) { last = outcome }
        }
        _ = prefixJob?.job.wait()
        _ = cacheWarming?.wait()
        cacheWarming = nil
        return last
    }

    /// Stops the controller's running background work at once: its query is interrupted, so
    /// its shared lock goes and a writer need not wait for it. Call it before a save of the
    /// controller's context over a database in rollback-journal mode, where a long read makes
    /// the save wait (up to the busy timeout). A fetch, a refetch and the prefixes start again
    /// at the ``pollBackgroundWork()`` their interrupted job's end wakes; a cache warming is dropped.
    ///
    ///     controller.cancelBackgroundWork()
    ///     context.delete(row)
    ///     try context.save(actionName: "Deleted row")
    public func cancelBackgroundWork() {
        backgroundQuery?.job.cancel()
        prefixJob?.job.cancel()
        cacheWarming?.cancel()
    }
}
