import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FetchedResults

/// `performFetch(presorted:)`: rows another writer already sorted are installed as the very
/// results of the query — the same ids in the same sections — and anything that is not that
/// fetch, or rows not in its order, are refused so that the query runs instead.
@Suite struct PresortedFetchTests {
    static let model = Model(
        version: 1,
        applicationID: 0x5052_4553,
        entities: [
            Entity(
                "Event",
                attributes: [Attribute("ts", .text, optional: true), Attribute("message", .text)],
                derived: [SectionsFromSortValuesTests.day]
            )
        ]
    )

    static func request(ascending: Bool) -> FetchRequest {
        var request = FetchRequest(entity: "Event")
        request.sortDescriptors = [FetchSort("ts", ascending: ascending)]
        return request
    }

    /// The rows of the table as a writer that sorted them would give them: BINARY order of `ts`
    /// (NULL first ascending), ids ascending within a value.
    static func presorted(_ t: TempStore, ascending: Bool) throws -> PresortedRows {
        var rows: [(id: Int64, ts: String?)] = try t.store.database.query("SELECT id, ts FROM event").map {
            ($0[0].int64!, $0[1].string)
        }
        rows.sort { a, b in
            if a.ts == b.ts { return a.id < b.id }
            guard let x = a.ts else { return ascending }
            guard let y = b.ts else { return !ascending }
            let before = Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8))
            return ascending ? before : !before
        }
        return Self.rows(rows, ascending: ascending)
    }

    static func rows(_ rows: [(id: Int64, ts: String?)], ascending: Bool) -> PresortedRows {
        var text: [UInt8] = []
        var offsets: [UInt32] = []
        for row in rows {
            offsets.append(UInt32(text.count))
            text += Array((row.ts ?? "").utf8)
        }
        offsets.append(UInt32(text.count))
        return PresortedRows(
            keyPath: "ts",
            ascending: ascending,
            ids: rows.map(\.id),
            text: text,
            offsets: offsets,
            isNull: rows.map { $0.ts == nil }
        )
    }

    /// Ids by section and the sections' names, as a table view reads them.
    static func shown(_ c: FetchedResultsController) -> [String: [Int64]] {
        var shown: [String: [Int64]] = [:]
        for s in 0..<c.numberOfSections {
            shown["\(s) \(c.sections[s].name)"] = (0..<c.numberOfObjects(inSection: s)).map {
                c.objectID(at: IndexPath(row: $0, section: s))!.rowID
            }
        }
        return shown
    }

    static func insert(_ values: [String?], into t: TempStore) throws {
        try t.store.database.transaction {
            for (i, value) in values.enumerated() {
                try t.store.database.run(
                    "INSERT INTO event(ts, message) VALUES (?, ?)",
                    [value.map(StoreValue.text) ?? .null, .text("m\(i)")]
                )
            }
        }
    }

    /// Date-times of a few days (equal values, ties broken by id; some with a fraction, longer than
    /// 24 bytes) and NULLs: sections that come out monotonic in both directions.
    static func randomValues(seed: UInt64, count: Int) -> [String?] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            if random.below(8) == 0 { return nil }
            let fraction = random.below(3) == 0 ? ".\(100_000 + random.below(900_000))" : ""
            return String(format: "2025-03-%02d %02d:00:%02d", 1 + random.below(4), random.below(3), random.below(4))
                + fraction
        }
    }

    @Test(arguments: [true, false]) func presortedRowsAreTheQuerysResults(ascending: Bool) throws {
        for seed in PropertySettings.seeds(default: [1, 2, 3]) {
            let t = try TempStore(model: Self.model)
            try Self.insert(Self.randomValues(seed: seed, count: 500), into: t)
            let queried = FetchedResultsController(
                fetchRequest: Self.request(ascending: ascending),
                context: t.context,
                sectionNameKeyPath: "day"
            )
            try queried.performFetch()
            for sections in ["day", nil] {
                let presorted = FetchedResultsController(
                    fetchRequest: Self.request(ascending: ascending),
                    context: t.context,
                    sectionNameKeyPath: sections
                )
                #expect(try presorted.performFetch(presorted: Self.presorted(t, ascending: ascending)))
                let expected = FetchedResultsController(
                    fetchRequest: Self.request(ascending: ascending),
                    context: t.context,
                    sectionNameKeyPath: sections
                )
                try expected.performFetch()
                #expect(Self.shown(presorted) == Self.shown(expected), "\(PropertySettings.replay(seed))")
            }
        }
    }

    @Test func rowsOutOfOrderAreRefusedAndNothingChanges() throws {
        let t = try TempStore(model: Self.model)
        try Self.insert(["2025-03-01 10:00:00", "2025-03-01 10:00:00", "2025-03-02 09:00:00"], into: t)
        let c = FetchedResultsController(
            fetchRequest: Self.request(ascending: false),
            context: t.context,
            sectionNameKeyPath: "day"
        )
        let good = try Self.presorted(t, ascending: false)
        // The tie in the wrong id order; then a NULL before text while descending.
        let swapped = Self.rows(
            [(3, "2025-03-02 09:00:00"), (2, "2025-03-01 10:00:00"), (1, "2025-03-01 10:00:00")],
            ascending: false
        )
        let nullFirst = Self.rows([(4, nil), (3, "2025-03-02 09:00:00")], ascending: false)
        #expect(try !c.performFetch(presorted: swapped))
        #expect(try !c.performFetch(presorted: nullFirst))
        #expect(c.numberOfObjects == 0)
        // Another direction, another attribute, or a predicate: not this fetch.
        #expect(try !c.performFetch(presorted: Self.presorted(t, ascending: true)))
        var filtered = Self.request(ascending: false)
        filtered.predicate = try FetchPredicate("message == 'm1'")
        let narrowed = FetchedResultsController(fetchRequest: filtered, context: t.context)
        #expect(try !narrowed.performFetch(presorted: good))
        let other = PresortedRows(keyPath: "message", ascending: false, ids: [], text: [], offsets: [0], isNull: [])
        #expect(try !c.performFetch(presorted: other))
        #expect(try c.performFetch(presorted: good))
        #expect(c.fetchedObjects.map(\.objectID.rowID) == [3, 1, 2])
    }

    @Test func rowsWhoseValuesAscendWithTheirIDsAreInstalledByTheirIDsAlone() throws {
        // A table written in the sort's order, numbered as it was written (a query's first run).
        let t = try TempStore(model: Self.model)
        try Self.insert(["2025-03-01 10:00:00", "2025-03-02 09:00:00", "2025-03-03 08:00:00"], into: t)
        let c = FetchedResultsController(fetchRequest: Self.request(ascending: true), context: t.context)
        #expect(try c.performFetch(presorted: PresortedRows(keyPath: "ts", ascendingWithIDs: [1, 2, 3])))
        #expect(c.fetchedObjects.map(\.objectID.rowID) == [1, 2, 3])
        // Ids out of order are refused; so are sections, which need the values.
        let again = FetchedResultsController(fetchRequest: Self.request(ascending: true), context: t.context)
        #expect(try !again.performFetch(presorted: PresortedRows(keyPath: "ts", ascendingWithIDs: [2, 1, 3])))
        let sectioned = FetchedResultsController(
            fetchRequest: Self.request(ascending: true),
            context: t.context,
            sectionNameKeyPath: "day"
        )
        #expect(try !sectioned.performFetch(presorted: PresortedRows(keyPath: "ts", ascendingWithIDs: [1, 2, 3])))
    }

    @Test func sectionsThatDoNotComeOutInOrderAreRefusedAsTheCheaperQueryRefusesThem() throws {
        // Text that is no date sorts before the dates ("") and after them ("zz"): its section, `?`,
        // keeps one place, so the sorted values do not give the sections in order either way.
        let t = try TempStore(model: Self.model)
        try Self.insert(["2025-03-01 10:00:00", "", "zz", "2025-03-02 09:00:00"], into: t)
        for ascending in [true, false] {
            let c = FetchedResultsController(
                fetchRequest: Self.request(ascending: ascending),
                context: t.context,
                sectionNameKeyPath: "day"
            )
            #expect(try !c.performFetch(presorted: Self.presorted(t, ascending: ascending)))
            try c.performFetch()
            #expect(c.numberOfObjects == 4 && c.numberOfSections == 3)
        }
    }
}
