import Foundation
import SQLiteStore
import Testing

@_spi(Benchmark) @testable import FetchedResults

/// A small change set that arrives before the per-row prefixes exist (right
/// after a fetch) is placed without them: each changed row's place is a binary
/// search reading a few rows' values, instead of a pass over every row first.
/// The batch is the one a controller with prefixes gives.
@Suite struct KeylessPlacementTests {
    @Test func aSmallFirstChangeSetBuildsNoPrefixesAndGivesTheBatchOfAControllerWithThem() throws {
        let t = try BackgroundPreparationTests.filledStore()
        let keyless = FetchedResultsController(
            fetchRequest: BackgroundPreparationTests.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        let prepared = FetchedResultsController(
            fetchRequest: BackgroundPreparationTests.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        var fromKeyless: [ChangeBatch] = []
        var fromPrepared: [ChangeBatch] = []
        keyless.onChange = { fromKeyless.append($0) }
        prepared.onChange = { fromPrepared.append($0) }
        try keyless.performFetch()
        try prepared.performFetch()
        try prepared.prepareForChanges()
        let before = Snapshot(keyless)

        try BackgroundPreparationTests.moveBanks(t, count: 3, seed: 7)

        #expect(keyless.statistics.keyBuilds == 0, "the first small change set should not build every row's prefix")
        #expect(keyless.statistics.refetches == 0)
        // log₂ 2,000 ≈ 11 probes per row placed, a few more where names and dates tie.
        #expect(keyless.statistics.probeReads <= 3 * 16)
        #expect(fromKeyless.count == 1 && fromKeyless == fromPrepared)
        let fresh = FetchedResultsController(
            fetchRequest: BackgroundPreparationTests.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        try fresh.performFetch()
        #expect(try BatchChecker.apply(fromKeyless[0], to: before) == Snapshot(fresh))
        #expect(Snapshot(keyless) == Snapshot(fresh))
    }

    @Test func smallAndLargeChangeSetsInTurnStayEqualToAFreshFetch() throws {
        let t = try BackgroundPreparationTests.filledStore()
        let c = FetchedResultsController(
            fetchRequest: BackgroundPreparationTests.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        var batches: [ChangeBatch] = []
        c.onChange = { batches.append($0) }
        try c.performFetch()
        // Small sets (placed without prefixes, a background build restarted after each), then a
        // large one (which waits for or builds the prefixes), then small ones with prefixes.
        for (round, count) in [1, 5, 16, 1, 300, 2, 1].enumerated() {
            let before = Snapshot(c)
            batches.removeAll()
            try BackgroundPreparationTests.moveBanks(t, count: count, seed: 11 + round)
            let fresh = FetchedResultsController(
                fetchRequest: BackgroundPreparationTests.byDate(),
                context: t.context,
                sectionNameKeyPath: "details.closeYear"
            )
            try fresh.performFetch()
            #expect(batches.count == 1, "round \(round): \(count) changes")
            if let batch = batches.first {
                #expect(try BatchChecker.apply(batch, to: before) == Snapshot(fresh), "round \(round)")
            }
            #expect(Snapshot(c) == Snapshot(fresh), "round \(round)")
        }
        #expect(c.statistics.refetches == 0)
    }
}
