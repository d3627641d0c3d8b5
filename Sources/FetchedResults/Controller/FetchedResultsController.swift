import Foundation
import SQLiteStore

/// A section's state: its key value, name and size.
struct SectionRecord {
    var value: StoreValue
    var name: String
    var count: Int
}

/// Core Data's `NSFetchedResultsController` over the SQLite object store:
/// the results of a `FetchRequest` in sections, kept up to date as the
/// store changes, with batches of changes a table view can animate.
///
/// - `performFetch()` runs one SQL query returning only ids (and the section
///   key) in order; objects are loaded `fetchBatchSize` at a time when
///   accessed (rule 7 of <doc:ChangeBatches>). With a `cacheName`, the section info and ids are
///   persisted, so a second launch over an unchanged store skips the query (<doc:ResultsCaches>).
/// - With a ``delegate`` or ``onChange`` set, the controller observes its
///   context (own saves and `processExternalChanges()`) and turns each change
///   set into a ``ChangeBatch`` in O(K log N) for K changed objects (rules 3–6 of <doc:ChangeBatches>).
///   Without either it does not observe at all (rule 9 of <doc:ChangeBatches>).
///
///     var request = FetchRequest(entity: "Book")
///     request.sortDescriptors = [FetchSort("details.publishedOn", ascending: false),
///                                FetchSort("name", comparison: .caseInsensitive)]
///     request.fetchBatchSize = 20
///     let controller = FetchedResultsController(fetchRequest: request, context: context,
///                                               sectionNameKeyPath: "details.publishedYear", cacheName: "books-by-date")
///     try controller.performFetch()
///     for section in controller.sections { print(section.name, section.numberOfObjects) }
///     controller.onChange = { batch in print(batch.objectChanges.count, "changes") }
public final class FetchedResultsController: ChangeTrackingController {
    /// What is fetched: entity, predicate, sorts, batch size, limit and offset.
    public let fetchRequest: FetchRequest
    /// The context objects are loaded from and whose change sets are observed while tracking.
    public let context: ObjectContext
    /// The key path naming each object's section (nil: one section named "").
    public let sectionNameKeyPath: String?
    /// The name the results are cached under (nil: no cache). A cold ``performFetch()``
    /// writes the cache; a later one (a second launch) reads it when the request, the
    /// model, the store file (its `Store.identity`: a random id written at creation,
    /// device and inode) and the store's data (history position, row count, max id,
    /// schema) are unchanged. A cache file is a hint: one that is damaged, or whose ids
    /// do not agree with the table, is deleted and the results fetched afresh. Changes
    /// processed afterwards are not written back: after them the next launch fetches
    /// cold and rewrites the cache.
    public let cacheName: String?
    /// Where the cache file lives (default ``FetchedResultsController/defaultCacheDirectory``).
    public let cacheDirectory: String?

    /// Receives change batches call by call; setting it turns tracking on (rule 9 of <doc:ChangeBatches>).
    public weak var delegate: FetchedResultsControllerDelegate? {
        didSet { updateTracking() }
    }

    /// Receives each change batch as one value; setting it turns tracking on (rule 9 of <doc:ChangeBatches>).
    public var onChange: ((ChangeBatch) -> Void)? {
        didSet { updateTracking() }
    }

    /// Overrides the default section index title without turning tracking on
    /// (the delegate's hook, when it returns non-nil, wins).
    ///
    ///     controller.sectionIndexTitleProvider = { name in name }   // "2025" instead of "2"
    public var sectionIndexTitleProvider: ((String) -> String?)?

    /// Whether a large change set's rows are read on the store's second connection
    /// too, half on each core (default true; see ``process(_:)``). The benchmark
    /// turns it off to show what one connection costs.
    package var splitsLargeReads = true
    /// A test hook: a split read waits for the second connection's thread to read a chunk
    /// first, so that it is split however the threads are scheduled (see ``RowValuesReader``).
    package var splitReadsWaitForOtherThread = false

    /// The continuations of the sequences made by ``changeBatches(bufferingPolicy:)``;
    /// each delivered batch is yielded to all of them (finished ones are dropped then).
    var batchContinuations: [AsyncStream<ChangeBatch>.Continuation] = []

    /// Called when processing a change set failed (the controller then refetched).
    public var onError: ((Error) -> Void)?

    /// The last error met while processing a change set.
    public internal(set) var lastError: Error?

    // MARK: State

