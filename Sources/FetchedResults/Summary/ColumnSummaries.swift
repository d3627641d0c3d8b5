import Dispatch
import Foundation
import SQLiteStore
import Synchronization

/// The summaries of several columns (``ColumnSummary``), read one after another on the
/// store's second connection while the caller's thread goes on, each available as soon as
/// it is read, with the progress of the one being read.
///
/// Without a second connection (an in-memory store) ``start()`` reads them all on the
/// calling thread. ``cancel()`` stops the read (its query is interrupted).
///
///     let summaries = ColumnSummaries(keyPaths: ["name", "fund"], request: request, context: context)
///     summaries.onProgress = loop.poster { [weak sheet] in sheet?.redraw() }
///     _ = summaries.start()   // .busy: again a little later
///     let (done, progress) = (summaries.summaries, summaries.progress)
package final class ColumnSummaries: @unchecked Sendable {
    package let keyPaths: [String]
    let request: FetchRequest
    let context: ObjectContext
    private let state: Mutex<State>
    private var job: BackgroundJob<Void>?

    private struct State {
        var summaries: [ColumnSummary?]
        var fraction = 0.0
        var error: String?
        var finished = false
    }

    /// Summaries of `keyPaths` over the rows `request` selects in `context`'s store (not read yet).
    package init(keyPaths: [String], request: FetchRequest, context: ObjectContext) {
        self.keyPaths = keyPaths
        self.request = request
        self.context = context
        state = Mutex(State(summaries: Array(repeating: nil, count: keyPaths.count)))
    }

    deinit { job?.cancel() }

    /// Called on the reading thread when a summary is read, now and then while one is read (at
    /// most ten times a second), and at the end: what wakes a run loop to show it. Set it before
    /// ``start()``.
    package var onProgress: (@Sendable () -> Void)?
    /// When progress was last told (seconds of the monotonic clock).
    private let toldAt = Mutex<Double>(-.infinity)

    /// Tells ``onProgress``: always when `force`, else at most ten times a second.
    private func tell(force: Bool) {
        guard let onProgress else { return }
        let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        let due = toldAt.withLock { last in
            guard force || now - last >= 0.1 else { return false }
            last = now
            return true
        }
        if due { onProgress() }
    }

    /// The summaries read so far (nil: not yet), in ``keyPaths`` order.
    package var summaries: [ColumnSummary?] { state.withLock { $0.summaries } }
    /// How far the whole read is, 0…1.
    package var progress: Double { state.withLock { $0.fraction } }
    /// Why the read stopped, if it failed.
    package var error: String? { state.withLock { $0.error } }
    /// Whether every summary is read (or the read failed).
    package var isFinished: Bool { state.withLock { $0.finished } }

    /// Starts the read on the store's second connection; ``BackgroundStart/busy`` while another
    /// job holds it (start again later). A store without one (in memory) is read here, at once
    /// (``BackgroundStart/unavailable``: the summaries are there when it returns).
    package func start() -> BackgroundStart {
        guard job == nil, !isFinished else { return .notNeeded }
        let model = context.store.model
        guard context.store.hasReaderConnection else {
            read(on: context.store.database, model: model) { true }
            return .unavailable
        }
        guard let lease = context.store.acquireReaderConnection() else { return .busy }
        let job = BackgroundJob<Void>()
        self.job = job
        job.start(with: lease, qos: .utility) { [self] lease, job in
            self.read(on: lease.database, model: model) { !job.isCancelled }
        }
        return .started
    }

    /// Stops the read.
    package func cancel() { job?.cancel() }

    private func read(on database: Database, model: Model, goOn: () -> Bool) {
        let total = Double(max(1, keyPaths.count))
        for (index, keyPath) in keyPaths.enumerated() {
            do {
                let summary = try ColumnSummary.read(keyPath: keyPath, request: request, model: model, on: database) {
                    read,
                    of in
                    let fraction = (Double(index) + Double(read) / Double(max(1, of))) / total
                    state.withLock { $0.fraction = fraction }
                    tell(force: false)
                    return goOn()
                }
                guard let summary else { break }
                state.withLock {
                    $0.summaries[index] = summary
                    $0.fraction = Double(index + 1) / total
                }
                tell(force: true)
            } catch {
                state.withLock { $0.error = "\(keyPath): \(error)" }
                break
            }
            if !goOn() { break }
        }
        state.withLock { $0.finished = true }
        tell(force: true)
    }
}
