import BulkImport

/// The parsing thread of the bulk path: reads and checks rows (``ImportRun``)
/// and fills ``RowBatch``es with ids 1, 2, 3… for the writer.
///
/// The `ImportRun` is used by this thread only until it calls
/// ``BatchPipe/finish(error:)`` (through ``TwoThreadLoad``); the writer reads the run's counts and issues
/// after that (the pipe's lock orders the accesses), hence `@unchecked Sendable`.
///
///     let producer = BulkProducer(run: run)
///     try TwoThreadLoad.run(produce: { try producer.fill($0) }, consume: { try loader.write($0) })
final class BulkProducer: @unchecked Sendable {
    private let run: ImportRun

    /// The consumer went away (it failed); stop reading.
    struct Cancelled: Error {}

    init(run: ImportRun) {
        self.run = run
    }

    /// Fills batches from `pipe` with the good rows and sends them (run by ``TwoThreadLoad``).
    func fill(_ pipe: BatchPipe<RowBatch>) throws {
        var batch = pipe.emptyBatch()
        var nextID: Int64 = 1
        let layout = run.layout
        try run.forEachGoodRow { record, values in
            guard let current = batch else { throw Cancelled() }
            current.add(record, values, layout: layout, id: nextID)
            nextID += 1
            if current.isFull {
                pipe.send(current)
                batch = pipe.emptyBatch()
            }
        }
        if let batch, !batch.isEmpty { pipe.send(batch) }
    }
}