    var plan: FetchPlan?
    var list = OrderedIDList()
    var sectionRecords: [SectionRecord] = []
    private var startsCache: [Int]?
    var generation = 0
    var hasFetched = false
    var loader: ObjectBatchLoader
    /// Whether the context is observed, and whether the results may be stale (see ``ChangeTracking``).
    var tracking = ChangeTracking()
    /// Whether the prefixes may leave out a prepended derived section sort (see ``FetchPlan/shortEncoder``);
    /// cleared for good once the data shows the derivation is not monotonic.
    var mayUseShortPrefixes = true
    /// Whether the installed prefixes are the short ones.
    var keysAreShort = false
    /// The background work (``BackgroundWork``): the fetch or refetch query, the build of the
    /// prefixes, a cache warming, and whom to wake when one of them finishes.
    var backgroundQuery: BackgroundQuery?
    var prefixJob: PrefixBuildJob?
    var cacheWarming: BackgroundJob<Bool>?
    var backgroundWake: (@Sendable () -> Void)?
    /// When true, a reset the context publishes (another connection wrote to an untracked
    /// foreign database: `Store.hasTracking`), or any change set while the results may be stale
    /// (the store was written while nobody tracked them), starts a ``BackgroundWork/refetch``
    /// instead of refetching on this thread; the batch arrives through ``pollBackgroundWork()``,
    /// which the owner calls when the refetch's end wakes it (``onBackgroundWorkFinished``).
    /// Default false (the refetch runs at once).
    ///
    ///     controller.refetchesInBackgroundOnReset = true
    ///     controller.onBackgroundWorkFinished = loop.poster { [unowned controller] in
    ///         _ = try? controller.pollBackgroundWork()
    ///     }
    public var refetchesInBackgroundOnReset = false
    /// How the last performFetch got its data (for tests and the benchmark).
    package internal(set) var lastFetchUsedCache = false
    /// How many change sets were handled incrementally and how many by refetching (for tests and the benchmark).
    package internal(set) var statistics = Statistics()

    /// Counters of how change sets were handled.
    ///
    ///     try controller.process(changes)
    ///     print(controller.statistics.incrementalBatches, controller.statistics.refetches)
    package struct Statistics: Sendable, Equatable {
        package var incrementalBatches = 0
        package var refetches = 0
        /// Probe rows whose full sort values had to be read from SQLite.
        package var probeReads = 0
        /// Times the per-row sort-key prefixes were built (once after each fetch that is followed by changes).
        package var keyBuilds = 0
        /// Change sets whose rows were read on two connections at once (large ones).
        package var splitReads = 0
        /// Changed rows placed with values their save wrote (``SQLiteStore/WrittenRows``), read in part or not at all.
        package var rowsWithWrittenValues = 0
    }

    /// Creates a controller; nothing is read until ``performFetch()``.
    ///
    /// - Parameters:
    ///   - fetchRequest: what to fetch; it needs at least one sort descriptor.
    ///   - context: where objects are loaded from and whose saves (and `processExternalChanges()`) are tracked.
    ///   - sectionNameKeyPath: the key path whose value names each object's section (nil: one section).
    ///   - cacheName: persist section info and ids under this name (letters, digits, `-`, `_`, `.`).
    ///   - cacheDirectory: overrides ``defaultCacheDirectory``.
    public init(
        fetchRequest: FetchRequest,
        context: ObjectContext,
        sectionNameKeyPath: String? = nil,
        cacheName: String? = nil,
        cacheDirectory: String? = nil
    ) {
        self.fetchRequest = fetchRequest
        self.context = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
        self.cacheDirectory = cacheDirectory
        self.loader = ObjectBatchLoader(
            context: context,
            entityName: fetchRequest.entityName,
            batchSize: fetchRequest.effectiveBatchSize
        )
    }

    deinit {
        for continuation in batchContinuations { continuation.finish() }
        prefixJob?.job.cancel()
        backgroundQuery?.job.cancel()
        tracking.end(on: context)
    }

    // MARK: Fetching

    /// Runs the fetch: validates the request (rule 1 of <doc:ChangeBatches>), then reads the ordered
    /// ids and section bounds with one query, or from the cache when it is
    /// still valid (<doc:ResultsCaches>).
    ///
    ///     try controller.performFetch()   // throws FetchedResultsError, PredicateError, SQLiteError
    public func performFetch() throws {
        _ = try fetch(queryingWhenNoCache: true)
    }

