import Foundation

/// The two-thread pipeline of a bulk load: a second thread parses and
/// checks rows into batches while the calling thread, which owns the SQLite
/// connection, writes them. On two cores the parsing is hidden behind
/// SQLite's work.
///
/// `produce` runs on the new thread: it fills batches taken from the pipe
/// (``BatchPipe/emptyBatch()``, nil once the writer failed) and sends them;
/// its error ends the load. `consume` runs here for each full batch. When
/// `consume` throws, the producer is cancelled and waited for, and the error
/// rethrown.
///
///     final class Numbers: PipeBatch {
///         var values: [Int64] = []
///         init(capacity: Int) { values.reserveCapacity(capacity) }
///         func removeAll() { values.removeAll(keepingCapacity: true) }
///     }
///     var total: Int64 = 0
///     try TwoThreadLoad.run(produce: { (pipe: BatchPipe<Numbers>) in
///         guard let batch = pipe.emptyBatch() else { return }
///         batch.values = [1, 2, 3]
///         pipe.send(batch)
///     }, consume: { batch in total += batch.values.reduce(0, +) })
///     // total == 6
package enum TwoThreadLoad {
    /// Runs `produce` on a second thread and `consume` on this one; see the type's summary.
    package static func run<Batch: PipeBatch>(
        pipe: BatchPipe<Batch> = BatchPipe<Batch>(),
        produce: @escaping @Sendable (BatchPipe<Batch>) throws -> Void,
        consume: (Batch) throws -> Void
    ) throws {
        let thread = Thread {
            do {
                try produce(pipe)
                pipe.finish(error: nil)
            } catch {
                pipe.finish(error: error)
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
        do {
            while let batch = try pipe.nextFull() {
                try consume(batch)
                pipe.recycle(batch)
            }
        } catch {
            pipe.cancelAndWait()
            throw error
        }
        pipe.waitUntilFinished()
    }
}
