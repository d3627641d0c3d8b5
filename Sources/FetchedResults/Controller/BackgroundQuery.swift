import SQLiteStore

/// The controller's fetch query running on the store's second connection
/// (``Store/acquireReaderConnection()``) as a `BackgroundJob`: a first fetch
/// (``BackgroundWork/fetch``: the query only) or a refetch and diff against a copy of
/// the results taken when it started (``BackgroundWork/refetch``: the same diff as
/// `FetchedResultsController/refetchAndDiff(updated:isReset:)`).
///
/// The controller installs the outcome on its own thread
/// (``FetchedResultsController/pollBackgroundWork()``); a refetch's only when its results
/// did not change meanwhile (same `generation`), otherwise it runs again.
///
///     let query = BackgroundQuery(plan: plan, old: nil, generation: generation, isReset: false, onFinish: nil)
///     query.start(with: lease)
///     if query.job.isFinished { print(try query.job.wait().get().list.count) }
final class BackgroundQuery {
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
    /// Whether the refetch follows a reset (its batch is delivered even when empty).
    let isReset: Bool
    /// The query and the diff.
    let job: BackgroundJob<Outcome>
    private let old: OldResults?
    /// A first fetch's history position when it started (its results are at least that
    /// current), and where they are cached when nothing was written meanwhile.
    var position: Int64?
    var cache: FetchedResultsController.CacheIdentity?
    /// Set when a change set arrived that the running query may not hold: a refetch follows it.
    var refetchAfter = false

    init(plan: FetchPlan, old: OldResults?, generation: Int, isReset: Bool, onFinish: (@Sendable () -> Void)?) {
        self.plan = plan
        self.old = old
        self.generation = generation
        self.isReset = isReset
        self.job = BackgroundJob(onFinish: onFinish)
    }

    /// True for a first fetch (no old results, no diff).
    var isFetch: Bool { old == nil }

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
    /// ``BackgroundWork/fetch``: validates the request (throwing what `performFetch()` throws),
    /// replaces a running query, and starts the fetch query over the second connection.
    func startBackgroundFetch() throws -> BackgroundStart {
        let plan = try makeValidatedPlan()
        cancelBackgroundQuery()
        guard context.store.hasReaderConnection else { return .unavailable }
        cancelPrefixJobAndWait()
        guard let lease = context.store.acquireReaderConnection() else { return .busy }
        let query = BackgroundQuery(
            plan: plan,
            old: nil,
            generation: generation,
            isReset: false,
            onFinish: backgroundWake
        )
        query.position = try? context.store.historyPosition()
        query.cache = cacheIdentity(for: plan)
        backgroundQuery = query
        query.start(with: lease)
        return .started
    }

    /// ``BackgroundWork/refetch``, after a reset or not: while a query runs, queued after it.
    func startBackgroundRefetch(isReset: Bool) -> BackgroundStart {
        guard hasFetched, context.store.hasReaderConnection else { return .unavailable }
        if let running = backgroundQuery {
            running.refetchAfter = true
            return .started
        }
        guard let plan = try? makePlan() else { return .unavailable }
        // The prefix build may hold the second connection: stop it (its keys are about to be replaced).
        cancelPrefixJobAndWait()
        guard let lease = context.store.acquireReaderConnection() else { return .busy }
        let query = BackgroundQuery(
            plan: plan,
            old: BackgroundQuery.OldResults(sequence: list.sequence, records: sectionRecords, starts: sectionStarts),
            generation: generation,
            isReset: isReset,
            onFinish: backgroundWake
        )
        backgroundQuery = query
        query.start(with: lease)
        return .started
    }

    /// Stops the running query, if any; its outcome is never installed.
    func cancelBackgroundQuery() {
        backgroundQuery?.job.cancel()
        backgroundQuery = nil
    }

    /// Installs a finished query: a fetch's results, or a refetch's batch, applied and
    /// delivered. Nil when it runs again instead (cancelled, or a refetch whose results moved).
    func finish(_ query: BackgroundQuery) throws -> BackgroundOutcome? {
        backgroundQuery = nil
        let outcome: BackgroundQuery.Outcome
        do {
            outcome = try query.job.wait().get()
        } catch let error as SQLiteError where query.job.isCancelled && error.isInterrupted {
            return try runAgain(query)
        } catch {
            if query.refetchAfter && !query.isFetch { _ = startBackgroundRefetch(isReset: query.isReset) }
            throw error
        }
        if query.isFetch {
            install(fetchedBy: query, outcome)
        } else {
            // The results moved under the work (an own save): its diff no longer starts from them.
            guard query.generation == generation, hasFetched, !query.job.isCancelled else { return try runAgain(query) }
            install(refetched: outcome.list, records: outcome.records, plan: query.plan)
            if !outcome.batch.isEmpty || query.isReset { deliver(outcome.batch) }
        }
        if query.refetchAfter { try refetchAfter(query) }
        return query.isFetch ? .fetched : .refetched(outcome.batch)
    }

    private func install(fetchedBy query: BackgroundQuery, _ outcome: BackgroundQuery.Outcome) {
        let fetched = (outcome.list, outcome.records)
        if let cache = query.cache, let before = query.position, (try? context.store.historyPosition()) == before {
            save(fetched, to: cache)
        }
        plan = query.plan
        lastFetchUsedCache = false
        install(fetched: fetched, untrackedSince: query.position)
    }

    /// Starts `query`'s work again, in the background when the second connection is free,
    /// otherwise here (and returns what that installed).
    private func runAgain(_ query: BackgroundQuery) throws -> BackgroundOutcome? {
        if query.isFetch {
            if try startBackgroundFetch() == .started { return nil }
            try performFetch()
            return .fetched
        }
        if startBackgroundRefetch(isReset: query.isReset) == .started { return nil }
        return .refetched(try refetchAndDiff(isReset: query.isReset))
    }

    /// The refetch a change set that arrived while `query` ran asks for (after a fetch, not a reset).
    private func refetchAfter(_ query: BackgroundQuery) throws {
        let isReset = !query.isFetch && query.isReset
        if startBackgroundRefetch(isReset: isReset) != .started { try refetchAndDiff(isReset: isReset) }
    }
}