    /// ``performFetch()`` from a valid results cache only: true when there was
    /// one (the controller is then fetched, as by `performFetch()`); false, and
    /// nothing changes, when the query would have to run. One cache check, where
    /// `hasValidCache()` followed by `performFetch()` makes two.
    ///
    ///     if try !controller.performFetchFromCache() { showPreview(); try controller.performFetch() }
    public func performFetchFromCache() throws -> Bool {
        try fetch(queryingWhenNoCache: false)
    }

    private func fetch(queryingWhenNoCache: Bool) throws -> Bool {
        let plan = try makeValidatedPlan()
        let cache = cacheIdentity(for: plan)
        var fetched = cache.flatMap {
            ResultsCache.load(name: $0.name, directory: cacheDirectory, key: $0.key, store: context.store)
        }
        if fetched == nil && !queryingWhenNoCache { return false }
        self.plan = plan
        lastFetchUsedCache = fetched != nil
        if fetched == nil {
            let queried = try runFetch(plan)
            if let cache { save(queried, to: cache) }
            fetched = queried
        }
        install(fetched: fetched!, untrackedSince: try? context.store.historyPosition())
        return true
    }

    /// Makes `fetched` the results of a fetch (of ``plan``), replacing any: what
    /// ``performFetch()`` and a finished ``BackgroundWork/fetch`` end with.
    /// `position` is the store's history position the results are known to be
    /// current at (an untracked controller compares it with the store's when it
    /// starts tracking: rule 9 of <doc:ChangeBatches>).
    func install(fetched: (OrderedIDList, [SectionRecord]), untrackedSince position: Int64?) {
        cancelPrefixJob()
        cancelBackgroundQuery()  // a refetch's diff starts from results this fetch replaces
        (list, sectionRecords) = fetched
        startsCache = nil
        generation += 1
        loader.removeAll()
        hasFetched = true
        tracking.installed(at: position, isTracking: isTracking)
        mayUseShortPrefixes = true
        updateTracking()
    }

    /// The fetch plan of ``fetchRequest`` over the store's model (validates the request: rule 1 of <doc:ChangeBatches>).
    func makePlan() throws -> FetchPlan {
        try FetchPlan(request: fetchRequest, model: context.store.model, sectionNameKeyPath: sectionNameKeyPath)
    }

    /// ``makePlan()``, and the ``cacheName`` checked: what a fetch throws before it starts.
    func makeValidatedPlan() throws -> FetchPlan {
        let plan = try makePlan()
        if let name = cacheName, !ResultsCache.isValidName(name) { throw FetchedResultsError.invalidCacheName(name) }
        return plan
    }

    /// Where a fetch's results are cached, and what a valid entry there carries.
    typealias CacheIdentity = (name: String, fingerprint: String, key: ResultsCache.Key)

    /// Writes fetched results to their cache entry (a failure leaves no entry: the next launch queries).
    func save(_ fetched: (OrderedIDList, [SectionRecord]), to cache: CacheIdentity) {
        try? ResultsCache.save(
            name: cache.name,
            directory: cacheDirectory,
            fingerprint: cache.fingerprint,
            list: fetched.0,
            sections: fetched.1
        )
    }

    /// The cache name and the fingerprint a valid cache entry carries now (the request, the
    /// model and the store's data); nil without a usable ``cacheName`` or when the store cannot say.
    /// A foreign database without history triggers has nothing that says its data is unchanged
    /// (another process may reorder rows keeping their count and ids): no cache there.
    func cacheIdentity(for plan: FetchPlan) -> CacheIdentity? {
        guard let name = cacheName, ResultsCache.isValidName(name),
            !context.store.isForeign || context.store.hasTracking,
            let key = try? ResultsCache.key(plan: plan, store: context.store)
        else { return nil }
        return (name, key.fingerprint, key)
    }

    /// Runs the ordered id query: `SELECT t0.id[, section] FROM … WHERE … ORDER BY …, t0.id`,
    /// keeping ids and section bounds only (rule 7 of <doc:ChangeBatches>).
    ///
    /// When the controller orders by a derived section key first, it first tries the
    /// query without that extra sort: if the section values come out monotonic (as
    /// the year of a date does), the order is the same and the sort is cheaper.
    func runFetch(_ plan: FetchPlan) throws -> (OrderedIDList, [SectionRecord]) {
        try FetchedResultsController.runFetch(plan, on: context.store.database)
    }

