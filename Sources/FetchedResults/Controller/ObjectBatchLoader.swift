import SQLiteStore

/// Loads fetched objects `batchSize` at a time and keeps the most recently
/// used batches (rule 7 of <doc:ChangeBatches>: memory stays proportional to ids, not objects).
///
/// Batches are keyed by the controller's generation (bumped by every change)
/// and the batch number, so a stale snapshot never reads another snapshot's batch.
final class ObjectBatchLoader {
    let context: ObjectContext
    let entityName: String
    let batchSize: Int
    let maxBatches: Int

    private struct Entry {
        var generation: Int
        var batch: Int
        var objects: [ManagedObject?]
    }

    private var entries: [Entry] = []  // most recently used last
    /// Number of batches loaded since creation (for tests of rule 7 of <doc:ChangeBatches>).
    private(set) var loadCount = 0

    init(context: ObjectContext, entityName: String, batchSize: Int, maxBatches: Int = 8) {
        self.context = context
        self.entityName = entityName
        self.batchSize = max(1, batchSize)
        self.maxBatches = max(1, maxBatches)
    }

    var residentBatchCount: Int { entries.count }

    func removeAll() { entries.removeAll() }

    /// The object at `position` of `sequence` (loading its batch when needed); nil when its row is gone.
    func object(at position: Int, in sequence: IDSequence, generation: Int) -> ManagedObject? {
        let batch = position / batchSize
        if let i = entries.lastIndex(where: { $0.batch == batch && $0.generation == generation }) {
            let e = entries[i]
            if i != entries.count - 1 {
                entries.remove(at: i)
                entries.append(e)
            }
            return e.objects[position - batch * batchSize]
        }
        let start = batch * batchSize
        let ids = sequence.ids(in: start..<min(sequence.count, start + batchSize)).map {
            ObjectID(entity: entityName, rowID: $0)
        }
        // A batch that could not be read (another program's lock, with a connection that does not
        // wait for it) is not kept: the next frame reads it again.
        guard let loaded = try? context.objects(with: ids) else { return nil }
        var byID: [Int64: ManagedObject] = [:]
        for o in loaded { byID[o.objectID.rowID] = o }
        let objects = ids.map { byID[$0.rowID] }
        loadCount += 1
        entries.append(Entry(generation: generation, batch: batch, objects: objects))
        if entries.count > maxBatches { entries.removeFirst(entries.count - maxBatches) }
        return objects[position - start]
    }
}
