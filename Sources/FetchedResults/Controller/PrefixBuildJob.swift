import SQLiteStore

/// Builds a controller's per-row sort-key prefixes on another thread, over
/// the store's second connection (``Store/acquireReaderConnection()``), so
/// that the controller gets ready for change sets without anyone waiting for
/// the pass over every row (about 0.6 s at a million rows): a `BackgroundJob`.
///
/// It works on a copy of the id sequence taken when it starts. The controller
/// picks the result up at its next change set (waiting for the job if it is
/// still running) and installs it only when its results did not move in the
/// meantime (same `generation`); otherwise it builds the prefixes itself, as
/// without a job.
///
///     let job = PrefixBuildJob(sequence: list.sequence, plan: plan, short: false, generation: generation, onFinish: nil)
///     job.start(with: lease)
///     if let keys = job.waitForKeys() { _ = list.installKeys(chunks: keys) }   // or job.job.poll()
final class PrefixBuildJob {
    /// The controller's generation the sequence belongs to.
    let generation: Int
    /// Whether the prefixes are the short ones (see ``FetchPlan/shortEncoder``).
    let isShort: Bool
    /// The pass over the rows: one array of prefixes per chunk, in order (nil when the read
    /// failed, was cancelled, or the store is closing).
    let job: BackgroundJob<[ContiguousArray<SortPrefix>]?>

    private let sequence: IDSequence
    private let sql: String
    private let encoder: SortKeyEncoder
    private let firstColumn: Int32

    init(sequence: IDSequence, plan: FetchPlan, short: Bool, generation: Int, onFinish: (@Sendable () -> Void)?) {
        self.job = BackgroundJob(onFinish: onFinish)
        self.sequence = sequence
        self.sql = plan.keysSQL
        self.encoder = short ? plan.shortEncoder! : plan.encoder
        self.firstColumn = short ? 2 : 1
        self.isShort = short
        self.generation = generation
    }

    /// Runs the pass on a background thread with the store's second connection
    /// (given back when the job ends, from that thread).
    func start(with lease: ReaderConnectionLease) {
        job.start(with: lease, qos: .utility) { [self] lease, job in build(lease, job) }
    }

    /// Waits for the job; its prefixes, one array per chunk in order.
    func waitForKeys() -> [ContiguousArray<SortPrefix>]? {
        (try? job.wait().get()) ?? nil
    }

    private func build(
        _ lease: ReaderConnectionLease,
        _ job: BackgroundJob<[ContiguousArray<SortPrefix>]?>
    ) -> [ContiguousArray<SortPrefix>]? {
        let database = lease.database
        let positions = FetchedResultsController.positionMap(sequence)
        var chunks: [ContiguousArray<SortPrefix>] = []
        chunks.reserveCapacity(sequence.order.count)
        for s in sequence.order {
            chunks.append(OrderedIDList.invalidKeys(count: sequence.slots[Int(s)].ids.count))
        }
        do {
            let statement = try database.statement(sql)
            defer { statement.reset() }
            var rows = 0
            while try statement.step() {
                rows += 1
                if rows & 0xFFF == 0 && (job.isCancelled || lease.storeIsClosing) { return nil }
                guard let p = positions[statement.int64(at: 0)] else { continue }
                let (ordinal, offset) = sequence.tree.locate(Int(p))
                chunks[ordinal][offset] = encoder.encode { statement.value(at: Int32($0) + firstColumn) }
            }
        } catch {
            return nil
        }
        return job.isCancelled ? nil : chunks
    }
}

extension FetchedResultsController {
    /// ``BackgroundWork/prepareForChanges``, deferred or not: starts the build over the current
    /// results unless their prefixes are built or under way. A cancelled build is replaced.
    func startPrefixJob() -> BackgroundStart {
        guard hasFetched, let plan, plan.request.fetchLimit == 0, plan.request.fetchOffset == 0 else {
            return .unavailable
        }
        if let running = prefixJob {
            guard running.job.isCancelled else { return .notNeeded }
            guard running.job.isFinished else { return .busy }
            prefixJob = nil
        }
        guard !list.hasKeys, list.count > 0 else { return .notNeeded }
        guard let lease = context.store.acquireReaderConnection() else {
            return context.store.hasReaderConnection ? .busy : .unavailable
        }
        let job = PrefixBuildJob(
            sequence: list.sequence,
            plan: plan,
            short: mayUseShortPrefixes && plan.shortEncoder != nil,
            generation: generation,
            onFinish: backgroundWake
        )
        job.start(with: lease)
        prefixJob = job
        return .started
    }

    /// Stops a background prefix build whose results are about to be replaced.
    func cancelPrefixJob() {
        prefixJob?.job.cancel()
        prefixJob = nil
    }

    /// Stops the background build of the prefixes and waits until it has given the store's
    /// second connection back (its keys are about to be replaced).
    func cancelPrefixJobAndWait() {
        guard let prefix = prefixJob else { return }
        prefix.job.cancel()
        _ = prefix.job.wait()
        prefixJob = nil
    }
}