    /// ``runFetch(_:)`` on a given connection (the store's second one, for ``BackgroundWork``).
    static func runFetch(_ plan: FetchPlan, on db: Database) throws -> (OrderedIDList, [SectionRecord]) {
        if let cheaper = plan.fetchSQLWithoutSectionSort {
            let result =
                if let derive = plan.sectionFromSortValue {
                    try runFetch(plan, sql: cheaper, on: db, sectionsFromSortValues: derive)
                } else {
                    try runFetch(plan, sql: cheaper, on: db, requireMonotonicSections: true)
                }
            if let result { return result }
        }
        return try runFetch(plan, sql: plan.fetchSQL, on: db, requireMonotonicSections: false)!
    }

    /// The cheaper query when it reads the first sort's value (``FetchPlan/sectionFromSortValue``):
    /// a row whose text agrees with the last row's on the deciding bytes is in the current
    /// section; any other row's section is computed in Swift. Nil when the sections do
    /// not come out monotonic (the caller then runs the query with the section sort).
    private static func runFetch(
        _ plan: FetchPlan,
        sql: String,
        on db: Database,
        sectionsFromSortValues derive: FetchPlan.SectionFromSortValue
    ) throws -> (OrderedIDList, [SectionRecord])? {
        let statement = try db.statement(sql)
        defer { statement.reset() }
        try statement.bind(plan.fetchArguments)
        var builder = OrderedIDList.Builder()
        var sections = SortValueSections(plan: plan, derive: derive)
        let deciding = derive.decidingBytes
        // The last row's value: a row with the same value, or text agreeing with it on the deciding
        // bytes, is in the current section. With ordersTiesByID the query leaves rows of one value in
        // SQLite's order: their ids wait in the run and go to the builder in id order.
        var run = SortValueRun(ordersTiesByID: derive.ordersTiesByID)
        while try statement.step() {
            let id = statement.int64(at: 0)
            if let bytes = statement.textBytes(at: 1) {
                let text = run.compare(bytes)
                if text.isSame {
                    run.addSame(id, to: &builder)
                    sections.countInCurrent()
                    continue
                }
                run.addNew(id, to: &builder)
                run.remember(text: bytes)
                if text.inOneSection(deciding: deciding) {
                    sections.countInCurrent()
                    continue
                }
            } else {
                let value = statement.value(at: 1)
                switch run.match(other: value) {
                case .same:
                    run.addSame(id, to: &builder)
                    sections.countInCurrent()
                    continue
                case .equalInOrderOnly where run.ordersTiesByID:
                    return nil  // 1 and 1.0: one value to ORDER BY, maybe two sections
                case .different, .equalInOrderOnly:
                    run.addNew(id, to: &builder)
                    run.remember(other: value)
                }
            }
            guard sections.add(statement.value(at: 1)) else { return nil }
        }
        run.append(to: &builder)
        return (builder.finish(), sections.finish())
    }

    private static func runFetch(
        _ plan: FetchPlan,
        sql: String,
        on db: Database,
        requireMonotonicSections: Bool
    ) throws -> (OrderedIDList, [SectionRecord])? {
        let statement = try db.statement(sql)
        defer { statement.reset() }
        try statement.bind(plan.fetchArguments)
        var builder = OrderedIDList.Builder()
        var sections: [SectionRecord] = []
        var count = 0
        if plan.sectionExpression != nil {
            var current: StoreValue = .null
            // The current section's value as UTF-8 when it is text: a row whose section text has
            // the very same bytes is counted without making a value (most rows, at millions of rows).
            var currentText: [UInt8]?
            let ascending = plan.sectionAscending
            while try statement.step() {
                builder.append(statement.int64(at: 0))
                if let bytes = currentText, let text = statement.textBytes(at: 1), text.count == bytes.count,
                    bytes.isEmpty || memcmp(text.baseAddress!, bytes, bytes.count) == 0
                {
                    sections[sections.count - 1].count += 1
                    continue
                }
                let v = statement.value(at: 1)
                defer {
                    if case .text(let text) = current { currentText = Array(text.utf8) } else { currentText = nil }
                }
                if sections.isEmpty {
                    sections.append(
                        SectionRecord(value: v, name: FetchedResultsController.sectionName(for: v), count: 1)
                    )
                    current = v
                    continue
                }
                let c = plan.compareSectionValues(v, current)
                if c == 0 {
                    sections[sections.count - 1].count += 1
                } else {
                    if requireMonotonicSections && (ascending ? c < 0 : c > 0) { return nil }
                    sections.append(
                        SectionRecord(value: v, name: FetchedResultsController.sectionName(for: v), count: 1)
                    )
                    current = v
                }
            }
        } else {
            while try statement.step() {
                builder.append(statement.int64(at: 0))
                count += 1
            }
            sections = [SectionRecord(value: .null, name: "", count: count)]
        }
        return (builder.finish(), sections)
    }

