import Foundation

/// A bounded hand-over of ``RowBatch``es from one producing thread to one
/// consuming thread, with recycling, end of input, errors and cancellation.
///
/// The importer parses on a second thread while the calling thread (which
/// owns the SQLite connection) writes: on two cores the parsing is then
/// hidden behind SQLite's work. At most `capacity` batches exist, so memory
/// stays small whatever the file's size.
///
///     // producer                                   // consumer
///     while let batch = pipe.emptyBatch() {         while let batch = try pipe.nextFull() {
///         fill(batch); pipe.send(batch)                 try write(batch); pipe.recycle(batch)
///     }                                             }
///     pipe.finish(error: nil)
final class BatchPipe: @unchecked Sendable {
    private let condition = NSCondition()
    private var full: [RowBatch] = []
    private var free: [RowBatch] = []
    private var created = 0
    private let capacity: Int
    private let rowsPerBatch: Int
    private var finished = false
    private var failure: Error?
    private var cancelled = false

    init(capacity: Int = 6, rowsPerBatch: Int = 1024) {
        self.capacity = capacity
        self.rowsPerBatch = rowsPerBatch
    }

    // MARK: Producer

    /// An empty batch to fill; waits while all batches are in use; nil once the consumer cancelled.
    func emptyBatch() -> RowBatch? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if cancelled { return nil }
            if let batch = free.popLast() { return batch }
            if created < capacity {
                created += 1
                return RowBatch(capacity: rowsPerBatch)
            }
            condition.wait()
        }
    }

    /// Hands a filled batch to the consumer.
    func send(_ batch: RowBatch) {
        condition.lock()
        full.append(batch)
        condition.signal()
        condition.unlock()
    }

    /// Marks the end of the input (or the producer's failure).
    func finish(error: Error?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    // MARK: Consumer

    /// The next filled batch; nil at the end of the input; rethrows the producer's error.
    func nextFull() throws -> RowBatch? {
        condition.lock()
        defer { condition.unlock() }
        while full.isEmpty && !finished { condition.wait() }
        if !full.isEmpty { return full.removeFirst() }
        if let failure { throw failure }
        return nil
    }

    /// Returns a written batch for reuse.
    func recycle(_ batch: RowBatch) {
        batch.removeAll()
        condition.lock()
        free.append(batch)
        condition.signal()
        condition.unlock()
    }

    /// Stops the producer (after a write error) and waits until it has finished.
    func cancelAndWait() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// Waits until the producer has finished (normally already the case).
    func waitUntilFinished() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
