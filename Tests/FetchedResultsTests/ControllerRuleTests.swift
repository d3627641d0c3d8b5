import Foundation
import SQLiteStore
import Testing

@_spi(Benchmark) @testable import FetchedResults

/// The controller's rules 1, 3, 5, 7, 8 and 9 (FetchedResults.docc/ChangeBatches.md), one behaviour per test.
@Suite("Fetched results controller rules")
struct ControllerRuleTests {
    static func byDate(batchSize: Int = 20) -> FetchRequest {
        var r = FetchRequest(entity: "FailedBankInfo")
        r.sortDescriptors = [
            FetchSort("details.closeDate", ascending: false), FetchSort("name", comparison: .caseInsensitive),
        ]
        r.fetchBatchSize = batchSize
        return r
    }

    /// ``byDate(batchSize:)`` over `t`'s banks in sections by closing year, fetched.
    static func fetchedByYear(_ t: TempStore) throws -> FetchedResultsController {
        let frc = FetchedResultsController(
            fetchRequest: byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        try frc.performFetch()
        return frc
    }

    static func byState() -> FetchRequest {
        var r = FetchRequest(entity: "FailedBankInfo")
        r.sortDescriptors = [FetchSort("state"), FetchSort("name", comparison: .caseInsensitive)]
        return r
    }

    /// Collects what a delegate hears, in order.
    final class Recorder: FetchedResultsControllerDelegate {
        var calls: [String] = []
        var titles: [String: String] = [:]
        func controllerWillChangeContent(_ c: FetchedResultsController) { calls.append("will") }
        func controller(
            _ c: FetchedResultsController,
            didChange section: SectionInfo,
            atSectionIndex i: Int,
            for type: ChangeType
        ) {
            calls.append("section \(type) \(i) \(section.name)")
        }
        func controller(
            _ c: FetchedResultsController,
            didChange id: ObjectID,
            at from: IndexPath?,
            for type: ChangeType,
            newIndexPath to: IndexPath?
        ) {
            calls.append("object \(type) \(id.rowID) \(from.map { "\($0)" } ?? "-") \(to.map { "\($0)" } ?? "-")")
        }
        func controllerDidChangeContent(_ c: FetchedResultsController) { calls.append("did") }
        func controller(_ c: FetchedResultsController, sectionIndexTitleForSectionName name: String) -> String? {
            titles[name]
        }
    }

    // MARK: Rule 1

    @Test func performFetchWithoutSortDescriptorsThrows() throws {
        let t = try TempStore()
        let c = FetchedResultsController(fetchRequest: FetchRequest(entity: "FailedBankInfo"), context: t.context)
        #expect(throws: FetchedResultsError.noSortDescriptors(entity: "FailedBankInfo")) { try c.performFetch() }
    }

    @Test func sectionKeyThatIsNotTheFirstSortThrows() throws {
        let t = try TempStore()
        var r = FetchRequest(entity: "FailedBankInfo")
        r.sortDescriptors = [FetchSort("name")]
        let c = FetchedResultsController(fetchRequest: r, context: t.context, sectionNameKeyPath: "state")
        do {
            try c.performFetch()
            Issue.record("expected a rule 1 error")
        } catch let e as FetchedResultsError {
            guard case .sectionKeyNotOrdered(let section, let first, _) = e else {
                Issue.record("wrong error \(e)")
                return
            }
            #expect(section == "state" && first == "name ASC")
            #expect(e.description.contains("section key path \"state\""))
        }
    }

    @Test func caseInsensitiveFirstSortOnTheSectionKeyThrows() throws {
        let t = try TempStore()
        var r = FetchRequest(entity: "FailedBankInfo")
        r.sortDescriptors = [FetchSort("state", comparison: .caseInsensitive)]
        let c = FetchedResultsController(fetchRequest: r, context: t.context, sectionNameKeyPath: "state")
        #expect(throws: FetchedResultsError.self) { try c.performFetch() }
    }

    @Test func sectionKeyDerivedFromTheFirstSortIsAccepted() throws {
        let t = try TempStore()
        try t.addBank("A", closeDate: "2009-03-01")
        try t.addBank("B", closeDate: "2011-07-01")
        try t.addBank("C", closeDate: "2009-12-31")
        let c = FetchedResultsController(
            fetchRequest: Self.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        try c.performFetch()
        #expect(c.sections.map(\.name) == ["2011", "2009"])
        #expect(c.sections.map(\.numberOfObjects) == [1, 2])
        #expect(c.sections[1].objects.map { $0.string("name")! } == ["C", "A"])
    }

    @Test func derivedSectionKeyThatDoesNotPreserveOrderStillGivesContiguousSections() throws {
        let t = try TempStore()
        for n in ["apple", "1st Bank", "Banana", "Ébank", "zeta", "Apex"] { try t.addBank(n) }
        var r = FetchRequest(entity: "FailedBankInfo")
        r.sortDescriptors = [FetchSort("name", comparison: .caseInsensitive)]
        let c = FetchedResultsController(fetchRequest: r, context: t.context, sectionNameKeyPath: "initial")
        try c.performFetch()
        #expect(c.sections.map(\.name) == ["#", "A", "B", "Z"])
        #expect(
            c.sections.map { $0.objects.map { $0.string("name")! } } == [
                ["1st Bank", "Ébank"], ["Apex", "apple"], ["Banana"], ["zeta"],
            ]
        )
        var batches: [ChangeBatch] = []
        c.onChange = { batches.append($0) }
        let zeta = try t.context.fetch("FailedBankInfo", where: "name = 'zeta'")[0]
        zeta["name"] = .text("_zeta")  // sorts after "Ébank"? no: '_' < 'É'; it joins "#"
        try t.context.save()
        #expect(c.sections.map(\.name) == ["#", "A", "B"])
        #expect(c.sections[0].objects.map { $0.string("name")! } == ["1st Bank", "_zeta", "Ébank"])
        #expect(batches.first?.sectionChanges == [.init(change: .delete, index: 3, name: "Z")])
    }

    @Test func aChangeThatBreaksTheOrderOfADerivedSectionKeyIsStillPlacedInItsSection() throws {
        let t = try TempStore()
        for n in ["apple", "Banana", "zeta", "Apex"] { try t.addBank(n) }  // letters only: the initial follows the name
        var r = FetchRequest(entity: "FailedBankInfo")
        r.sortDescriptors = [FetchSort("name", comparison: .caseInsensitive)]
        let c = FetchedResultsController(fetchRequest: r, context: t.context, sectionNameKeyPath: "initial")
        try c.performFetch()
        try c.prepareForChanges()
        #expect(c.keysAreShort)
        var batches: [ChangeBatch] = []
        c.onChange = { batches.append($0) }
        let old = Snapshot(c)
        let e = try t.addBank("Ébank")  // sorts after "zeta" by name, but its section "#" comes first
        let fresh = FetchedResultsController(fetchRequest: r, context: t.context, sectionNameKeyPath: "initial")
        try fresh.performFetch()
        #expect(try BatchChecker.apply(batches[0], to: old) == Snapshot(fresh))
        #expect(c.indexPath(forObject: e) == .at(0, 0))
        #expect(Snapshot(c) == Snapshot(fresh))
        #expect(!c.mayUseShortPrefixes)
    }

    @Test func aRowChangedByAnotherWriterMidBatchFallsBackToARefetchWithACorrectBatch() throws {
        let t = try TempStore()
        let long = "Community Exchange Savings Bank of Springfield"
        let a = try t.addBank(long, closeDate: "2010-05-14")
        let b = try t.addBank(long, closeDate: "2010-05-14")
        _ = try t.addBank(long, closeDate: "2010-05-14")
        let c = FetchedResultsController(
            fetchRequest: Self.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        try c.performFetch()
        try c.prepareForChanges()
        var batches: [ChangeBatch] = []
        c.onChange = { batches.append($0) }
        let old = Snapshot(c)
        // Another writer renames b and inserts d; only d's insert is handed to the controller.
        let (other, _) = try t.secondConnection()
        try other.database.run("UPDATE failed_bank_info SET name = 'Aaa' WHERE id = ?", [.integer(b.objectID.rowID)])
        try other.database.run("INSERT INTO failed_bank_info(name, city, state) VALUES (?, 'X', 'IL')", [.text(long)])
        let d = other.database.lastInsertRowID
        try other.database.run(
            "INSERT INTO failed_bank_details(close_date, cert, info_id) VALUES ('2010-05-14', 999, ?)",
            [.integer(d)]
        )
        try c.process(ChangeSet(inserted: [ObjectID(entity: "FailedBankInfo", rowID: d)]))
        #expect(c.statistics.refetches == 1)
        let fresh = FetchedResultsController(
            fetchRequest: Self.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        try fresh.performFetch()
        #expect(batches.count == 1)
        #expect(try BatchChecker.apply(batches[0], to: old) == Snapshot(fresh))
        _ = a
    }

    @Test func unknownEntityThrows() throws {
        let t = try TempStore()
        var r = FetchRequest(entity: "Nope")
        r.sortDescriptors = [FetchSort("name")]
        #expect(throws: FetchedResultsError.unknownEntity("Nope")) {
            try FetchedResultsController(fetchRequest: r, context: t.context).performFetch()
        }
    }

    // MARK: Sections and index titles

    @Test func withoutSectionKeyThereIsExactlyOneSection() throws {
        let t = try TempStore()
        let c = FetchedResultsController(fetchRequest: Self.byDate(), context: t.context)
        try c.performFetch()
        #expect(c.sections.count == 1 && c.sections[0].numberOfObjects == 0 && c.sections[0].name == "")
        let s = FetchedResultsController(fetchRequest: Self.byState(), context: t.context, sectionNameKeyPath: "state")
        try s.performFetch()
        #expect(s.sections.isEmpty)
    }

    @Test func indexTitlesDefaultToTheUppercasedFirstCharacterWithoutDuplicates() throws {
        let t = try TempStore()
        for (n, s) in [("a", "CA"), ("b", "CO"), ("c", "TX"), ("d", "co"), ("e", "")] { try t.addBank(n, state: s) }
        let c = FetchedResultsController(fetchRequest: Self.byState(), context: t.context, sectionNameKeyPath: "state")
        try c.performFetch()
        #expect(c.sections.map(\.name) == ["", "CA", "CO", "TX", "co"])
        #expect(c.sections.map(\.indexTitle) == [nil, "C", "C", "T", "C"])
        #expect(c.sectionIndexTitles == ["C", "T"])
        #expect(c.sectionIndexTitle(forSectionName: "texas") == "T")
        #expect(c.section(forSectionIndexTitle: "C", at: 0) == 1)
        #expect(c.section(forSectionIndexTitle: "T", at: 1) == 3)
        // A title no section has jumps to the next section after it.
        #expect(c.section(forSectionIndexTitle: "D", at: 5) == 3)
        #expect(c.section(forSectionIndexTitle: "Z", at: 9) == 4)
    }

    @Test func theDelegateAndTheProviderOverrideIndexTitles() throws {
        let t = try TempStore()
        try t.addBank("A", closeDate: "2009-03-01")
        try t.addBank("B", closeDate: "2011-07-01")
        let c = FetchedResultsController(
            fetchRequest: Self.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        try c.performFetch()
        #expect(c.sectionIndexTitles == ["2"])
        c.sectionIndexTitleProvider = { $0 }
        #expect(c.sectionIndexTitles == ["2011", "2009"])
        #expect(c.section(forSectionIndexTitle: "2009", at: 1) == 1)
        #expect(!c.isTracking)
        let recorder = Recorder()
        recorder.titles = ["2011": "'11"]
        c.delegate = recorder
        #expect(c.sectionIndexTitles == ["'11", "2009"])
        #expect(c.sections[0].indexTitle == "'11")
    }

    @Test func indexPathsAndObjectsRoundTrip() throws {
        let t = try TempStore()
        let a = try t.addBank("A", closeDate: "2009-03-01")
        let b = try t.addBank("B", closeDate: "2011-07-01")
        let c = FetchedResultsController(
            fetchRequest: Self.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        try c.performFetch()
        #expect(c.indexPath(for: a.objectID) == .at(0, 1))
        #expect(c.indexPath(forObject: b) == .at(0, 0))
        #expect(c.object(at: .at(0, 1)) === a)
        #expect(c.objectID(at: .at(0, 0)) == b.objectID)
        #expect(c.objectID(at: .at(1, 0)) == nil)
        #expect(c.indexPath(for: ObjectID(entity: "FailedBankInfo", rowID: 999)) == nil)
        #expect(c.fetchedObjects.map(\.objectID) == [b.objectID, a.objectID])
    }

    @Test func aRowDeletedByAnotherProcessBeforeItsChangeSetIsNilNotACrash() throws {
        let t = try TempStore()
        _ = try t.addBank("A")
        let b = try t.addBank("B")
        var r = FetchRequest(entity: "FailedBankInfo")
        r.sortDescriptors = [FetchSort("name")]
        let context = ObjectContext(store: t.store)
        let c = FetchedResultsController(fetchRequest: r, context: context)
        try c.performFetch()
        let (other, _) = try t.secondConnection()
        try other.database.run("DELETE FROM failed_bank_info WHERE id = ?", [.integer(b.objectID.rowID)])
        #expect(c.objectID(at: .at(1, 0)) == b.objectID)  // not processed yet
        #expect(c.existingObject(at: .at(1, 0)) == nil)
        #expect(c.existingObject(at: .at(0, 0))?.string("name") == "A")
    }

    // MARK: Rules 3 and 5

    @Test func updateThatChangesSectionKeyMovesObjectAndCreatesSection() throws {
        let t = try TempStore()
        let a = try t.addBank("A", closeDate: "2010-01-01")
        let b = try t.addBank("B", closeDate: "2010-02-01")
        let c = try t.addBank("C", closeDate: "2011-05-01")
        let frc = try Self.fetchedByYear(t)
        var batches: [ChangeBatch] = []
        frc.onChange = { batches.append($0) }
        a.related("details")!["closeDate"] = .text("2012-06-01")
        try t.context.save()
        #expect(batches.count == 1)
        let batch = batches[0]
        #expect(batch.sectionChanges == [.init(change: .insert, index: 0, name: "2012")])
        #expect(batch.objectChanges == [.init(change: .move, id: a.objectID, from: .at(1, 1), to: .at(0, 0))])
        #expect(batch.counts == [1, 1, 1])
        #expect(frc.sections.map(\.name) == ["2012", "2011", "2010"])
        _ = (b, c)
    }

    @Test func updateThatEmptiesASectionDeletesItInTheSameBatch() throws {
        let t = try TempStore()
        _ = try t.addBank("A", closeDate: "2010-01-01")
        let c = try t.addBank("C", closeDate: "2011-05-01")
        let frc = try Self.fetchedByYear(t)
        let recorder = Recorder()
        frc.delegate = recorder
        var batches: [ChangeBatch] = []
        frc.onChange = { batches.append($0) }
        c.related("details")!["closeDate"] = .text("2009-05-01")
        try t.context.save()
        #expect(
            recorder.calls == [
                "will", "section delete 0 2011", "section insert 1 2009",
                "object move \(c.objectID.rowID) [0, 0] [1, 0]", "did",
            ]
        )
        #expect(batches.first?.counts == [1, 1])
        #expect(frc.sections.map(\.name) == ["2010", "2009"])
    }

    @Test func changeThatKeepsThePositionIsAnUpdateNotAMove() throws {
        let t = try TempStore()
        let a = try t.addBank("Alpha", closeDate: "2010-01-01")
        _ = try t.addBank("Beta", closeDate: "2010-01-01")
        let frc = try Self.fetchedByYear(t)
        var batches: [ChangeBatch] = []
        frc.onChange = { batches.append($0) }
        a["name"] = .text("Aardvark")  // a sort key changes, the order does not
        try t.context.save()
        #expect(
            batches.first?.objectChanges == [.init(change: .update, id: a.objectID, from: .at(0, 0), to: .at(0, 0))]
        )
        a.related("details")!["closeDate"] = .text("2010-06-01")  // still first, same section
        try t.context.save()
        #expect(batches.last?.objectChanges == [.init(change: .update, id: a.objectID, from: .at(0, 0), to: .at(0, 0))])
    }

    @Test func predicateCrossingsBecomeInsertsAndDeletes() throws {
        let t = try TempStore()
        let a = try t.addBank("A", state: "CA")
        let b = try t.addBank("B", state: "TX")
        var r = Self.byState()
        r.predicate = try FetchPredicate("state == 'CA'")
        let frc = FetchedResultsController(fetchRequest: r, context: t.context, sectionNameKeyPath: "state")
        try frc.performFetch()
        var batches: [ChangeBatch] = []
        frc.onChange = { batches.append($0) }
        a["state"] = .text("TX")
        b["state"] = .text("CA")
        try t.context.save()
        #expect(batches.count == 1)
        #expect(batches[0].sectionChanges.isEmpty)
        #expect(
            Set(batches[0].objectChanges) == [
                .init(change: .delete, id: a.objectID, from: .at(0, 0), to: nil),
                .init(change: .insert, id: b.objectID, from: nil, to: .at(0, 0)),
            ]
        )
    }

    @Test func changeOfAKeyNoSortSectionOrPredicateReadsIsAPlainUpdate() throws {
        let t = try TempStore()
        let a = try t.addBank("A", city: "X")
        _ = try t.addBank("B")
        let frc = try Self.fetchedByYear(t)
        var batches: [ChangeBatch] = []
        frc.onChange = { batches.append($0) }
        a["city"] = .text("Y")
        try t.context.save()
        #expect(
            batches.first?.objectChanges == [.init(change: .update, id: a.objectID, from: .at(0, 0), to: .at(0, 0))]
        )
        #expect(frc.statistics.probeReads == 0)
    }

