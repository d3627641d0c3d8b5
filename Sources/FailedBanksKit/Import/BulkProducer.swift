/// The parsing thread of the bulk path: reads and checks rows (``ImportRun``)
/// and fills ``RowBatch``es with ids 1, 2, 3… for the writer.
///
/// The `ImportRun` is used by this thread only until it calls
/// ``BatchPipe/finish(error:)``; the writer reads the run's counts and issues
/// after that (the pipe's lock orders the accesses), hence `@unchecked Sendable`.
///
///     let producer = BulkProducer(run: run, pipe: pipe)
///     Thread { producer.main() }.start()
final class BulkProducer: @unchecked Sendable {
    private let run: ImportRun
    private let pipe: BatchPipe

    /// The consumer went away (it failed); stop reading.
    struct Cancelled: Error {}

    init(run: ImportRun, pipe: BatchPipe) {
        self.run = run
        self.pipe = pipe
    }

    func main() {
        var batch = pipe.emptyBatch()
        var nextID: Int64 = 1
        let layout = run.layout
        do {
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
            pipe.finish(error: nil)
        } catch {
            pipe.finish(error: error)
        }
    }
}
