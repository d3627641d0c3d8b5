import BulkImport
import Foundation
import PostgreSQLClient
import Synchronization

/// A replica copy's `COPY … TO STDOUT` received and decoded on a thread of its own, handed in
/// batches (``BatchPipe``) to the thread that writes them to the file — the server, the decoding
/// and SQLite's inserts overlap, where one thread used to receive, decode and insert in turn
/// (at a million rows SQLite's inserts were about 0.5 s of that thread's 0.8 s of CPU). The
/// rows are also collected in ``order`` as they are decoded, when it is given.
///
///     let stream = CopyStream(shape: shape, order: collector, rowsPerBatch: 1024)
///     stream.start(copySQL, on: connection, timeout: 2, firstRowTimeout: 30)
///     do {
///         while let batch = try stream.pipe.nextFull() { try write(batch); stream.pipe.recycle(batch) }
///     } catch {
///         stream.pipe.cancelAndWait()      // the copy stopped, its thread done with the connection
///         throw error
///     }
///     let collected = stream.collected()
final class CopyStream: @unchecked Sendable {
    let pipe: BatchPipe<CopyBatch>
    private let shape: ReplicaShape
    private let rowsPerBatch: Int
    /// The collector while the copy's thread adds to it, then what it collected (nil: a row did not fit).
    private let order: Mutex<RowOrderCollector?>

    /// A stream of `shape`'s rows, `rowsPerBatch` to a batch, also collected by `order`.
    init(shape: ReplicaShape, order: RowOrderCollector?, rowsPerBatch: Int) {
        self.shape = shape
        self.rowsPerBatch = rowsPerBatch
        self.order = Mutex(order)
        pipe = BatchPipe(capacity: 4, rowsPerBatch: rowsPerBatch)
    }

    /// Starts `sql` on `connection` on a thread of its own, which uses the connection until the
    /// pipe is finished (``BatchPipe/waitUntilFinished()``, ``BatchPipe/cancelAndWait()``).
    func start(_ sql: String, on connection: PostgresConnection, timeout: Double, firstRowTimeout: Double) {
        nonisolated(unsafe) let connection = connection  // used by this thread alone until the pipe is finished
        let thread = Thread { [self] in
            do {
                try run(sql, on: connection, timeout: timeout, firstRowTimeout: firstRowTimeout)
                pipe.finish(error: nil)
            } catch {
                pipe.finish(error: error)
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// What ``order`` collected, once the pipe is finished.
    func collected() -> RowOrderCollector? { order.withLock { $0 } }

    // MARK: The copy's thread

    private func run(_ sql: String, on connection: PostgresConnection, timeout: Double, firstRowTimeout: Double) throws
    {
        var collecting = order.withLock { $0 }
        defer { order.withLock { $0 = collecting } }
        guard var batch = pipe.emptyBatch() else { throw CopyStreamStopped() }
        batch.prepare(shape)
        _ = try connection.copyOut(sql, timeout: timeout, firstRowTimeout: firstRowTimeout) { line in
            try batch.decoder!.decode(line)
            batch.rows += 1
            guard batch.rows == rowsPerBatch else { return }
            if collecting != nil, !batch.collect(into: &collecting!) { collecting = nil }
            pipe.send(batch)
            guard let next = pipe.emptyBatch() else { throw CopyStreamStopped() }
            batch = next
            batch.prepare(shape)
        }
        if batch.rows > 0 {
            if collecting != nil, !batch.collect(into: &collecting!) { collecting = nil }
            pipe.send(batch)
        }
    }
}

/// The writing side stopped the copy (``BatchPipe/cancelAndWait()``).
private struct CopyStreamStopped: Error {}

/// Rows of a replica's copy decoded for its INSERTs (``CopyRowDecoder``).
final class CopyBatch: PipeBatch {
    /// The rows' fields; made by the copy's thread before the first row (``prepare(_:)``).
    var decoder: CopyRowDecoder?
    /// Rows decoded.
    var rows = 0

    init(capacity: Int) {}

    func removeAll() {
        decoder?.clear()
        rows = 0
    }

    /// Gives the batch its decoder of `shape`'s rows, unless it has one.
    func prepare(_ shape: ReplicaShape) {
        if decoder == nil { decoder = CopyRowDecoder(shape: shape) }
    }

    /// Adds the rows' ids and sorted column to `collector`; false when one does not fit (the order is then given up).
    func collect(into collector: inout RowOrderCollector) -> Bool {
        guard let decoder else { return true }
        let fields = decoder.fields
        let width = decoder.width
        return decoder.arena.withUnsafeBytes { arena in
            for row in 0..<rows {
                guard case .integer(let id) = fields[row * width + collector.idField] else { return false }
                let text: UnsafeRawBufferPointer?
                switch fields[row * width + collector.valueField] {
                case .null: text = nil
                case .text(let start, let count), .blob(let start, let count):
                    text = UnsafeRawBufferPointer(rebasing: arena[start..<start + count])
                case .integer, .real: return false
                }
                guard collector.add(id: id, text: text) else { return false }
            }
            return true
        }
    }
}