    @Test func aStoreResetRefetchesAndDiffs() throws {
        let t = try TempStore()
        _ = try t.addBank("A")
        let frc = try Self.fetchedByYear(t)
        var batches: [ChangeBatch] = []
        frc.onChange = { batches.append($0) }
        let (other, _) = try t.secondConnection()
        try other.bulkWrite { db in
            try db.run("INSERT INTO failed_bank_info(name, city, state) VALUES ('Z', 'Q', 'TX')")
            try db.run(
                "INSERT INTO failed_bank_details(close_date, cert, info_id) VALUES ('2013-01-01', 77, ?)",
                [.integer(db.lastInsertRowID)]
            )
        }
        _ = try t.context.processExternalChanges()
        #expect(batches.count == 1 && batches[0].isReset)
        #expect(batches[0].sectionChanges == [.init(change: .insert, index: 0, name: "2013")])
        #expect(frc.sections.map(\.name) == ["2013", "2010"])
        #expect(frc.statistics.refetches == 1)
    }

    @Test func limitAndOffsetAreKeptUpToDateByRefetching() throws {
        let t = try TempStore()
        for n in ["A", "B", "C", "D"] { try t.addBank(n) }
        var r = FetchRequest(entity: "FailedBankInfo")
        r.sortDescriptors = [FetchSort("name")]
        r.fetchLimit = 2
        r.fetchOffset = 1
        let frc = FetchedResultsController(fetchRequest: r, context: t.context)
        try frc.performFetch()
        #expect(frc.fetchedObjects.map { $0.string("name")! } == ["B", "C"])
        var batches: [ChangeBatch] = []
        frc.onChange = { batches.append($0) }
        try t.addBank("AA")
        #expect(frc.fetchedObjects.map { $0.string("name")! } == ["AA", "B"])
        let old = Snapshot(sections: [
            (
                "",
                try ["B", "C"].map { n in
                    try t.context.fetch("FailedBankInfo", where: "name = ?", [.text(n)])[0].objectID
                }
            )
        ])
        #expect(try BatchChecker.apply(batches[0], to: old) == Snapshot(frc))
    }

