import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FetchedResults

/// A year or month section key over values that are not all dates: those values (`garbage`, a
/// number, a short text) are one section, `(not a date)`, and it is the last section whether the
/// dates run up or down — in the fetch, in every incremental batch (each applied to the previous
/// snapshot equals a fresh fetch), in the preview and in the index titles.
@Suite struct NotADateSectionTests {
    static let event = Entity(
        "Event",
        attributes: [Attribute("d", .text, optional: true), Attribute("name", .text)],
        derived: [.year("year", of: "d"), .month("month", of: "d")]
    )
    static let model = Model(version: 1, applicationID: 0x4E41_4454, entities: [event])
    static let notADate = DerivedAttribute.notADate

    /// The values a column of dates may hold: dates of a few years, and anything else.
    static let pool: [StoreValue] = [
        .text("2021-03-04"), .text("2021-11-30"), .text("2022-01-01"), .text("2022-06-15T10:00"), .text("2023-12-31"),
        .text("2019-07-07"), .text("garbage"), .text("zz"), .text("(paren)"), .text(""), .text("2024-1"),
        .text("20240101"), .integer(20_240_101), .integer(7), .real(2022.5), .null, .text("2022-06-15"),
    ]

    struct Config {
        var name: String
        var sorts: [FetchSort]
        var section: String
    }

    static let configs = [
        Config(name: "d asc / year", sorts: [FetchSort("d"), FetchSort("name")], section: "year"),
        Config(name: "d desc / year", sorts: [FetchSort("d", ascending: false), FetchSort("name")], section: "year"),
        Config(name: "d desc / month", sorts: [FetchSort("d", ascending: false)], section: "month"),
        Config(name: "year asc / year", sorts: [FetchSort("year"), FetchSort("name")], section: "year"),
        Config(
            name: "year desc / year",
            sorts: [FetchSort("year", ascending: false), FetchSort("d")],
            section: "year"
        ),
    ]

    static func controller(_ t: TempStore, _ c: Config) -> FetchedResultsController {
        var request = FetchRequest(entity: "Event")
        request.sortDescriptors = c.sorts
        return FetchedResultsController(fetchRequest: request, context: t.context, sectionNameKeyPath: c.section)
    }

    static func fresh(_ t: TempStore, _ c: Config) throws -> Snapshot {
        let f = controller(t, c)
        try f.performFetch()
        return Snapshot(f)
    }

    /// The expected results from every object in Swift: dates by the sorts, then the values that are not dates.
    static func bruteForce(_ t: TempStore, _ c: Config) throws -> Snapshot {
        let all = try t.context.fetch("Event")
        let ascending = c.sorts[0].ascending
        let derived = event.derivedAttribute(named: c.section)!
        func section(_ o: ManagedObject) -> StoreValue { derived.compute { o.value(forKeyPath: $0) } }
        let sorted = all.sorted { a, b in
            let (x, y) = (section(a), section(b))
            let (xLast, yLast) = (x == .text(notADate), y == .text(notADate))
            if xLast != yLast { return yLast }
            let bySection = StoreValue.compare(x, y) * (ascending ? 1 : -1)
            if bySection != 0 { return bySection < 0 }
            for s in c.sorts {
                let order = s.compare(a.value(forKeyPath: s.keyPath), b.value(forKeyPath: s.keyPath))
                if order != 0 { return order < 0 }
            }
            return a.objectID.rowID < b.objectID.rowID
        }
        return Snapshot(grouping: sorted, by: section)
    }

    static func insert(_ values: [StoreValue], into t: TempStore) throws {
        try t.store.database.transaction {
            for (i, v) in values.enumerated() {
                try t.store.database.run("INSERT INTO event(d, name) VALUES (?, ?)", [v, .text("e\(i)")])
            }
        }
        _ = try t.context.processExternalChanges()
    }

