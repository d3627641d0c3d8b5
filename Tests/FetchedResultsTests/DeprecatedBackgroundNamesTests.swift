import Foundation
import SQLiteStore
import Testing

@_spi(Benchmark) @testable import FetchedResults

/// The background work's former names, kept one release for packages written against them,
/// still do what they did: each forwards to the one concept (`BackgroundWork`). The bodies are
/// in ``FormerNames``, deprecated itself, so that each test warns once rather than per call.
@Suite("Background work: the former names")
struct DeprecatedBackgroundNamesTests {
    @Test func theFormerFetchAndRefetchCallsStillFetchRefetchAndDeliver() throws {
        try FormerNames.fetchAndRefetch()
    }

    @Test func theFormerPreparationAndWarmingCallsStillPrepareAndWarm() throws {
        try FormerNames.prepareAndWarm()
    }
}

@available(*, deprecated, message: "calls the deprecated forwarders")
enum FormerNames {
    typealias Foreign = ForeignBackgroundRefetchTests

    static func fetchAndRefetch() throws {
        var rng = Foreign.Seeded(mix: SplitMix(seed: 0xB6_0101))
        let file = try Foreign.ForeignFile()
        for _ in 0..<40 { try Foreign.randomWrite(file.writer, &rng) }
        let store = try file.store()
        let controller = BackgroundFetchTests.controller(store)
        var delivered: [ChangeBatch] = []
        controller.onChange = { delivered.append($0) }
        #expect(try controller.performFetchInBackground())
        #expect(controller.isFetchingInBackground)
        #expect(try controller.waitForBackgroundFetch())
        #expect(!controller.isFetchingInBackground && controller.hasFetched)
        #expect(try !controller.finishBackgroundFetch())

        try file.writer.run("INSERT INTO \"the items\" VALUES ('new one', 'fruit', 1)")
        #expect(controller.refetchInBackground())
        #expect(controller.isRefetchingInBackground)
        controller.cancelBackgroundRefetch()
        _ = try controller.waitForBackgroundRefetch()
        #expect(!controller.isRefetchingInBackground && delivered.count == 1)
        #expect(try controller.deliverFinishedRefetch() == nil)
        #expect(Snapshot(controller) == (try Foreign.fresh(store, Foreign.byGroup())))
    }

    static func prepareAndWarm() throws {
        let t = try CacheWarmingTests.filled()
        let warming = FetchedResultsController(
            fetchRequest: CacheWarmingTests.byName(),
            context: t.context,
            sectionNameKeyPath: "initial",
            cacheName: "by-name",
            cacheDirectory: t.cacheDirectory
        )
        guard case .started(let handle) = warming.warmCacheInBackground() else {
            Issue.record("the warming did not start")
            return
        }
        #expect(handle.wait())
        guard case .alreadyValid = warming.warmCacheInBackground() else {
            Issue.record("a valid cache is warmed again")
            return
        }

        let deferring = FetchedResultsController(fetchRequest: CacheWarmingTests.byName(), context: t.context)
        deferring.defersPreparationForChanges = true
        try deferring.performFetch()
        deferring.prepareForChangesInBackground()
        #expect(deferring.prefixJob == nil)
        deferring.prepareForChangesInBackground(evenIfDeferred: true)
        #expect(deferring.prefixJob != nil && deferring.defersPreparationForChanges)
        while deferring.isPreparingForChanges { usleep(1_000) }
    }
}