    // MARK: Rule 7

    @Test func objectsAreLoadedInBatchesAndOnlyABoundedNumberStayLoaded() throws {
        let t = try TempStore()
        for i in 0..<200 { try t.addBank(String(format: "Bank %03d", i), save: false) }
        try t.context.save()
        let context = ObjectContext(store: t.store)
        var r = FetchRequest(entity: "FailedBankInfo")
        r.sortDescriptors = [FetchSort("name")]
        r.fetchBatchSize = 10
        let frc = FetchedResultsController(fetchRequest: r, context: context)
        try frc.performFetch()
        #expect(frc.numberOfObjects == 200)
        #expect(frc.loader.loadCount == 0 && context.registeredObjectCount == 0)  // ids only
        #expect(frc.fetchedObjects[15].string("name") == "Bank 015")
        #expect(frc.loader.loadCount == 1 && context.registeredObjectCount == 10)  // one batch
        _ = frc.fetchedObjects[19]
        #expect(frc.loader.loadCount == 1)
        for o in frc.fetchedObjects { _ = o.string("name") }
        #expect(frc.loader.loadCount == 20)  // batch 1 was still loaded
        #expect(frc.loader.residentBatchCount == 8)
        #expect(context.registeredObjectCount <= 80)
    }

    // MARK: Rule 8

