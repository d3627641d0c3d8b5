import Foundation
import SQLiteStore
import TestSupport
import Testing

@_spi(Benchmark) @testable import FetchedResults

/// `startInBackground(.prepareForChanges)`: the per-row prefixes are built on the
/// store's second connection while the caller goes on; the next change set
/// uses them, and gives exactly the batch a controller building them itself
/// would give. When the results moved in between, the job's work is dropped.
@Suite struct BackgroundPreparationTests {
    static func byDate() -> FetchRequest {
        var r = FetchRequest(entity: "FailedBankInfo")
        r.sortDescriptors = [
            FetchSort("details.closeDate", ascending: false), FetchSort("name", comparison: .caseInsensitive),
        ]
        return r
    }

    /// 2,000 banks over ten years, written on a second connection (as an importer would).
    static func filledStore() throws -> TempStore {
        let t = try TempStore()
        let (other, _) = try t.secondConnection()
        try other.database.transaction {
            for i in 0..<2000 {
                try other.database.run(
                    "INSERT INTO failed_bank_info(name, city, state) VALUES (?, 'Springfield', 'IL')",
                    [.text("Bank \(i % 700)")]
                )
                let id = other.database.lastInsertRowID
                try other.database.run(
                    "INSERT INTO failed_bank_details(close_date, cert, info_id) VALUES (?, ?, ?)",
                    [
                        .text(String(format: "%04d-%02d-%02d", 2000 + i % 10, 1 + i % 12, 1 + i % 28)),
                        .integer(Int64(i + 1)), .integer(id),
                    ]
                )
            }
        }
        _ = try t.context.processExternalChanges()
        return t
    }

    /// Moves `count` banks to new closing dates through the context (one save).
    static func moveBanks(_ t: TempStore, count: Int, seed: Int) throws {
        let ids = try t.store.database.query("SELECT id FROM failed_bank_info ORDER BY id").map { $0[0].int64! }
        for k in 0..<count {
            let id = ids[(k * 37 + seed * 101) % ids.count]
            guard let info = try t.context.object(with: ObjectID(entity: "FailedBankInfo", rowID: id)),
                let details = info.related("details")
            else { continue }
            details["closeDate"] = .text(
                String(format: "%04d-%02d-%02d", 1995 + (k + seed) % 20, 1 + k % 12, 1 + k % 28)
            )
        }
        try t.context.save()
    }

    @Test func theNextChangeSetUsesPrefixesBuiltInTheBackgroundAndGivesTheSameBatch() throws {
        let t = try Self.filledStore()
        let background = FetchedResultsController(
            fetchRequest: Self.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        let inline = FetchedResultsController(
            fetchRequest: Self.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        var fromBackground: [ChangeBatch] = []
        var fromInline: [ChangeBatch] = []
        background.onChange = { fromBackground.append($0) }
        inline.onChange = { fromInline.append($0) }
        try background.performFetch()
        try inline.performFetch()
        let before = Snapshot(background)
        #expect(background.startInBackground(.prepareForChanges) == .started)
        #expect(background.prefixJob != nil, "the job should be running on the store's second connection")

        try Self.moveBanks(t, count: 300, seed: 1)

        #expect(background.statistics.keyBuilds == 1 && inline.statistics.keyBuilds == 1)
        #expect(fromBackground.count == 1 && fromBackground == fromInline)
        let fresh = FetchedResultsController(
            fetchRequest: Self.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        try fresh.performFetch()
        #expect(try BatchChecker.apply(fromBackground[0], to: before) == Snapshot(fresh))
        #expect(Snapshot(background) == Snapshot(fresh))

        // Later change sets go on incrementally with the same prefixes.
        try Self.moveBanks(t, count: 40, seed: 2)
        #expect(background.statistics.keyBuilds == 1 && background.statistics.refetches == 0)
        #expect(fromBackground == fromInline)
    }

    @Test func aDeferringControllerBuildsNoPrefixesUntilAChangeIsComingThenGivesTheSameBatch() throws {
        let t = try Self.filledStore()
        let deferring = FetchedResultsController(
            fetchRequest: Self.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        deferring.defersPreparationForChanges = true
        let inline = FetchedResultsController(
            fetchRequest: Self.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        var fromDeferring: [ChangeBatch] = []
        var fromInline: [ChangeBatch] = []
        deferring.onChange = { fromDeferring.append($0) }
        inline.onChange = { fromInline.append($0) }
        try deferring.performFetch()
        try inline.performFetch()
        // After the first screen: nothing is built, no memory is spent on prefixes.
        #expect(deferring.startInBackground(.prepareForChanges) == .notNeeded)
        #expect(deferring.prefixJob == nil && !deferring.list.hasKeys && deferring.backgroundWork.isEmpty)
        // A change is coming: the pass runs in the background, and the change set uses it.
        deferring.defersPreparationForChanges = false
        #expect(deferring.startInBackground(.prepareForChanges) == .started)
        #expect(deferring.prefixJob != nil)
        while deferring.backgroundWork.contains(.prepareForChanges) { usleep(1_000) }
        try Self.moveBanks(t, count: 300, seed: 4)
        #expect(deferring.statistics.keyBuilds == 1 && deferring.list.hasKeys)
        #expect(fromDeferring.count == 1 && fromDeferring == fromInline)
    }

    @Test func aJobOverResultsThatWereRefetchedMeanwhileIsNotUsed() throws {
        let t = try Self.filledStore()
        let c = FetchedResultsController(
            fetchRequest: Self.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        var batches: [ChangeBatch] = []
        c.onChange = { batches.append($0) }
        try c.performFetch()
        c.startInBackground(.prepareForChanges)
        // Another process rewrites a bank; the results are fetched again before any change set.
        let (other, _) = try t.secondConnection()
        try other.database.run("UPDATE failed_bank_details SET close_date = '1990-01-01' WHERE info_id = 5")
        try c.performFetch()
        let before = Snapshot(c)
        try Self.moveBanks(t, count: 10, seed: 3)
        let fresh = FetchedResultsController(
            fetchRequest: Self.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        try fresh.performFetch()
        #expect(batches.count == 1)
        #expect(try BatchChecker.apply(batches[0], to: before) == Snapshot(fresh))
    }

    @Test func droppingEverythingWhileAJobRunsLeavesNoWALBehind() throws {
        // A store of our own, dropped with a job in flight.
        let own = TemporaryDirectory("frc-prep")
        defer { own.remove() }
        let file = own.path("banks.sqlite")
        do {
            let store = try Store(path: file, model: BankModel.model)
            try store.database.transaction {
                for i in 0..<5000 {
                    try store.database.run(
                        "INSERT INTO failed_bank_info(name, city, state) VALUES (?, 'X', 'IL')",
                        [.text("Bank \(i)")]
                    )
                }
            }
            let context = ObjectContext(store: store)
            var r = FetchRequest(entity: "FailedBankInfo")
            r.sortDescriptors = [FetchSort("name", comparison: .caseInsensitive)]
            let c = FetchedResultsController(fetchRequest: r, context: context)
            c.onChange = { _ in }
            try c.performFetch()
            c.startInBackground(.prepareForChanges)
            #expect(c.prefixJob != nil)
        }
        #expect(!FileManager.default.fileExists(atPath: file + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: file + "-shm"))
        #expect(FileManager.default.fileExists(atPath: file))
    }
}