    @Test("the values that are not dates are the last section, ascending and descending, in every form of the fetch")
    func notADateIsTheLastSectionOfTheFetch() throws {
        let t = try TempStore(model: Self.model)
        try Self.insert(Self.pool + Self.pool.reversed(), into: t)
        for c in Self.configs {
            let f = Self.controller(t, c)
            try f.performFetch()
            #expect(f.sections.last?.name == Self.notADate, "\(c.name): \(f.sections.map(\.name))")
            #expect(Snapshot(f) == (try Self.bruteForce(t, c)), "\(c.name): \(Snapshot(f))")
            #expect(f.sectionIndexTitles.last == "(", "\(c.name): \(f.sectionIndexTitles)")
            // The first screen before the fetch: the same first rows, in the same sections.
            let preview = try Self.controller(t, c).previewFirstObjects(limit: f.numberOfObjects)
            #expect(preview.map(\.objectID) == f.fetchedObjects.objectIDs, "\(c.name): preview order")
            #expect(preview.last?.sectionName == Self.notADate, "\(c.name)")
        }
    }

    @Test(
        "incremental batches keep (not a date) last as its values are inserted, changed and deleted",
        arguments: [
            UInt64(5), 77, 2026,
        ]
    )
    func batchesKeepNotADateLast(seed: UInt64) throws {
        let t = try TempStore(model: Self.model)
        var rng = SeededGenerator(seed: seed)
        try Self.insert((0..<8).map { _ in Self.pool.randomElement(using: &rng)! }, into: t)
        let (otherStore, _) = try t.secondConnection()
        var controllers: [FetchedResultsController] = []
        var received: [[ChangeBatch]] = Array(repeating: [], count: Self.configs.count)
        var snapshots: [Snapshot] = []
        for (k, c) in Self.configs.enumerated() {
            let f = Self.controller(t, c)
            try f.performFetch()
            f.onChange = { received[k].append($0) }
            controllers.append(f)
            snapshots.append(Snapshot(f))
        }
        var notADateSectionChanges = 0
        for step in 0..<(PropertySettings.isLong ? 3000 : 300) {
            let ids = try t.store.database.query("SELECT id FROM event").map { $0[0].int64! }
            let value = Self.pool.randomElement(using: &rng)!
            // Deletes outweigh inserts, so the sections (and the one of the values that are not dates) empty and refill.
            let op = ids.isEmpty ? 5 : Int.random(in: 0..<6, using: &rng)
            let id = ids.randomElement(using: &rng) ?? 0
            switch op {
            case 0, 1:
                try otherStore.database.run("DELETE FROM event WHERE id = ?", [.integer(id)])
                _ = try t.context.processExternalChanges()
            case 2, 3:
                try otherStore.database.run("UPDATE event SET d = ? WHERE id = ?", [value, .integer(id)])
                _ = try t.context.processExternalChanges()
            case 4:
                if let o = try t.context.object(with: ObjectID(entity: "Event", rowID: id)) {
                    o["d"] = value
                    try t.context.save()
                }
            default:
                for n in 0..<Int.random(in: 1...3, using: &rng) {
                    let o = t.context.insert(into: "Event")
                    o["d"] = n == 0 ? value : Self.pool.randomElement(using: &rng)!
                    o["name"] = .text("n\(step).\(n)")
                }
                try t.context.save()
            }
            for (k, c) in Self.configs.enumerated() {
                let expected = try Self.fresh(t, c)
                var snapshot = snapshots[k]
                for batch in received[k] {
                    notADateSectionChanges += batch.sectionChanges.filter { $0.name == Self.notADate }.count
                    snapshot = try BatchChecker.apply(batch, to: snapshot)
                }
                received[k].removeAll()
                try #require(
                    snapshot == expected,
                    "seed \(seed) step \(step) \(c.name):\n\(snapshot)\nexpected:\n\(expected)"
                )
                try #require(Snapshot(controllers[k]) == expected, "seed \(seed) step \(step) \(c.name)")
                if step % 25 == 0 {
                    try #require(expected == (try Self.bruteForce(t, c)), "seed \(seed) step \(step) \(c.name)")
                }
                if let last = expected.sections.last, expected.sections.contains(where: { $0.name == Self.notADate }) {
                    #expect(last.name == Self.notADate, "seed \(seed) step \(step) \(c.name)")
                }
                snapshots[k] = snapshot
            }
        }
        #expect(notADateSectionChanges > 0, "seed \(seed): the section (not a date) was never created or emptied")
        for f in controllers { #expect(f.statistics.incrementalBatches > 0) }
    }
}