    @Test func theCacheMakesASecondLaunchSkipTheQueryAndAnyChangeInvalidatesIt() throws {
        let t = try TempStore()
        for i in 0..<50 { try t.addBank("Bank \(i)", closeDate: "20\(10 + i % 5)-01-0\(1 + i % 9)", save: false) }
        try t.context.save()
        func launch(
            _ request: FetchRequest = Self.byDate(),
            context: ObjectContext? = nil
        ) throws -> FetchedResultsController {
            let c = FetchedResultsController(
                fetchRequest: request,
                context: context ?? ObjectContext(store: t.store),
                sectionNameKeyPath: "details.closeYear",
                cacheName: "banks",
                cacheDirectory: t.cacheDirectory
            )
            try c.performFetch()
            return c
        }
        let first = try launch()
        #expect(!first.lastFetchUsedCache)
        #expect(FileManager.default.fileExists(atPath: t.cacheDirectory + "/banks.frc"))
        // A second launch, even on another connection, reads the cache and gets the same results.
        let (otherStore, otherContext) = try t.secondConnection()
        _ = otherStore
        let second = try launch(context: otherContext)
        #expect(second.lastFetchUsedCache)
        #expect(Snapshot(second) == Snapshot(first))
        #expect(second.sections.map(\.name) == first.sections.map(\.name))
        // Data changes invalidate it.
        try t.addBank("New bank")
        let third = try launch()
        #expect(!third.lastFetchUsedCache)
        #expect(try launch().lastFetchUsedCache)
        // So does another request under the same name.
        var other = Self.byDate()
        other.predicate = try FetchPredicate("name BEGINSWITH 'Bank 1'")
        #expect(!(try launch(other).lastFetchUsedCache))
        #expect(try launch(other).lastFetchUsedCache)
        // And deleting it.
        FetchedResultsController.deleteCache(named: "banks", in: t.cacheDirectory)
        #expect(!FileManager.default.fileExists(atPath: t.cacheDirectory + "/banks.frc"))
        #expect(!(try launch(other).lastFetchUsedCache))
    }

