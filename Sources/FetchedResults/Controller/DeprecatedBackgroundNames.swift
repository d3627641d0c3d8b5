// The background work's former names, kept for one release: four families of calls, one per
// kind of work, now ``BackgroundWork`` with one call per verb (see <doc:RunningInTheBackground>).

extension FetchedResultsController {
    /// The former way to start a background fetch: ``startInBackground(_:onFinish:)`` with
    /// ``BackgroundWork/fetch``; true when it started.
    ///
    ///     if try !controller.performFetchInBackground() { try controller.performFetch() }
    @available(*, deprecated, message: "use startInBackground(.fetch, onFinish:)")
    @discardableResult
    public func performFetchInBackground(onFinish: (@Sendable () -> Void)? = nil) throws -> Bool {
        if let onFinish { backgroundWake = onFinish }
        return try startBackgroundFetch() == .started
    }

    /// The former poll of a background fetch: ``pollBackgroundWork()``; true when it installed the fetch.
    ///
    ///     if try controller.finishBackgroundFetch() { print(controller.numberOfObjects) }
    @available(*, deprecated, message: "use pollBackgroundWork()")
    public func finishBackgroundFetch() throws -> Bool {
        try pollBackgroundWork() == .fetched
    }

    /// The former wait for a background fetch: ``waitForBackgroundWork()``; true when a fetch was running.
    ///
    ///     try controller.waitForBackgroundFetch()
    @available(*, deprecated, message: "use waitForBackgroundWork()")
    @discardableResult
    public func waitForBackgroundFetch() throws -> Bool {
        guard backgroundQuery?.isFetch == true else { return false }
        try waitForBackgroundWork()
        return true
    }

    /// Whether ``backgroundWork`` contains ``BackgroundWork/fetch``.
    ///
    ///     if controller.isFetchingInBackground { print("loading") }
    @available(*, deprecated, message: "use backgroundWork.contains(.fetch)")
    public var isFetchingInBackground: Bool { backgroundWork.contains(.fetch) }

    /// The former way to start a background refetch: ``startInBackground(_:onFinish:)`` with
    /// ``BackgroundWork/refetch`` (`isReset: false` delivers no empty batch); true when it started.
    ///
    ///     if !controller.refetchInBackground() { try controller.refetchAndDiff(isReset: true) }
    @available(*, deprecated, message: "use startInBackground(.refetch, onFinish:)")
    @discardableResult
    public func refetchInBackground(isReset: Bool = true, onFinish: (@Sendable () -> Void)? = nil) -> Bool {
        if let onFinish { backgroundWake = onFinish }
        return startBackgroundRefetch(isReset: isReset) == .started
    }

    /// The former poll of a background refetch: ``pollBackgroundWork()``; the batch it delivered.
    ///
    ///     try controller.deliverFinishedRefetch()
    @available(*, deprecated, message: "use pollBackgroundWork()")
    @discardableResult
    public func deliverFinishedRefetch() throws -> ChangeBatch? {
        try pollBackgroundWork()?.refetchedBatch
    }

    /// The former wait for a background refetch: ``waitForBackgroundWork()``; the last batch it delivered.
    ///
    ///     try controller.waitForBackgroundRefetch()
    @available(*, deprecated, message: "use waitForBackgroundWork()")
    @discardableResult
    public func waitForBackgroundRefetch() throws -> ChangeBatch? {
        try waitForBackgroundWork()?.refetchedBatch
    }

    /// The former cancel of a background refetch: ``cancelBackgroundWork()``.
    ///
    ///     controller.cancelBackgroundRefetch()
    @available(*, deprecated, message: "use cancelBackgroundWork()")
    public func cancelBackgroundRefetch() {
        cancelBackgroundWork()
    }

    /// Whether ``backgroundWork`` contains ``BackgroundWork/refetch``.
    ///
    ///     if controller.isRefetchingInBackground { print("refreshing") }
    @available(*, deprecated, message: "use backgroundWork.contains(.refetch)")
    public var isRefetchingInBackground: Bool { backgroundWork.contains(.refetch) }

    /// The former start of the prefixes' background build: ``startInBackground(_:onFinish:)``
    /// with ``BackgroundWork/prepareForChanges`` (`evenIfDeferred` ignores ``defersPreparationForChanges``).
    ///
    ///     controller.prepareForChangesInBackground()
    @available(*, deprecated, message: "use startInBackground(.prepareForChanges)")
    public func prepareForChangesInBackground(evenIfDeferred: Bool = false) {
        if !defersPreparationForChanges || evenIfDeferred { _ = startPrefixJob() }
    }

    /// Whether ``backgroundWork`` contains ``BackgroundWork/prepareForChanges``.
    ///
    ///     while controller.isPreparingForChanges { usleep(1_000) }
    @available(*, deprecated, message: "use backgroundWork.contains(.prepareForChanges)")
    public var isPreparingForChanges: Bool { backgroundWork.contains(.prepareForChanges) }

    /// The former start of a cache warming: ``startInBackground(_:onFinish:)`` with ``BackgroundWork/warmCache``.
    ///
    ///     if case .started(let warming) = controller.warmCacheInBackground() { warming.wait() }
    @available(*, deprecated, message: "use startInBackground(.warmCache)")
    @discardableResult
    public func warmCacheInBackground() -> CacheWarmingStart {
        switch startCacheWarming() {
        case .started: return .started(BackgroundCacheWarming(job: cacheWarming!))
        case .notNeeded: return .alreadyValid
        case .busy: return .busy
        case .unavailable: return .notApplicable
        }
    }

    /// The former answer of ``warmCacheInBackground()``: now ``BackgroundStart``.
    ///
    ///     if case .busy = controller.warmCacheInBackground() { print("try again") }
    @available(*, deprecated, message: "use BackgroundStart")
    public enum CacheWarmingStart {
        /// The work runs (``BackgroundStart/started``).
        case started(BackgroundCacheWarming)
        /// The cache is already valid (``BackgroundStart/notNeeded``).
        case alreadyValid
        /// The store's second connection is in use (``BackgroundStart/busy``).
        case busy
        /// No cache to fill (``BackgroundStart/unavailable``).
        case notApplicable
    }
}

/// The former handle of a cache warming: the controller's ``FetchedResultsController/waitForBackgroundWork()`` now.
///
///     if case .started(let warming) = controller.warmCacheInBackground() { warming.wait() }
@available(*, deprecated, message: "use FetchedResultsController.waitForBackgroundWork()")
public final class BackgroundCacheWarming: Sendable {
    private let job: BackgroundJob<Bool>

    init(job: BackgroundJob<Bool>) {
        self.job = job
    }

    /// Waits for the work; true when the cache was written.
    @discardableResult
    public func wait() -> Bool {
        (try? job.wait().get()) ?? false
    }
}

extension BackgroundOutcome {
    /// A refetch's batch (nil for a fetch).
    var refetchedBatch: ChangeBatch? {
        if case .refetched(let batch) = self { return batch }
        return nil
    }
}