    /// Builds the sort-key prefixes of every fetched row with one unordered pass
    /// (done lazily, before the first incremental change set, or by ``prepareForChanges()``).
    ///
    /// `changing` are the rows of the change set about to be processed: their values are
    /// already new while their positions are old, so the monotonicity check skips them.
    func ensureKeys(_ plan: FetchPlan, changing: Set<Int64> = []) throws {
        guard !list.hasKeys, list.count > 0 else { return }
        if let job = prefixJob {
            prefixJob = nil
            if let keys = job.waitForKeys(), job.generation == generation, list.installKeys(chunks: keys) {
                statistics.keyBuilds += 1
                if !job.isShort || keysAreMonotonic(ignoring: changing) {
                    keysAreShort = job.isShort
                    return
                }
                list.removeKeys()
                mayUseShortPrefixes = false
            }
        }
        let positions = FetchedResultsController.positionMap(list.sequence)
        var short = mayUseShortPrefixes && plan.shortEncoder != nil
        while true {
            let encoder = short ? plan.shortEncoder! : plan.encoder
            let statement = try context.store.database.statement(plan.keysSQL)
            defer { statement.reset() }
            let offset: Int32 = short ? 2 : 1
            try list.installKeys { set in
                while try statement.step() {
                    let id = statement.int64(at: 0)
                    guard let p = positions[id] else { continue }
                    set(Int(p), encoder.encode { statement.value(at: Int32($0) + offset) })
                }
            }
            statistics.keyBuilds += 1
            if short && !keysAreMonotonic(ignoring: changing) {
                list.removeKeys()
                mayUseShortPrefixes = false
                short = false
                continue
            }
            keysAreShort = short
            return
        }
    }

    /// Whether the installed prefixes never decrease along the list.
    private func keysAreMonotonic(ignoring changing: Set<Int64>) -> Bool {
        var last = SortPrefix.invalid
        var ok = true
        list.sequence.forEachChunk { chunk in
            guard ok else { return }
            for i in chunk.keys.indices {
                let k = chunk.keys[i]
                guard k.isValid, changing.isEmpty || !changing.contains(chunk.ids[i]) else { continue }
                if last.isValid && SortPrefix.compareBits(last, k) > 0 {
                    ok = false
                    return
                }
                last = k
            }
        }
        return ok
    }

    /// Builds what incremental change processing needs (the per-row sort-key prefixes,
    /// one pass over the rows) now rather than at the first change set. An app can call
    /// it when idle after its first screen, so that the first change is not slower.
    ///
    ///     try controller.performFetch()
    ///     render()
    ///     try controller.prepareForChanges()
    public func prepareForChanges() throws {
        guard hasFetched, let plan, plan.request.fetchLimit == 0, plan.request.fetchOffset == 0 else { return }
        try ensureKeys(plan)
    }

    /// Whether ``BackgroundWork/prepareForChanges`` leaves the prefixes for later (false by
    /// default): ``startInBackground(_:onFinish:)`` then answers ``BackgroundStart/notNeeded``,
    /// until the flag is cleared — when the app learns that a change is on its way — or until
    /// the first change set: a small one is placed without them and starts their build in the
    /// background, a larger one builds them first. For a list that may never change (a copy of
    /// a server table, browsed): it keeps the prefixes' memory (24 bytes a row) only once it
    /// does change.
    ///
    ///     controller.defersPreparationForChanges = true
    ///     try controller.performFetch()
    ///     controller.startInBackground(.prepareForChanges)   // nothing yet
    ///     controller.defersPreparationForChanges = false    // a change is coming
    ///     controller.startInBackground(.prepareForChanges)
    public var defersPreparationForChanges = false

    /// The name of a section for a section key value.
    static func sectionName(for value: StoreValue) -> String {
        switch value {
        case .null: return ""
        case .integer(let i): return String(i)
        case .real(let d): return String(d)
        case .text(let s): return s
        case .blob(let b): return b.map { String(format: "%02x", $0) }.joined()
        }
    }

