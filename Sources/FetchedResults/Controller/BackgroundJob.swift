import Dispatch
import SQLiteStore
import Synchronization

/// One piece of a controller's work on another thread, over the store's second connection
/// (``Store/acquireReaderConnection()``): the one job type behind every ``BackgroundWork`` —
/// the fetch and the refetch (``BackgroundQuery``), the sort-key prefixes (``PrefixBuildJob``)
/// and the filling of a results cache (``FetchedResultsController/startCacheWarming()``).
///
/// A job has four verbs, the same for all: ``start(with:qos:_:)`` runs the work with the
/// connection and gives the connection back on the worker when it ends; ``poll()`` returns the
/// outcome once it is ready and nil before (one atomic load: what a run loop calls on every
/// tick); ``wait()`` blocks until then (scripts, tests, and the controller when it needs the
/// result now); ``cancel()`` stops the work soon — its query is interrupted, so its shared lock
/// goes and a writer need not wait for it — and its outcome is then an error or whatever the
/// work returned when it saw ``isCancelled``. `onFinish` is called on the worker thread when the
/// outcome is ready, to wake a run loop.
///
///     let job = BackgroundJob<Int>()
///     job.start(with: lease) { lease, job in try lease.database.scalar("SELECT count(*) FROM t").int64 ?? 0 }
///     if let outcome = job.poll() { print(try outcome.get()) }   // on a tick; or job.wait()
final class BackgroundJob<Output>: @unchecked Sendable {
    private let finishedFlag = Atomic<Bool>(false)
    private let cancelledFlag = Atomic<Bool>(false)
    /// The connection the work runs on, while it runs (for ``cancel()``).
    private let running = Mutex<ReaderConnectionLease?>(nil)
    private let done = DispatchGroup()
    /// Set on the worker thread before `finishedFlag`; read after it (or after `done`).
    private var result: Result<Output, Error>?
    /// The work, set by ``start(with:qos:_:)`` and dropped on the worker once it ran.
    private var work: ((ReaderConnectionLease, BackgroundJob) throws -> Output)?
    private let onFinish: (@Sendable () -> Void)?

    /// A job not started yet; `onFinish` is called on the worker thread when its outcome is ready.
    init(onFinish: (@Sendable () -> Void)? = nil) {
        self.onFinish = onFinish
    }

    /// Runs `work` on a background thread with the store's second connection, given back
    /// (from that thread) when the work ends. The work gets the lease (its connection, and
    /// whether the store is closing) and the job (whether it was cancelled).
    func start(
        with lease: ReaderConnectionLease,
        qos: DispatchQoS.QoSClass = .userInitiated,
        _ work: @escaping (ReaderConnectionLease, BackgroundJob) throws -> Output
    ) {
        self.work = work
        done.enter()
        running.withLock { $0 = lease }
        DispatchQueue.global(qos: qos).async { [self] in
            let outcome = Result { try self.work!(lease, self) }
            self.work = nil
            running.withLock { $0 = nil }
            lease.release()
            result = outcome
            finishedFlag.store(true, ordering: .releasing)
            done.leave()
            onFinish?()
        }
    }

    /// True once the outcome is ready (one atomic load).
    var isFinished: Bool { finishedFlag.load(ordering: .acquiring) }

    /// The outcome once it is ready, nil while the work runs; never waits.
    func poll() -> Result<Output, Error>? {
        isFinished ? result : nil
    }

    /// Waits for the work and returns its outcome.
    func wait() -> Result<Output, Error> {
        done.wait()
        return result!
    }

    /// Stops the work soon: ``isCancelled`` turns true and the connection's statements are
    /// interrupted (`sqlite3_interrupt`) until it is leased again. Does nothing once the
    /// outcome is ready (a finished job keeps it).
    func cancel() {
        guard !isFinished else { return }
        cancelledFlag.store(true, ordering: .relaxed)
        running.withLock { $0?.database.interruptUntilResumed() }
    }

    /// True once ``cancel()`` was called.
    var isCancelled: Bool { cancelledFlag.load(ordering: .relaxed) }
}
