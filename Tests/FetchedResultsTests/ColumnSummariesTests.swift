import Foundation
import SQLiteStore
import Synchronization
import TestSupport
import Testing

@testable import FetchedResults

/// The summary sheet's figures (`I`): exact, from every row the request selects, read on the
/// store's second connection, each column's summary there as soon as it is read, and the owner
/// woken to show it.
@Suite struct ColumnSummariesTests {
    /// Funds 1, 2, 2, 4, 10 and NULL (a bank with details and no fund, one without details);
    /// one bank in Texas with a fund of 100.
    static func store() throws -> TempStore {
        let t = try TempStore()
        for (index, fund) in [1, 2, 2, 4, 10].enumerated() {
            try t.addBank("bank \(index)", state: "IL", fund: Int64(fund), save: false)
        }
        try t.addBank("no fund", state: "IL", save: false)
        try t.addBank("no details", state: "IL", closeDate: nil, save: false)
        try t.addBank("texan", state: "TX", fund: 100, save: false)
        try t.context.save()
        return t
    }

    @Test func theFiguresAreExactOverTheRowsThePredicateSelects() throws {
        let t = try Self.store()
        let request = FetchRequest(entity: "FailedBankInfo", predicate: try FetchPredicate("state == 'IL'"))
        let fund = try #require(
            try ColumnSummary.read(
                keyPath: "details.fund",
                request: request,
                model: t.store.model,
                on: t.store.database
            )
        )
        #expect(fund.rows == 7 && fund.nulls == 2 && fund.values == 5)
        #expect(fund.distinct == 4)
        #expect(fund.minimum == .integer(1) && fund.maximum == .integer(10))
        #expect(fund.numbers == 5)
        #expect(fund.mean == 3.8)
        #expect(fund.median == 2)
        // Sample deviation (n − 1): squares 7.84 + 3.24 + 3.24 + 0.04 + 38.44 = 52.8, over 4.
        let stdev = try #require(fund.standardDeviation)
        #expect(abs(stdev - (52.8 / 4).squareRoot()) < 1e-12)
        // Text: no mean, median or deviation; the least and greatest in SQLite's order.
        let name = try #require(
            try ColumnSummary.read(keyPath: "name", request: request, model: t.store.model, on: t.store.database)
        )
        #expect(name.rows == 7 && name.nulls == 0 && name.distinct == 7)
        #expect(name.minimum == .text("bank 0") && name.maximum == .text("no fund"))
        #expect(name.numbers == 0 && name.mean == nil && name.median == nil && name.standardDeviation == nil)
        // An even count of numbers: the median is the mean of the middle two (2 and 4 with Texas's 100 in).
        let all = try #require(
            try ColumnSummary.read(
                keyPath: "details.fund",
                request: FetchRequest(entity: "FailedBankInfo"),
                model: t.store.model,
                on: t.store.database
            )
        )
        #expect(all.numbers == 6 && all.median == 3 && all.maximum == .integer(100))
    }

    @Test func theReadRunsOnTheSecondConnectionAndWakesItsOwnerAsEachColumnIsRead() throws {
        let t = try Self.store()
        let summaries = ColumnSummaries(
            keyPaths: ["name", "details.fund"],
            request: FetchRequest(entity: "FailedBankInfo"),
            context: t.context
        )
        let wakes = Mutex(0)
        let finished = DispatchSemaphore(value: 0)
        summaries.onProgress = { [unowned summaries] in
            wakes.withLock { $0 += 1 }
            if summaries.isFinished { finished.signal() }
        }
        // Another job holds the second connection: busy, nothing read, nobody woken.
        let lease = try #require(t.store.acquireReaderConnection())
        #expect(summaries.start() == .busy)
        #expect(summaries.summaries.allSatisfy { $0 == nil } && wakes.withLock { $0 } == 0)
        lease.release()
        #expect(summaries.start() == .started)
        #expect(finished.wait(timeout: .now() + 20) == .success, "the end wakes the owner")
        #expect(summaries.error == nil && summaries.progress == 1)
        #expect(summaries.summaries.map { $0?.rows } == [8, 8])
        #expect(summaries.summaries[1]?.maximum == .integer(100))
        // Each column's summary, then the end: at least three wakes.
        #expect(wakes.withLock { $0 } >= 3)
        #expect(summaries.start() == .notNeeded, "read once")
    }
}
