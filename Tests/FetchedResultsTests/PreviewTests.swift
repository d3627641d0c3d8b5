import Foundation
import SQLiteStore
import TestSupport
import Testing

@_spi(Benchmark) @testable import FetchedResults

/// `previewFirstObjects(limit:)` gives the first rows of `performFetch()` without running it,
/// and `hasValidCache()` says when `performFetch()` will read its cache.
@Suite("Controller preview and cache check")
struct PreviewTests {
    /// One request shape: sorts, section key, predicate.
    struct Shape: CustomStringConvertible {
        var name: String
        var sorts: [FetchSort]
        var section: String?
        var predicate: String? = nil
        var limit = 0
        var offset = 0
        var description: String { name }

        func request() throws -> FetchRequest {
            var r = FetchRequest(
                entity: "FailedBankInfo",
                sortDescriptors: sorts,
                fetchBatchSize: 7,
                fetchLimit: limit,
                fetchOffset: offset
            )
            r.predicate = try predicate.map { try FetchPredicate($0) }
            return r
        }
    }

    static let byName = FetchSort("name", comparison: .caseInsensitive)

    static let shapes: [Shape] = [
        Shape(
            name: "date desc, by year",
            sorts: [FetchSort("details.closeDate", ascending: false), byName],
            section: "details.closeYear"
        ),
        Shape(
            name: "date asc, by year (no details first)",
            sorts: [FetchSort("details.closeDate"), byName],
            section: "details.closeYear"
        ),
        Shape(name: "date desc, no sections", sorts: [FetchSort("details.closeDate", ascending: false)], section: nil),
        Shape(
            name: "date desc, by year, state filter",
            sorts: [FetchSort("details.closeDate", ascending: false), byName],
            section: "details.closeYear",
            predicate: "state == 'CA' OR state == 'TX'"
        ),
        Shape(
            name: "date desc, by year, date filter",
            sorts: [FetchSort("details.closeDate", ascending: false), byName],
            section: "details.closeYear",
            predicate: "details.closeDate < '2012-01-01'"
        ),
        Shape(name: "name, by initial", sorts: [byName], section: "initial"),
        Shape(
            name: "name desc, no sections",
            sorts: [FetchSort("name", ascending: false, comparison: .caseInsensitive)],
            section: nil
        ),
        Shape(name: "state, by state", sorts: [FetchSort("state"), byName], section: "state"),
        Shape(name: "state desc, by state", sorts: [FetchSort("state", ascending: false), byName], section: "state"),
        Shape(
            name: "state desc, by state, name filter",
            sorts: [FetchSort("state", ascending: false), byName],
            section: "state",
            predicate: "name CONTAINS[c] 'bank 1'"
        ),
        Shape(
            name: "date desc, by year, limit and offset",
            sorts: [FetchSort("details.closeDate", ascending: false), byName],
            section: "details.closeYear",
            limit: 25,
            offset: 4
        ),
        Shape(
            name: "cert desc (integers, ties none)",
            sorts: [FetchSort("details.cert", ascending: false)],
            section: nil
        ),
    ]

    /// Banks with tied dates, tied names, no details (NULL year), and names that do not start with a letter.
    static func fill(_ t: TempStore, seed: UInt64, count: Int) throws {
        var random = SeededGenerator(seed: seed)
        let states = ["CA", "TX", "IL", "NY", "GA"]
        let prefixes = ["Bank", "bank", "First", "1st", "Éclair", "_Under", "Zeta", "alpha", "Citizens"]
        for i in 0..<count {
            let name = prefixes[Int(random.next() % UInt64(prefixes.count))] + " \(random.next() % 20)"
            let hasDetails = random.next() % 6 != 0
            let date = String(
                format: "20%02d-%02d-%02d",
                8 + Int(random.next() % 6),
                1 + Int(random.next() % 3),
                1 + Int(random.next() % 3)
            )
            try t.addBank(
                name,
                state: states[Int(random.next() % UInt64(states.count))],
                closeDate: hasDetails ? date : nil,
                cert: Int64(10_000 + i),
                save: false
            )
        }
        try t.context.save()
    }

