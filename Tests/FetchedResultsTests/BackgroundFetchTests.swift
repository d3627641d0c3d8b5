import Foundation
import SQLiteStore
import Synchronization
import Testing

@_spi(Benchmark) @testable import FetchedResults

/// The first fetch on the store's second connection (`startInBackground(.fetch)`): the
/// same results as `performFetch`, and writes that land while it runs — before or after
/// its snapshot, by another connection or by the controller's own context — are never lost.
@Suite("Background first fetch")
struct BackgroundFetchTests {
    typealias Foreign = ForeignBackgroundRefetchTests

    static func controller(_ store: Store, context: ObjectContext? = nil) -> FetchedResultsController {
        let config = Foreign.byGroup()
        return FetchedResultsController(
            fetchRequest: config.0,
            context: context ?? ObjectContext(store: store),
            sectionNameKeyPath: config.1
        )
    }

    @Test func itFetchesWhatPerformFetchFetches() throws {
        var rng = Foreign.Seeded(mix: SplitMix(seed: 0xBF_0001))
        let file = try Foreign.ForeignFile()
        for _ in 0..<80 { try Foreign.randomWrite(file.writer, &rng) }
        let store = try file.store()
        let controller = Self.controller(store)
        #expect(controller.startInBackground(.fetch) == .started)
        #expect(controller.backgroundWork == [.fetch])
        #expect(controller.numberOfObjects == 0)
        #expect(try controller.waitForBackgroundWork() == .fetched)
        #expect(controller.backgroundWork.isEmpty)
        #expect(try controller.pollBackgroundWork() == nil)
        #expect(Snapshot(controller) == (try Foreign.fresh(store, Foreign.byGroup())))
    }

    @Test func finishReturnsFalseUntilTheQueryIsDoneThenInstallsOnce() throws {
        let file = try Foreign.ForeignFile()
        try file.writer.execute(
            """
            WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 20000)
            INSERT INTO "the items" SELECT 'item ' || i, CASE i % 3 WHEN 0 THEN 'fruit' ELSE 'nuts' END, i % 10 FROM k;
            """
        )
        let store = try file.store()
        let controller = Self.controller(store)
        let done = Atomic(false)
        #expect(controller.startInBackground(.fetch, onFinish: { done.store(true, ordering: .releasing) }) == .started)
        var polls = 0
        while try controller.pollBackgroundWork() != .fetched {
            polls += 1
            usleep(1000)
            #expect(polls < 30_000, "the background fetch never ended")
            if polls >= 30_000 { return }
        }
        let finished = done.load(ordering: .acquiring)
        #expect(finished)
        #expect(controller.numberOfObjects == 20000)
        #expect(controller.sections.map(\.name) == ["fruit", "nuts"])
    }

    @Test(arguments: [false, true])
    func writesWhileItRunsAreNeverLost(_ tracked: Bool) throws {
        let seed: UInt64 = tracked ? 0xBF_0003 : 0xBF_0002
        var rng = Foreign.Seeded(mix: SplitMix(seed: seed))
        let file = try Foreign.ForeignFile()
        for _ in 0..<40 { try Foreign.randomWrite(file.writer, &rng) }
        let base = try file.store()
        if tracked { try base.installTracking(forTables: ["the items"]) }
        for round in 0..<60 {
            let store = try file.store()
            let context = ObjectContext(store: store)
            let controller = Self.controller(store, context: context)
            controller.refetchesInBackgroundOnReset = true
            controller.onChange = { _ in }
            #expect(controller.startInBackground(.fetch) == .started)
            // Before or after the worker's snapshot: the race is the point.
            for _ in 0..<Int.random(in: 0...3, using: &rng) { try Foreign.randomWrite(file.writer, &rng) }
            try controller.waitForBackgroundWork()
            #expect(controller.hasFetched)
            for _ in 0..<Int.random(in: 0...2, using: &rng) { try Foreign.randomWrite(file.writer, &rng) }
            try context.processExternalChanges()
            try controller.waitForBackgroundWork()
            let expected = try Foreign.fresh(store, Foreign.byGroup())
            #expect(Snapshot(controller) == expected, "seed \(seed) round \(round)")
            if Snapshot(controller) != expected { return }
        }
    }

    @Test func anOwnSaveWhileItRunsIsFollowedByARefetch() throws {
        var rng = Foreign.Seeded(mix: SplitMix(seed: 0xBF_0004))
        let file = try Foreign.ForeignFile()
        for _ in 0..<60 { try Foreign.randomWrite(file.writer, &rng) }
        let store = try file.store()
        let context = ObjectContext(store: store)
        let controller = Self.controller(store, context: context)
        var batches = 0
        controller.onChange = { _ in batches += 1 }
        let victim = try #require(try context.fetch("items", limit: 1).first)
        #expect(controller.startInBackground(.fetch) == .started)
        context.delete(victim)
        try context.save()
        try controller.waitForBackgroundWork()
        let expected = try Foreign.fresh(store, Foreign.byGroup())
        #expect(Snapshot(controller) == expected)
        #expect(controller.indexPath(for: victim.objectID) == nil)
    }

    @Test func aBadRequestThrowsAtOnceAndAnInMemoryStoreSaysNo() throws {
        let file = try Foreign.ForeignFile()
        let store = try file.store()
        var request = FetchRequest(entity: "items")
        request.sortDescriptors = [FetchSort("no such column")]
        let bad = FetchedResultsController(fetchRequest: request, context: ObjectContext(store: store))
        #expect(bad.startInBackground(.fetch) == .unavailable)
        #expect(bad.backgroundWork.isEmpty)
        #expect(throws: (any Error).self) { try bad.performFetch() }

        let model = Model(
            version: 1,
            applicationID: 0,
            entities: [Entity("Item", attributes: [Attribute("name", .text)])]
        )
        var byName = FetchRequest(entity: "Item")
        byName.sortDescriptors = [FetchSort("name")]
        let memory = try Store(path: ":memory:", model: model)
        let controller = FetchedResultsController(fetchRequest: byName, context: ObjectContext(store: memory))
        #expect(controller.startInBackground(.fetch) == .unavailable)
        #expect(controller.backgroundWork.isEmpty)
    }

    @Test func performFetchReplacesARunningOne() throws {
        var rng = Foreign.Seeded(mix: SplitMix(seed: 0xBF_0005))
        let file = try Foreign.ForeignFile()
        for _ in 0..<40 { try Foreign.randomWrite(file.writer, &rng) }
        let store = try file.store()
        let controller = Self.controller(store)
        #expect(controller.startInBackground(.fetch) == .started)
        try controller.performFetch()
        #expect(controller.backgroundWork.isEmpty)
        #expect(try controller.waitForBackgroundWork() == nil)
        #expect(Snapshot(controller) == (try Foreign.fresh(store, Foreign.byGroup())))
    }
}