    @Test func aCachedControllerTracksChangesLikeAFreshOne() throws {
        let t = try TempStore()
        for i in 0..<30 { try t.addBank("Bank \(i)", closeDate: "20\(10 + i % 3)-01-01", save: false) }
        try t.context.save()
        let warmUp = FetchedResultsController(
            fetchRequest: Self.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear",
            cacheName: "c",
            cacheDirectory: t.cacheDirectory
        )
        try warmUp.performFetch()
        let c = FetchedResultsController(
            fetchRequest: Self.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear",
            cacheName: "c",
            cacheDirectory: t.cacheDirectory
        )
        try c.performFetch()
        #expect(c.lastFetchUsedCache)
        var batches: [ChangeBatch] = []
        c.onChange = { batches.append($0) }
        let old = Snapshot(c)
        try t.addBank("Bank X", closeDate: "2011-01-01")
        let fresh = FetchedResultsController(
            fetchRequest: Self.byDate(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        try fresh.performFetch()
        #expect(try BatchChecker.apply(batches[0], to: old) == Snapshot(fresh))
    }

    @Test func invalidCacheNamesAreRefused() throws {
        let t = try TempStore()
        let c = FetchedResultsController(fetchRequest: Self.byDate(), context: t.context, cacheName: "../etc/x")
        #expect(throws: FetchedResultsError.invalidCacheName("../etc/x")) { try c.performFetch() }
    }

    // MARK: Rule 9

    @Test func withoutDelegateOrCallbackNothingIsTracked() throws {
        let t = try TempStore()
        _ = try t.addBank("A")
        let frc = FetchedResultsController(fetchRequest: Self.byDate(), context: t.context)
        try frc.performFetch()
        #expect(!frc.isTracking)
        try t.addBank("B")
        #expect(frc.numberOfObjects == 1)  // not observing: the results stay as fetched
        #expect(frc.statistics == .init())
    }

    @Test func settingADelegateTurnsTrackingOnAndClearingItTurnsItOff() throws {
        let t = try TempStore()
        _ = try t.addBank("A")
        let frc = FetchedResultsController(fetchRequest: Self.byDate(), context: t.context)
        try frc.performFetch()
        let recorder = Recorder()
        frc.delegate = recorder
        #expect(frc.isTracking)
        let b = try t.addBank("B")
        #expect(frc.numberOfObjects == 2)
        #expect(recorder.calls == ["will", "object insert \(b.objectID.rowID) - [0, 1]", "did"])
        frc.delegate = nil
        #expect(!frc.isTracking)
        try t.addBank("C")
        #expect(frc.numberOfObjects == 2)
    }

    @Test func theDelegateIsWeak() throws {
        let t = try TempStore()
        let frc = FetchedResultsController(fetchRequest: Self.byDate(), context: t.context)
        do {
            let recorder = Recorder()
            frc.delegate = recorder
            #expect(frc.delegate != nil)
        }
        #expect(frc.delegate == nil)
    }

    @Test func trackingTurnedOnAfterMissedChangesCatchesUpWithARefetch() throws {
        let t = try TempStore()
        _ = try t.addBank("A")
        let frc = FetchedResultsController(fetchRequest: Self.byDate(), context: t.context)
        try frc.performFetch()
        try t.addBank("B")  // missed: not tracking
        var batches: [ChangeBatch] = []
        frc.onChange = { batches.append($0) }
        try t.addBank("C")
        #expect(frc.numberOfObjects == 3)
        #expect(batches.count == 1 && batches[0].objectChanges.filter { $0.change == .insert }.count == 2)
    }
}
