import SQLiteStore

extension FetchedResultsController {
    /// ``BackgroundWork/warmCache``: runs the fetch query on the store's second connection and
    /// writes the results cache, without fetching into the controller, so that a later
    /// `performFetch()` with the same request (another tab the user has not opened yet) reads
    /// the cache: the app's first switch to that tab is then as fast as a second launch.
    ///
    /// The cache is written under the fingerprint taken when the work starts; data committed
    /// meanwhile is newer than that fingerprint says, and a later fetch, whose fingerprint then
    /// differs, does not use it (rule 8 of <doc:ChangeBatches> holds; see <doc:ResultsCaches>).
    func startCacheWarming() -> BackgroundStart {
        guard let name = cacheName, ResultsCache.isValidName(name),
            fetchRequest.fetchLimit == 0, fetchRequest.fetchOffset == 0,
            let plan = try? makePlan()
        else { return .unavailable }
        // The second connection first: while it is busy, the fingerprint's queries are not worth running.
        guard let lease = context.store.acquireReaderConnection() else {
            return context.store.hasReaderConnection ? .busy : .unavailable
        }
        guard let cache = cacheIdentity(for: plan) else {
            lease.release()
            return .unavailable
        }
        if ResultsCache.hasEntry(name: name, directory: cacheDirectory, fingerprint: cache.fingerprint) {
            lease.release()
            return .notNeeded
        }
        let directory = cacheDirectory
        let warming = BackgroundJob<Bool>(onFinish: backgroundWake)
        warming.start(with: lease, qos: .utility) { lease, _ in
            let (list, sections) = try FetchedResultsController.runFetch(plan, on: lease.database)
            guard !lease.storeIsClosing else { return false }
            try ResultsCache.save(
                name: name,
                directory: directory,
                fingerprint: cache.fingerprint,
                list: list,
                sections: sections
            )
            return true
        }
        cacheWarming = warming
        return .started
    }
}