    /// The first `limit` rows of a full fetch, as preview rows.
    static func expected(_ controller: FetchedResultsController, limit: Int) -> [FetchedPreviewRow] {
        var out: [FetchedPreviewRow] = []
        for section in controller.sections {
            for id in section.objects.objectIDs {
                guard out.count < limit else { return out }
                out.append(
                    FetchedPreviewRow(objectID: id, sectionName: section.name, sectionIndexTitle: section.indexTitle)
                )
            }
        }
        return out
    }

    @Test(arguments: shapes)
    func previewIsTheFirstRowsOfTheFullFetch(shape: Shape) throws {
        for seed: UInt64 in [1, 2, 3] {
            let t = try TempStore()
            try Self.fill(t, seed: seed, count: 150)
            let request = try shape.request()
            let full = FetchedResultsController(
                fetchRequest: request,
                context: t.context,
                sectionNameKeyPath: shape.section
            )
            try full.performFetch()
            for limit in [1, 2, 3, 10, 24, 60, 149, 150, 400] {
                let previewer = FetchedResultsController(
                    fetchRequest: request,
                    context: t.context,
                    sectionNameKeyPath: shape.section
                )
                let preview = try previewer.previewFirstObjects(limit: limit)
                let expected = Self.expected(full, limit: limit)
                #expect(
                    preview == expected,
                    "\(shape), seed \(seed), limit \(limit): \(preview.map(\.objectID.rowID)) vs \(expected.map(\.objectID.rowID))"
                )
            }
        }
    }

    @Test func previewOfTheNewestBanksReadsTheCloseDateIndexInsteadOfSortingEveryRow() throws {
        let t = try TempStore()
        try Self.fill(t, seed: 8, count: 20)
        let plan = try FetchPlan(
            request: try Self.shapes[0].request(),
            model: t.store.model,
            sectionNameKeyPath: "details.closeYear"
        )
        func steps(_ sql: String, _ arguments: [StoreValue]) throws -> String {
            try t.store.database.query("EXPLAIN QUERY PLAN " + sql, arguments).map { $0[3].description }.joined(
                separator: "; "
            )
        }
        let probe = try steps(plan.previewThresholdSQL(sortIndex: 1, limit: 10), [])
        let rows = try steps(plan.previewSQL(limit: 10, requestSortsOnly: true, narrowedBy: 1), [.text("2013-01-01")])
        for text in [probe, rows] {
            #expect(text.contains("USING INDEX") && text.contains("close_date"), "\(text)")
            #expect(!text.contains("SCAN t0"), "\(text)")
        }
    }

    @Test func previewUsesTheIndexTitleProvider() throws {
        let t = try TempStore()
        try Self.fill(t, seed: 9, count: 40)
        let c = FetchedResultsController(
            fetchRequest: try Self.shapes[0].request(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear"
        )
        c.sectionIndexTitleProvider = { $0.isEmpty ? nil : "'" + $0.suffix(2) }
        let preview = try c.previewFirstObjects(limit: 5)
        #expect(preview.first?.sectionIndexTitle?.hasPrefix("'") == true)
        try c.performFetch()
        #expect(preview == Self.expected(c, limit: 5))
    }

    @Test func previewOfSectionsWhoseOrderBreaksInsideThePreviewFollowsTheSectionOrder() throws {
        // Names descending: "Éclair" (section "#") sorts before "Zeta" (section "Z") but "#" < "Z",
        // so the fetch orders by section first; the preview's own rows show it.
        let t = try TempStore()
        for name in ["Éclair", "Zeta", "Alpha", "Mid", "1st"] { try t.addBank(name, save: false) }
        try t.context.save()
        var request = FetchRequest(entity: "FailedBankInfo")
        request.sortDescriptors = [FetchSort("name", ascending: false, comparison: .caseInsensitive)]
        let c = FetchedResultsController(fetchRequest: request, context: t.context, sectionNameKeyPath: "initial")
        let preview = try c.previewFirstObjects(limit: 3)
        try c.performFetch()
        #expect(c.sections.map(\.name) == ["Z", "M", "A", "#"])
        #expect(preview == Self.expected(c, limit: 3))
        #expect(preview.map(\.sectionName) == ["Z", "M", "A"])
    }

    @Test func previewChangesNothingInTheController() throws {
        let t = try TempStore()
        try Self.fill(t, seed: 4, count: 30)
        let c = FetchedResultsController(
            fetchRequest: try Self.shapes[0].request(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear",
            cacheName: "p",
            cacheDirectory: t.cacheDirectory
        )
        #expect(try c.previewFirstObjects(limit: 10).count == 10)
        #expect(c.numberOfSections == 0 && c.numberOfObjects == 0)
        #expect(!c.hasFetched && !c.isTracking)
        #expect(!FileManager.default.fileExists(atPath: t.cacheDirectory + "/p.frc"))
        #expect(try c.previewFirstObjects(limit: 0).isEmpty)
    }

    @Test func previewOfAnInvalidRequestThrowsLikePerformFetch() throws {
        let t = try TempStore()
        let c = FetchedResultsController(fetchRequest: FetchRequest(entity: "FailedBankInfo"), context: t.context)
        #expect(throws: FetchedResultsError.noSortDescriptors(entity: "FailedBankInfo")) {
            try c.previewFirstObjects(limit: 5)
        }
    }

    @Test func previewOfAnEmptyStoreIsEmpty() throws {
        let t = try TempStore()
        for shape in Self.shapes {
            let c = FetchedResultsController(
                fetchRequest: try shape.request(),
                context: t.context,
                sectionNameKeyPath: shape.section
            )
            #expect(try c.previewFirstObjects(limit: 20).isEmpty, "\(shape)")
        }
    }

    // MARK: hasValidCache

    @Test func cacheIsValidAfterACachedFetchAndInvalidAfterADataChange() throws {
        let t = try TempStore()
        try Self.fill(t, seed: 5, count: 40)
        func controller(_ request: FetchRequest? = nil, name: String? = "banks") throws -> FetchedResultsController {
            FetchedResultsController(
                fetchRequest: try request ?? Self.shapes[0].request(),
                context: ObjectContext(store: t.store),
                sectionNameKeyPath: "details.closeYear",
                cacheName: name,
                cacheDirectory: t.cacheDirectory
            )
        }
        // No cache name, and no cache file yet: not valid.
        #expect(!(try controller(name: nil).hasValidCache()))
        #expect(!(try controller().hasValidCache()))
        // A cold fetch writes it: now valid, and the next fetch reads it.
        try controller().performFetch()
        let second = try controller()
        #expect(second.hasValidCache())
        try second.performFetch()
        #expect(second.lastFetchUsedCache)
        // Another request under the same name: not valid for it.
        var filtered = try Self.shapes[0].request()
        filtered.predicate = try FetchPredicate("state == 'CA'")
        #expect(!(try controller(filtered).hasValidCache()))
        // A data change (here from another connection): not valid, and the fetch agrees.
        let (otherStore, otherContext) = try t.secondConnection()
        let bank = otherContext.insert(into: "FailedBankInfo")
        bank["name"] = .text("Late Bank")
        bank["city"] = .text("Austin")
        bank["state"] = .text("TX")
        try otherContext.save()
        _ = otherStore
        let third = try controller()
        #expect(!third.hasValidCache())
        try third.performFetch()
        #expect(!third.lastFetchUsedCache)
        #expect(try controller().hasValidCache())
    }

    @Test func aCacheFileThatIsNotACacheIsNotValid() throws {
        let t = try TempStore()
        try Self.fill(t, seed: 6, count: 10)
        try FileManager.default.createDirectory(atPath: t.cacheDirectory, withIntermediateDirectories: true)
        try Data("not a cache".utf8).write(to: URL(fileURLWithPath: t.cacheDirectory + "/banks.frc"))
        let c = FetchedResultsController(
            fetchRequest: try Self.shapes[0].request(),
            context: t.context,
            sectionNameKeyPath: "details.closeYear",
            cacheName: "banks",
            cacheDirectory: t.cacheDirectory
        )
        #expect(!c.hasValidCache())
    }
}