    // MARK: Results

    /// The number of fetched objects.
    public var numberOfObjects: Int { list.count }

    /// All fetched objects in order, loaded lazily in batches.
    public var fetchedObjects: FetchedObjects {
        FetchedObjects(
            sequence: list.sequence,
            range: 0..<list.count,
            loader: loader,
            generation: generation,
            entityName: fetchRequest.entityName
        )
    }

    /// The sections in order. Without a section key path there is exactly one (named "") once fetched.
    public var sections: [SectionInfo] {
        let starts = sectionStarts
        return sectionRecords.indices.map { sectionInfo($0, starts: starts) }
    }

    func sectionInfo(_ i: Int, starts: [Int]) -> SectionInfo {
        let r = sectionRecords[i]
        return SectionInfo(
            name: r.name,
            indexTitle: sectionKeyTitle(r.name),
            numberOfObjects: r.count,
            objects: FetchedObjects(
                sequence: list.sequence,
                range: starts[i]..<(starts[i] + r.count),
                loader: loader,
                generation: generation,
                entityName: fetchRequest.entityName
            ),
            isNullKey: r.value.isNull
        )
    }

    /// The section count (0 before a fetch).
    public var numberOfSections: Int { sectionRecords.count }

    /// Row count of `section`.
    public func numberOfObjects(inSection section: Int) -> Int { sectionRecords[section].count }

    /// Where each section starts in the flat order.
    var sectionStarts: [Int] {
        if let s = startsCache { return s }
        var starts: [Int] = []
        starts.reserveCapacity(sectionRecords.count)
        var total = 0
        for r in sectionRecords {
            starts.append(total)
            total += r.count
        }
        startsCache = starts
        return starts
    }

    func invalidateStarts() { startsCache = nil }

    /// The flat position of an index path, nil when out of range.
    func position(of indexPath: IndexPath) -> Int? {
        guard indexPath.count == 2, indexPath.section >= 0, indexPath.section < sectionRecords.count,
            indexPath.item >= 0, indexPath.item < sectionRecords[indexPath.section].count
        else { return nil }
        return sectionStarts[indexPath.section] + indexPath.item
    }

    /// The section holding a flat position, given section starts.
    @inline(__always)
    static func sectionIndex(of position: Int, starts: [Int]) -> Int {
        max(0, binarySearch(0..<starts.count) { starts[$0] <= position }.lowerBound - 1)
    }

    /// The index path of a flat position, given section starts.
    static func indexPath(of position: Int, starts: [Int]) -> IndexPath {
        let section = sectionIndex(of: position, starts: starts)
        return IndexPath(item: position - starts[section], section: section)
    }

    /// The object at `indexPath` (loads its batch). Traps when out of range, like an array,
    /// and when its row was deleted by another process and that change set has not been
    /// processed yet (see ``existingObject(at:)``).
    ///
    ///     let book = controller.object(at: IndexPath(row: 0, section: 0))
    public func object(at indexPath: IndexPath) -> ManagedObject {
        guard let p = position(of: indexPath) else { preconditionFailure("index path \(indexPath) out of range") }
        return fetchedObjects[p]
    }

    /// The object at `indexPath`, or nil when the index path is out of range or its row has
    /// been deleted by another process since the last change set was processed (a table
    /// view's cell provider should use this and draw nothing for nil until the batch arrives).
    ///
    ///     if let book = controller.existingObject(at: indexPath) { draw(book) }
    public func existingObject(at indexPath: IndexPath) -> ManagedObject? {
        guard let p = position(of: indexPath) else { return nil }
        return loader.object(at: p, in: list.sequence, generation: generation)
    }

    /// The object ID at `indexPath`, without loading the object; nil when out of range.
    public func objectID(at indexPath: IndexPath) -> ObjectID? {
        guard let p = position(of: indexPath) else { return nil }
        return ObjectID(entity: fetchRequest.entityName, rowID: list.id(at: p))
    }

    /// The index path of an object, nil when it is not in the results. O(log N).
    public func indexPath(for objectID: ObjectID) -> IndexPath? {
        guard objectID.entity == fetchRequest.entityName, let p = list.position(of: objectID.rowID) else { return nil }
        return FetchedResultsController.indexPath(of: p, starts: sectionStarts)
    }

