import Foundation

/// A batch of rows that a ``BatchPipe`` creates, hands over and reuses.
///
///     final class Numbers: PipeBatch {
///         var values: [Int64] = []
///         init(capacity: Int) { values.reserveCapacity(capacity) }
///         func removeAll() { values.removeAll(keepingCapacity: true) }
///     }
package protocol PipeBatch: AnyObject, SendableMetatype {
    /// An empty batch for `capacity` rows.
    init(capacity: Int)
    /// Empties the batch for reuse (keeping its storage).
    func removeAll()
}

/// A bounded hand-over of batches from one producing thread to one
/// consuming thread, with recycling, end of input, errors and cancellation.
///
/// The importer parses on a second thread while the calling thread (which
/// owns the SQLite connection) writes: on two cores the parsing is then
/// hidden behind SQLite's work. At most `capacity` batches exist, so memory
/// stays small whatever the file's size. ``TwoThreadLoad`` runs both sides.
///
///     // producer                                   // consumer
///     while let batch = pipe.emptyBatch() {         while let batch = try pipe.nextFull() {
///         fill(batch); pipe.send(batch)                 try write(batch); pipe.recycle(batch)
///     }                                             }
///     pipe.finish(error: nil)
package final class BatchPipe<Batch: PipeBatch>: @unchecked Sendable {
    private let condition = NSCondition()
    private var full: [Batch] = []
    private var free: [Batch] = []
    private var created = 0
    private let capacity: Int
    private let rowsPerBatch: Int
    private var finished = false
    private var failure: Error?
    private var cancelled = false

    /// A pipe of at most `capacity` batches of `rowsPerBatch` rows.
    package init(capacity: Int = 6, rowsPerBatch: Int = 1024) {
        self.capacity = capacity
        self.rowsPerBatch = rowsPerBatch
    }

    // MARK: Producer

    /// An empty batch to fill; waits while all batches are in use; nil once the consumer cancelled.
    package func emptyBatch() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if cancelled { return nil }
            if let batch = free.popLast() { return batch }
            if created < capacity {
                created += 1
                return Batch(capacity: rowsPerBatch)
            }
            condition.wait()
        }
    }

    /// Hands a filled batch to the consumer.
    package func send(_ batch: Batch) {
        condition.lock()
        full.append(batch)
        condition.signal()
        condition.unlock()
    }

    /// Marks the end of the input (or the producer's failure).
    package func finish(error: Error?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    // MARK: Consumer

    /// The next filled batch; nil at the end of the input; rethrows the producer's error.
    package func nextFull() throws -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while full.isEmpty && !finished { condition.wait() }
        if !full.isEmpty { return full.removeFirst() }
        if let failure { throw failure }
        return nil
    }

    /// Returns a written batch for reuse.
    package func recycle(_ batch: Batch) {
        batch.removeAll()
        condition.lock()
        free.append(batch)
        condition.signal()
        condition.unlock()
    }

    /// Stops the producer (after a write error) and waits until it has finished.
    package func cancelAndWait() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// Waits until the producer has finished (normally already the case).
    package func waitUntilFinished() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
