import Dispatch
import SQLiteStore

/// A ``GroupedResultsController``'s work on the store's second connection: the first
/// count, a count after a reset, or the pass that learns every row's group.
final class BackgroundGrouping {
    /// What the work read.
    enum Output {
        /// The groups and their counts (a fetch or a refetch).
        case groups([(value: StoreValue, count: Int)])
        /// Every counted row's group (nil: cancelled before the end).
        case membership(GroupMembership?)
    }

    let kind: BackgroundWork
    let plan: GroupPlan
    let job: BackgroundJob<Output>
    /// The controller's generation when the work started.
    let generation: Int
    /// Whether a refetch follows a reset (its batch is delivered even when empty).
    var isReset: Bool
    /// A first count's history position when it started.
    var position: Int64?
    /// Set when a change set arrived that the running count may not hold: another count follows.
    var refetchAfter = false

    init(kind: BackgroundWork, plan: GroupPlan, generation: Int, isReset: Bool, onFinish: (@Sendable () -> Void)?) {
        self.kind = kind
        self.plan = plan
        self.generation = generation
        self.isReset = isReset
        self.job = BackgroundJob(onFinish: onFinish)
    }

    /// Runs the work with the store's second connection.
    func start(with lease: ReaderConnectionLease) {
        let plan = self.plan
        if kind == .prepareForChanges {
            job.start(with: lease) { lease, job in
                .membership(try plan.readMembership(on: lease.database) { job.isCancelled })
            }
        } else {
            job.start(with: lease) { lease, _ in .groups(try plan.readGroups(on: lease.database)) }
        }
    }
}

extension GroupedResultsController {
    /// Starts `work` on the store's second connection and returns at once (a count of ten
    /// million rows takes seconds): ``BackgroundWork/fetch`` counts the groups (the controller is
    /// fetched once ``pollBackgroundWork()`` installs them), ``BackgroundWork/refetch`` counts
    /// them again and delivers the batch, ``BackgroundWork/prepareForChanges`` learns every
    /// row's group. ``BackgroundWork/warmCache`` does not apply (``BackgroundStart/unavailable``).
    /// `onFinish`, when given, is kept (``onBackgroundWorkFinished``).
    ///
    ///     grouped.onBackgroundWorkFinished = loop.poster { [unowned grouped] in
    ///         if (try? grouped.pollBackgroundWork()) == .fetch { showGroups() }
    ///     }
    ///     if grouped.startInBackground(.fetch) != .started { try grouped.performFetch() }
    @discardableResult
    public func startInBackground(_ work: BackgroundWork, onFinish: (@Sendable () -> Void)? = nil) -> BackgroundStart {
        if let onFinish { backgroundWake = onFinish }
        switch work {
        case .fetch: return startBackgroundFetch()
        case .refetch: return startBackgroundRefetch(isReset: true)
        case .prepareForChanges: return startBackgroundMembership()
        case .warmCache: return .unavailable
        }
    }

    /// Called on a worker thread whenever background work of this controller finishes — and,
    /// while a refetch waits for the store's second connection (another job holds it), a tenth
    /// of a second later to try again: what wakes a run loop, which then calls
    /// ``pollBackgroundWork()`` on the controller's thread, so that nothing polls for the result.
    /// The `onFinish` of ``startInBackground(_:onFinish:)`` sets it too. Default nil.
    ///
    ///     grouped.onBackgroundWorkFinished = loop.poster { [unowned grouped] in _ = try? grouped.pollBackgroundWork() }
    public var onBackgroundWorkFinished: (@Sendable () -> Void)? {
        get { backgroundWake }
        set { backgroundWake = newValue }
    }

    /// How long a refetch that found the second connection busy waits before it tries again (seconds).
    static let busyRetryDelay = 0.1

    /// The work started and not installed yet (a refetch waiting for the second connection too).
    public var backgroundWork: Set<BackgroundWork> {
        var work: Set<BackgroundWork> = []
        if let background { work.insert(background.kind) }
        if pendingRefetch != nil { work.insert(.refetch) }
        return work
    }

    /// What a run loop calls on the controller's thread when ``onBackgroundWorkFinished`` woke it:
    /// installs finished work — the groups of a fetch, a refetch's batch (delivered to
    /// ``onChange``), the rows' groups — and returns its kind; nil while it runs or when none was
    /// started. A refetch that found the second connection busy starts here. Throws the work's error.
    @discardableResult
    public func pollBackgroundWork() throws -> BackgroundWork? {
        if background == nil, let isReset = pendingRefetch {
            pendingRefetch = nil
            _ = startBackgroundRefetch(isReset: isReset)
            return nil
        }
        guard let running = background, running.job.isFinished else { return nil }
        background = nil
        return try finish(running)
    }

