import Foundation
import SQLiteStore
import Testing

@_spi(Benchmark) @testable import FetchedResults

/// `startInBackground(.warmCache)`: a controller's results cache is filled on the
/// store's second connection without fetching into the controller; a later
/// fetch with the same request reads it (rule 8 of FetchedResults.docc/ChangeBatches.md), and data committed since
/// makes it stale as any change does.
@Suite struct CacheWarmingTests {
    static func byName() -> FetchRequest {
        var r = FetchRequest(entity: "FailedBankInfo")
        r.sortDescriptors = [FetchSort("name", comparison: .caseInsensitive)]
        return r
    }

    static func filled() throws -> TempStore {
        let t = try TempStore()
        for i in 0..<300 { try t.addBank("Bank \(i % 97) \(i)", closeDate: "20\(10 + i % 7)-03-04", save: false) }
        try t.context.save()
        return t
    }

    func controller(_ t: TempStore) -> FetchedResultsController {
        FetchedResultsController(
            fetchRequest: Self.byName(),
            context: t.context,
            sectionNameKeyPath: "initial",
            cacheName: "by-name",
            cacheDirectory: t.cacheDirectory
        )
    }

    @Test func aWarmedCacheIsReadByTheNextFetchAndEqualsAFreshOne() throws {
        let t = try Self.filled()
        let warming = controller(t)
        try #require(warming.startInBackground(.warmCache) == .started)
        #expect(warming.backgroundWork == [.warmCache] || warming.backgroundWork.isEmpty)
        #expect(try warming.waitForBackgroundWork() == nil, "nothing is installed into the warming controller")
        #expect(!warming.hasFetched && warming.backgroundWork.isEmpty)
        #expect(controller(t).hasValidCache())
        #expect(controller(t).startInBackground(.warmCache) == .notNeeded, "a valid cache is not warmed again")

        let cached = controller(t)
        try cached.performFetch()
        #expect(cached.lastFetchUsedCache)
        let fresh = FetchedResultsController(
            fetchRequest: Self.byName(),
            context: t.context,
            sectionNameKeyPath: "initial"
        )
        try fresh.performFetch()
        #expect(Snapshot(cached) == Snapshot(fresh))
    }

    @Test func dataCommittedAfterWarmingMakesTheCacheStale() throws {
        let t = try Self.filled()
        let warming = controller(t)
        try #require(warming.startInBackground(.warmCache) == .started)
        try warming.waitForBackgroundWork()
        try t.addBank("AAA new bank")
        let c = controller(t)
        #expect(!c.hasValidCache())
        try c.performFetch()
        #expect(!c.lastFetchUsedCache)
        #expect(c.fetchedObjects.count == 301)
    }

    @Test func aBusySecondConnectionOrNoCacheNameIsSaidSo() throws {
        let t = try Self.filled()
        let lease = try #require(t.store.acquireReaderConnection())
        #expect(controller(t).startInBackground(.warmCache) == .busy)
        lease.release()
        let uncached = FetchedResultsController(fetchRequest: Self.byName(), context: t.context)
        #expect(uncached.startInBackground(.warmCache) == .unavailable)
    }

    @Test func fetchingFromTheCacheOnlyFetchesWhenItIsValidAndOtherwiseChangesNothing() throws {
        let t = try Self.filled()
        let cold = controller(t)
        #expect(try !cold.performFetchFromCache())
        #expect(!cold.hasFetched && cold.fetchedObjects.count == 0)
        try cold.performFetch()  // writes the cache
        let warm = controller(t)
        #expect(try warm.performFetchFromCache())
        #expect(warm.lastFetchUsedCache && Snapshot(warm) == Snapshot(cold))
    }
}
