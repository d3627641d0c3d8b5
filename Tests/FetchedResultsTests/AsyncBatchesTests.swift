import Foundation
import SQLiteStore
import Testing

@_spi(Benchmark) @testable import FetchedResults

@Suite struct AsyncBatchesTests {
    private func controller(_ t: TempStore) throws -> FetchedResultsController {
        var r = FetchRequest(entity: "FailedBankInfo")
        r.sortDescriptors = [FetchSort("name", comparison: .caseInsensitive)]
        let c = FetchedResultsController(fetchRequest: r, context: t.context, sectionNameKeyPath: "initial")
        try c.performFetch()
        return c
    }

    @Test func aSequenceTurnsTrackingOnAndYieldsTheSameBatchesAsOnChange() async throws {
        let t = try TempStore()
        for n in ["Apex", "Banana"] { try t.addBank(n) }
        let c = try controller(t)
        #expect(!c.isTracking)
        let batches = c.changeBatches()
        #expect(c.isTracking)
        var delivered: [ChangeBatch] = []
        c.onChange = { delivered.append($0) }
        try t.addBank("Cherry")
        try t.addBank("Avocado")
        var received: [ChangeBatch] = []
        for await batch in batches {
            received.append(batch)
            if received.count == 2 { break }
        }
        #expect(received == delivered)
        #expect(received[0].sectionChanges == [.init(change: .insert, index: 2, name: "C")])
        #expect(received[1].counts == [2, 1, 1])
    }

    @Test func everySequenceReceivesEveryBatchAndAFinishedOneIsDropped() async throws {
        let t = try TempStore()
        try t.addBank("Apex")
        let c = try controller(t)
        let first = c.changeBatches()
        let second = c.changeBatches()
        try t.addBank("Banana")
        var firstIterator = first.makeAsyncIterator()
        var secondIterator = second.makeAsyncIterator()
        #expect(await firstIterator.next()?.counts == [1, 1])
        #expect(await secondIterator.next()?.counts == [1, 1])
        do {
            _ = consume second
            _ = consume secondIterator
        }  // the second sequence's consumer goes away
        try t.addBank("Cherry")
        #expect(await firstIterator.next()?.counts == [1, 1, 1])
        #expect(c.batchContinuations.count == 1)
    }

    @Test func theSequenceEndsWhenTheControllerGoesAway() async throws {
        let t = try TempStore()
        try t.addBank("Apex")
        var c: FetchedResultsController? = try controller(t)
        let batches = c!.changeBatches()
        c = nil
        var iterator = batches.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }
}
