/// A request for the objects of one entity, filtered and ordered.
///
/// The controller reads only identifiers in order; objects are loaded
/// `fetchBatchSize` at a time when they are first asked for.
///
///     var request = FetchRequest(entity: "Book")
///     request.predicate = try FetchPredicate("state == %@", .text("CA"))
///     request.sortDescriptors = [FetchSort("details.publishedOn", ascending: false),
///                                FetchSort("name", comparison: .caseInsensitive)]
///     request.fetchBatchSize = 20
public struct FetchRequest: Sendable, Hashable {
    /// The root entity's name.
    public var entityName: String
    /// Objects for which the predicate is true are fetched (nil: all).
    public var predicate: FetchPredicate?
    /// At least one is required by `FetchedResultsController`.
    public var sortDescriptors: [FetchSort]
    /// How many objects are loaded at once when one of them is first accessed
    /// (0 means the default, ``FetchRequest/defaultBatchSize``).
    public var fetchBatchSize: Int
    /// At most this many objects (0: no limit).
    public var fetchLimit: Int
    /// Skip this many objects of the ordered result first.
    public var fetchOffset: Int

    /// The batch size used when ``fetchBatchSize`` is 0.
    public static let defaultBatchSize = 50

    /// A request for the objects of `entity`; set the sort descriptors before fetching (at least one is required).
    public init(
        entity: String,
        predicate: FetchPredicate? = nil,
        sortDescriptors: [FetchSort] = [],
        fetchBatchSize: Int = 0,
        fetchLimit: Int = 0,
        fetchOffset: Int = 0
    ) {
        self.entityName = entity
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchBatchSize = fetchBatchSize
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
    }

    /// A request for `entity`'s objects.
    ///
    ///     let request = FetchRequest(entity: model.entity(named: "Book")!)
    public init(entity: Entity) {
        self.init(entity: entity.name)
    }

    /// ``fetchBatchSize``, or the default when it is 0.
    package var effectiveBatchSize: Int { fetchBatchSize > 0 ? fetchBatchSize : FetchRequest.defaultBatchSize }
}