    /// Blocks until the background work is done, installing it as ``pollBackgroundWork()``
    /// does; returns the kind of the last work installed. For scripts and tests.
    @discardableResult
    public func waitForBackgroundWork() throws -> BackgroundWork? {
        var last: BackgroundWork?
        while background != nil || pendingRefetch != nil {
            if let running = background {
                _ = running.job.wait()
                background = nil
                if let kind = try finish(running) { last = kind }
            } else if let isReset = pendingRefetch {
                pendingRefetch = nil
                if startBackgroundRefetch(isReset: isReset) == .unavailable {
                    try refetchAndDiff(isReset: isReset)
                    last = .refetch
                }
            }
        }
        return last
    }

    /// Stops the background work at once (its query is interrupted, so a writer need not wait
    /// for its shared lock); a fetch or refetch starts again at the next ``pollBackgroundWork()``.
    public func cancelBackgroundWork() {
        background?.job.cancel()
    }

    func startBackgroundFetch() -> BackgroundStart {
        guard let plan = try? GroupPlan(request: fetchRequest, groupKeyPath: groupKeyPath, model: context.store.model)
        else { return .unavailable }
        cancelBackgroundWork()
        background = nil
        guard context.store.hasReaderConnection else { return .unavailable }
        guard let lease = context.store.acquireReaderConnection() else { return .busy }
        let work = BackgroundGrouping(
            kind: .fetch,
            plan: plan,
            generation: generation,
            isReset: false,
            onFinish: backgroundWake
        )
        work.position = try? context.store.historyPosition()
        background = work
        work.start(with: lease)
        return .started
    }

    /// A count again; while a count runs, another follows it; while the rows' groups are read,
    /// that pass stops (its rows are older than the count to come). The second connection
    /// busy: ``BackgroundStart/busy``, and the next poll tries again.
    func startBackgroundRefetch(isReset: Bool) -> BackgroundStart {
        guard hasFetched, let plan, context.store.hasReaderConnection else { return .unavailable }
        if let running = background {
            if running.kind != .prepareForChanges {
                running.refetchAfter = true
                running.isReset = running.isReset || isReset
                return .started
            }
            running.job.cancel()
            _ = running.job.wait()
            background = nil
        }
        guard let lease = context.store.acquireReaderConnection() else {
            pendingRefetch = (pendingRefetch ?? false) || isReset
            if let wake = backgroundWake {
                DispatchQueue.global().asyncAfter(deadline: .now() + GroupedResultsController.busyRetryDelay) { wake() }
            }
            return .busy
        }
        let work = BackgroundGrouping(
            kind: .refetch,
            plan: plan,
            generation: generation,
            isReset: isReset,
            onFinish: backgroundWake
        )
        background = work
        work.start(with: lease)
        return .started
    }

    func startBackgroundMembership() -> BackgroundStart {
        guard hasFetched, let plan, context.store.hasReaderConnection else { return .unavailable }
        guard membership == nil, background == nil else { return .notNeeded }
        guard let lease = context.store.acquireReaderConnection() else { return .busy }
        let work = BackgroundGrouping(
            kind: .prepareForChanges,
            plan: plan,
            generation: generation,
            isReset: false,
            onFinish: backgroundWake
        )
        background = work
        work.start(with: lease)
        return .started
    }

    /// Installs finished work; nil when it had to run again (it was cancelled, or it read rows
    /// older than the groups shown).
    private func finish(_ running: BackgroundGrouping) throws -> BackgroundWork? {
        let output: BackgroundGrouping.Output
        do {
            output = try running.job.wait().get()
        } catch let error as SQLiteError where running.job.isCancelled && error.isInterrupted {
            return restart(running)
        } catch {
            if running.refetchAfter && running.kind != .fetch { pendingRefetch = running.isReset }
            throw error
        }
        switch (running.kind, output) {
        case (.fetch, .groups(let groups)):
            install(plan: running.plan, groups: groups, position: running.position)
        case (.refetch, .groups(let groups)):
            _ = installRefetched(groups, isReset: running.isReset)
        case (.prepareForChanges, .membership(let found)):
            guard let found, running.generation == generation, membership == nil else { return nil }
            _ = install(found)
        default:
            return nil
        }
        if running.refetchAfter, startBackgroundRefetch(isReset: false) == .unavailable {
            try refetchAndDiff(isReset: false)
        }
        return running.kind
    }

    /// Starts cancelled work again (a prepare is left for the next change set).
    private func restart(_ running: BackgroundGrouping) -> BackgroundWork? {
        switch running.kind {
        case .fetch: _ = startBackgroundFetch()
        case .refetch: _ = startBackgroundRefetch(isReset: running.isReset)
        default: break
        }
        return nil
    }
}
