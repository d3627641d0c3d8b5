import SQLiteStore

/// Fills a controller's results cache on another thread, over the store's
/// second connection, so that a later `performFetch()` with the same request
/// (another tab the user has not opened yet) reads the cache instead of
/// running its query: the app's first switch to that tab is then as fast as
/// a second launch. It is the handle of a `BackgroundJob` (`wait()`).
///
/// The cache is written under the fingerprint taken when the work starts;
/// data committed meanwhile is newer than that fingerprint says, and a later
/// fetch, whose fingerprint then differs, does not use it (rule 8 of <doc:ChangeBatches> holds; see <doc:ResultsCaches>).
///
///     if case .started(let warming) = byName.warmCacheInBackground() { warming.wait() }
public final class BackgroundCacheWarming: Sendable {
    /// The query and the cache write: true when the cache was written.
    let job = BackgroundJob<Bool>()

    init() {}

    /// Waits for the work; true when the cache was written.
    @discardableResult
    public func wait() -> Bool {
        (try? job.wait().get()) ?? false
    }

    fileprivate func start(
        plan: FetchPlan,
        fingerprint: String,
        name: String,
        directory: String?,
        lease: ReaderConnectionLease
    ) {
        job.start(with: lease, qos: .utility) { lease, _ in
            let (list, sections) = try FetchedResultsController.runFetch(plan, on: lease.database)
            guard !lease.storeIsClosing else { return false }
            try ResultsCache.save(
                name: name,
                directory: directory,
                fingerprint: fingerprint,
                list: list,
                sections: sections
            )
            return true
        }
    }
}

extension FetchedResultsController {
    /// What ``warmCacheInBackground()`` did.
    public enum CacheWarmingStart {
        /// The work runs; `wait()` on it if you must.
        case started(BackgroundCacheWarming)
        /// The cache is already valid: nothing to do.
        case alreadyValid
        /// The store's second connection is in use: try again later.
        case busy
        /// This controller has no cache to fill (no `cacheName`, a limit or offset, or no second connection).
        case notApplicable
    }

    /// Fills this controller's results cache in the background (see
    /// ``BackgroundCacheWarming``) without fetching into the controller.
    ///
    ///     let byName = FetchedResultsController(fetchRequest: byNameRequest, context: context, cacheName: "banks-by-name")
    ///     if case .busy = byName.warmCacheInBackground() { /* try again on the next tick */ }
    @discardableResult
    public func warmCacheInBackground() -> CacheWarmingStart {
        guard let name = cacheName, ResultsCache.isValidName(name),
            fetchRequest.fetchLimit == 0, fetchRequest.fetchOffset == 0,
            let plan = try? makePlan()
        else { return .notApplicable }
        // The second connection first: while it is busy, the fingerprint's queries are not worth running.
        guard let lease = context.store.acquireReaderConnection() else {
            return context.store.hasReaderConnection ? .busy : .notApplicable
        }
        guard let cache = cacheIdentity(for: plan) else {
            lease.release()
            return .notApplicable
        }
        if ResultsCache.hasEntry(name: name, directory: cacheDirectory, fingerprint: cache.fingerprint) {
            lease.release()
            return .alreadyValid
        }
        let warming = BackgroundCacheWarming()
        warming.start(plan: plan, fingerprint: cache.fingerprint, name: name, directory: cacheDirectory, lease: lease)
        return .started(warming)
    }
}
