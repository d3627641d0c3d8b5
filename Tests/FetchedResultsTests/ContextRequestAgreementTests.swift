import SQLiteStore
import TestSupport
import Testing

@testable import FetchedResults

/// `ObjectContext.fetch(_:)` and `count(_:)` of a request give what a controller fetches for
/// the same request: the same objects in the same order, on random data, predicates and sorts.
@Suite("ObjectContext requests agree with the controller")
struct ContextRequestAgreementTests {
    @Test(arguments: PredicateAgreementTests.seeds)
    func aRandomRequestFetchesWhatTheControllerFetches(seed: UInt64) throws {
        let t = try TempStore()
        var rng = SeededGenerator(seed: seed)
        try PredicateAgreementTests.populate(t, rows: 150, rng: &rng)
        var gen = PredicateAgreementTests.Generator(rng: SeededGenerator(seed: seed &* 17 &+ 3))
        let rounds = PredicateAgreementTests.isQuick ? 10 : 40
        for n in 0..<rounds {
            var request = FetchRequest(entity: "FailedBankInfo")
            if !gen.chance(4) { request.predicate = FetchPredicate(gen.expression()) }
            for _ in 0..<Int.random(in: 1...3, using: &gen.rng) {
                request.sortDescriptors.append(
                    FetchSort(
                        gen.pick(PredicateAgreementTests.keyPaths),
                        ascending: gen.chance(2),
                        comparison: gen.chance(2) ? .binary : .caseInsensitive,
                        nulls: gen.chance(3) ? .greatest : .least
                    )
                )
            }
            if gen.chance(3) { request.fetchLimit = Int.random(in: 1...40, using: &gen.rng) }
            if gen.chance(3) { request.fetchOffset = Int.random(in: 0...60, using: &gen.rng) }
            let controller = FetchedResultsController(fetchRequest: request, context: t.context)
            try controller.performFetch()
            let expected = controller.fetchedObjects.objectIDs
            let fetched = try t.context.fetch(request).map(\.objectID)
            #expect(fetched == expected, "seed \(seed) #\(n): \(request)")
            #expect(try t.context.count(request) == expected.count, "seed \(seed) #\(n): \(request)")
        }
    }

    @Test func aRequestWithoutSortsGivesTheObjectsInIDOrder() throws {
        let t = try TempStore()
        var rng = SeededGenerator(seed: 5)
        try PredicateAgreementTests.populate(t, rows: 30, rng: &rng)
        let request = FetchRequest(entity: "FailedBankInfo", predicate: try FetchPredicate("state ==[c] 'ca'"))
        let ids = try t.context.fetch(request).map(\.objectID.rowID)
        #expect(ids == ids.sorted())
        #expect(try t.context.count(request) == t.context.count("FailedBankInfo", where: "state = 'CA' COLLATE NOCASE"))
        #expect(throws: StoreError.self) { try t.context.fetch(FetchRequest(entity: "Nothing")) }
    }
}