    /// The index path of an object, nil when it is not in the results.
    public func indexPath(forObject object: ManagedObject) -> IndexPath? {
        indexPath(for: object.objectID)
    }

    // MARK: Section index

    /// The index title for a section name: the delegate's answer, else
    /// ``sectionIndexTitleProvider``'s, else the name's first character uppercased
    /// (nil for an empty name).
    ///
    ///     controller.sectionIndexTitle(forSectionName: "texas") // "T"
    public func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        sectionKeyTitle(sectionName)
    }

    private func sectionKeyTitle(_ name: String) -> String? {
        if let d = delegate, let t = d.controller(self, sectionIndexTitleForSectionName: name) { return t }
        if let p = sectionIndexTitleProvider, let t = p(name) { return t }
        guard let first = name.first else { return nil }
        return String(first).uppercased()
    }

    /// The distinct index titles of the sections, in section order.
    public var sectionIndexTitles: [String] {
        var seen = Set<String>()
        var out: [String] = []
        for r in sectionRecords {
            if let t = sectionKeyTitle(r.name), seen.insert(t).inserted { out.append(t) }
        }
        return out
    }

    /// The section an index title jumps to: the first section with that
    /// title; for a title no section has, the first section whose title
    /// sorts after it (or the last section). `index` is the title's position
    /// in ``sectionIndexTitles`` and is used when `title` is not one of them.
    ///
    ///     let s = controller.section(forSectionIndexTitle: "2008", at: 3)
    public func section(forSectionIndexTitle title: String, at index: Int) -> Int {
        guard !sectionRecords.isEmpty else { return 0 }
        let titles = sectionRecords.map { sectionKeyTitle($0.name) }
        if let s = titles.firstIndex(where: { $0 == title }) { return s }
        let all = sectionIndexTitles
        if index >= 0 && index < all.count, let s = titles.firstIndex(where: { $0 == all[index] }) { return s }
        let ascending = plan?.sectionAscending ?? true
        if let s = titles.firstIndex(where: { t in
            guard let t else { return false }
            return ascending ? t > title : t < title
        }) {
            return s
        }
        return sectionRecords.count - 1
    }

    // MARK: Tracking (rule 9 of FetchedResults.docc/ChangeBatches.md)

    /// True when a delegate or ``onChange`` is set: the controller observes its context.
    public var isTracking: Bool { delegate != nil || onChange != nil || !batchContinuations.isEmpty }

    /// Refetches and delivers the difference, after a change set could not be processed.
    func refetchAfterFailedChanges() {
        _ = try? refetchAndDiff()
    }

    /// Delivers a batch: delegate calls in the order of rule 3 of <doc:ChangeBatches>, then ``onChange``.
    func deliver(_ batch: ChangeBatch) {
        if let d = delegate {
            d.controllerWillChangeContent(self)
            let starts = sectionStarts
            for s in batch.sectionChanges {
                let info: SectionInfo
                if s.change == .insert {
                    info = sectionInfo(s.index, starts: starts)
                } else {
                    info = SectionInfo(
                        name: s.name,
                        indexTitle: sectionKeyTitle(s.name),
                        numberOfObjects: 0,
                        objects: FetchedObjects(
                            sequence: IDSequence(),
                            range: 0..<0,
                            loader: nil,
                            generation: generation,
                            entityName: fetchRequest.entityName
                        )
                    )
                }
                d.controller(self, didChange: info, atSectionIndex: s.index, for: s.change)
            }
            for o in batch.objectChanges {
                d.controller(self, didChange: o.id, at: o.from, for: o.change, newIndexPath: o.to)
            }
            d.controllerDidChangeContent(self)
        }
        onChange?(batch)
        if !batchContinuations.isEmpty { yieldToSequences(batch) }
    }

    // MARK: Cache

    /// `$XDG_CACHE_HOME/fetchedresults`, or `~/.cache/fetchedresults` (an `XDG_CACHE_HOME` that is not an absolute path is ignored).
    public static var defaultCacheDirectory: String { ResultsCache.defaultDirectory }

    /// Deletes the cache named `name` (all caches when nil) in `directory`
    /// (default ``defaultCacheDirectory``).
    ///
    ///     FetchedResultsController.deleteCache(named: "books-by-title")
    public static func deleteCache(named name: String?, in directory: String? = nil) {
        ResultsCache.delete(name: name, directory: directory)
    }
}
