/// The parsing thread's side of a bulk load of ``BulkRowBatch``es: the batch
/// the next row goes into, sent to the writer when full, the last partial one
/// sent at the end.
///
/// Used inside the `produce` closure of ``TwoThreadLoad``; throws
/// ``Stopped`` when the writer went away (it failed), which ends the reading.
///
///     try TwoThreadLoad.run(produce: { pipe in
///         var filler = BulkBatchFiller(pipe: pipe)
///         for (line, name) in [(2, "Ada"), (3, "Grace")] {
///             let batch = try filler.batch()
///             var text = name
///             text.withUTF8 { batch.append(utf8: UnsafeRawBufferPointer($0)) }
///             filler.endRow(line: line)
///         }
///         filler.finish()
///     }, consume: { batch in try writer.write(batch) })
package struct BulkBatchFiller {
    /// The writer went away (it failed): stop reading.
    package struct Stopped: Error {}

    private let pipe: BatchPipe<BulkRowBatch>
    private var current: BulkRowBatch?

    /// A filler sending its batches through `pipe`.
    package init(pipe: BatchPipe<BulkRowBatch>) {
        self.pipe = pipe
        current = pipe.emptyBatch()
    }

    /// The batch to append the next row's values to; throws ``Stopped`` once the writer failed.
    @inline(__always)
    package func batch() throws -> BulkRowBatch {
        guard let current else { throw Stopped() }
        return current
    }

    /// Ends the row appended to ``batch()`` (starting on `line` of the source); sends the batch when full.
    @inline(__always)
    package mutating func endRow(line: Int) {
        guard let batch = current else { return }
        batch.endRow(line: line)
        if batch.isFull {
            pipe.send(batch)
            current = pipe.emptyBatch()
        }
    }

    /// Sends the last, partial batch (if it holds rows).
    package func finish() {
        if let current, !current.isEmpty { pipe.send(current) }
    }
}
