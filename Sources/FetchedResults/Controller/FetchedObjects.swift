import SQLiteStore

/// The fetched objects in order: a lazy random-access collection that loads
/// objects `fetchBatchSize` at a time as they are accessed (rule 7 of <doc:ChangeBatches>).
///
/// It is a snapshot: the ids are those of the moment it was taken (sharing
/// storage with the controller until the controller changes). Accessing an
/// object whose row has since been deleted by another process traps, like an
/// index out of range; use ``objectID(at:)`` and `ObjectContext.object(with:)`
/// when that can happen.
///
///     let objects = controller.fetchedObjects
///     print(objects.count)
///     for book in objects.prefix(20) { print(book.string("name") ?? "") }  // one batch query
public struct FetchedObjects: RandomAccessCollection {
    public typealias Index = Int
    public typealias Element = ManagedObject

    let sequence: IDSequence
    let range: Range<Int>
    let loader: ObjectBatchLoader?
    let generation: Int
    let entityName: String

    init(sequence: IDSequence, range: Range<Int>, loader: ObjectBatchLoader?, generation: Int, entityName: String) {
        self.sequence = sequence
        self.range = range
        self.loader = loader
        self.generation = generation
        self.entityName = entityName
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { range.count }

    public subscript(position: Int) -> ManagedObject {
        precondition(
            position >= 0 && position < range.count,
            "FetchedObjects index \(position) out of range 0..<\(range.count)"
        )
        guard let loader,
            let object = loader.object(at: range.lowerBound + position, in: sequence, generation: generation)
        else {
            preconditionFailure("fetched object \(objectID(at: position)) no longer exists in the store")
        }
        return object
    }

    /// The object at `position`, nil when its row no longer exists.
    public func existingObject(at position: Int) -> ManagedObject? {
        guard position >= 0 && position < range.count, let loader else { return nil }
        return loader.object(at: range.lowerBound + position, in: sequence, generation: generation)
    }

    /// The object ID at `position`, without loading the object.
    public func objectID(at position: Int) -> ObjectID {
        ObjectID(entity: entityName, rowID: sequence.id(at: range.lowerBound + position))
    }

    /// All object IDs in order (reads ids only).
    public var objectIDs: [ObjectID] {
        sequence.ids(in: range).map { ObjectID(entity: entityName, rowID: $0) }
    }

    /// All row ids in order (``objectIDs`` without the entity's name: a million of them in a few
    /// milliseconds, for work that hands them to another thread).
    package var rowIDs: [Int64] { sequence.ids(in: range) }
}
