import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FetchedResults

/// A sort whose NULL is the greatest value (`FetchSort(nulls: .greatest)`, PostgreSQL's order:
/// NULL last ascending, first descending) orders the fetch, its preview, its sort-key prefixes
/// and every incremental batch alike — NULL rows (and their section) after the others
/// ascending, before them descending — as a plain Swift sort by the same rule does.
@Suite struct NullsGreatestTests {
    static let item = Entity(
        "Item",
        attributes: [
            Attribute("v", .text, optional: true), Attribute("n", .integer, optional: true), Attribute("name", .text),
        ]
    )
    static let model = Model(version: 1, applicationID: 0x4E55_4C4C, entities: [item])

    static let texts: [StoreValue] = [.text("a"), .text("b"), .text("m"), .text("zz"), .text("B"), .null, .null]
    static let numbers: [StoreValue] = [.integer(-3), .integer(0), .integer(7), .integer(7), .null, .real(2.5)]

    struct Config {
        var name: String
        var sorts: [FetchSort]
        var section: String?
    }

    static let configs = [
        Config(name: "v asc", sorts: [FetchSort("v", nulls: .greatest)], section: nil),
        Config(name: "v desc", sorts: [FetchSort("v", ascending: false, nulls: .greatest)], section: nil),
        Config(
            name: "n desc, v asc",
            sorts: [FetchSort("n", ascending: false, nulls: .greatest), FetchSort("v", nulls: .greatest)],
            section: nil
        ),
        Config(
            name: "v asc / v",
            sorts: [FetchSort("v", nulls: .greatest), FetchSort("n", nulls: .greatest)],
            section: "v"
        ),
        Config(name: "v desc / v", sorts: [FetchSort("v", ascending: false, nulls: .greatest)], section: "v"),
    ]

    static func controller(_ t: TempStore, _ c: Config) -> FetchedResultsController {
        var request = FetchRequest(entity: "Item")
        request.sortDescriptors = c.sorts
        return FetchedResultsController(fetchRequest: request, context: t.context, sectionNameKeyPath: c.section)
    }

    static func fresh(_ t: TempStore, _ c: Config) throws -> Snapshot {
        let f = controller(t, c)
        try f.performFetch()
        return Snapshot(f)
    }

    /// The expected results in Swift: NULL above every value, in each sort's direction, then the id.
    static func bruteForce(_ t: TempStore, _ c: Config) throws -> Snapshot {
        func order(_ a: StoreValue, _ b: StoreValue) -> Int {
            let aNull = a == .null
            if aNull != (b == .null) { return aNull ? 1 : -1 }
            return StoreValue.compare(a, b)
        }
        let sorted = try t.context.fetch("Item").sorted { a, b in
            for s in c.sorts {
                let c = order(a.value(forKeyPath: s.keyPath), b.value(forKeyPath: s.keyPath)) * (s.ascending ? 1 : -1)
                if c != 0 { return c < 0 }
            }
            return a.objectID.rowID < b.objectID.rowID
        }
        guard let section = c.section else {
            return Snapshot(sections: [("", sorted.map(\.objectID))])
        }
        return Snapshot(grouping: sorted, by: { $0.value(forKeyPath: section) })
    }

    static func insert(_ count: Int, into t: TempStore, rng: inout SeededGenerator) throws {
        try t.store.database.transaction {
            for i in 0..<count {
                try t.store.database.run(
                    "INSERT INTO item(v, n, name) VALUES (?, ?, ?)",
                    [texts.randomElement(using: &rng)!, numbers.randomElement(using: &rng)!, .text("i\(i)")]
                )
            }
        }
        _ = try t.context.processExternalChanges()
    }

    @Test func nullIsAboveEveryValueInTheFetchItsPreviewAndASwiftSort() throws {
        let t = try TempStore(model: Self.model)
        var rng = SeededGenerator(seed: 11)
        try Self.insert(60, into: t, rng: &rng)
        for c in Self.configs {
            let f = Self.controller(t, c)
            try f.performFetch()
            #expect(Snapshot(f) == (try Self.bruteForce(t, c)), "\(c.name): \(Snapshot(f))")
            let first = f.fetchedObjects.objectIDs.first.flatMap { try? t.context.object(with: $0) }
            let firstValue = first?.value(forKeyPath: c.sorts[0].keyPath)
            #expect((firstValue == .null) == !c.sorts[0].ascending, "\(c.name): NULL first only descending")
            let preview = try Self.controller(t, c).previewFirstObjects(limit: f.numberOfObjects)
            #expect(preview.map(\.objectID) == f.fetchedObjects.objectIDs, "\(c.name): preview order")
        }
    }

    @Test(arguments: [UInt64(3), 41, 2027])
    func batchesPlaceNullsAsAFreshFetchDoes(seed: UInt64) throws {
        let t = try TempStore(model: Self.model)
        var rng = SeededGenerator(seed: seed)
        try Self.insert(12, into: t, rng: &rng)
        let (otherStore, _) = try t.secondConnection()
        var controllers: [FetchedResultsController] = []
        var received: [[ChangeBatch]] = Array(repeating: [], count: Self.configs.count)
        var snapshots: [Snapshot] = []
        for (k, c) in Self.configs.enumerated() {
            let f = Self.controller(t, c)
            try f.performFetch()
            try f.prepareForChanges()
            f.onChange = { received[k].append($0) }
            controllers.append(f)
            snapshots.append(Snapshot(f))
        }
        for step in 0..<(PropertySettings.isLong ? 2000 : 200) {
            let ids = try t.store.database.query("SELECT id FROM item").map { $0[0].int64! }
            let id = ids.randomElement(using: &rng) ?? 0
            switch ids.isEmpty ? 3 : Int.random(in: 0..<4, using: &rng) {
            case 0:
                try otherStore.database.run("DELETE FROM item WHERE id = ?", [.integer(id)])
            case 1:
                try otherStore.database.run(
                    "UPDATE item SET v = ? WHERE id = ?",
                    [Self.texts.randomElement(using: &rng)!, .integer(id)]
                )
            case 2:
                try otherStore.database.run(
                    "UPDATE item SET n = ? WHERE id = ?",
                    [Self.numbers.randomElement(using: &rng)!, .integer(id)]
                )
            default:
                try otherStore.database.run(
                    "INSERT INTO item(v, n, name) VALUES (?, ?, ?)",
                    [
                        Self.texts.randomElement(using: &rng)!, Self.numbers.randomElement(using: &rng)!,
                        .text("s\(step)"),
                    ]
                )
            }
            _ = try t.context.processExternalChanges()
            for (k, c) in Self.configs.enumerated() {
                let expected = try Self.fresh(t, c)
                var snapshot = snapshots[k]
                for batch in received[k] {
                    do {
                        snapshot = try BatchChecker.apply(batch, to: snapshot)
                    } catch {
                        Issue.record(
                            "seed \(seed) step \(step) \(c.name): \(error)\n\(batch)\nbefore: \(snapshot)\nexpected: \(expected)"
                        )
                        throw error
                    }
                }
                received[k].removeAll()
                try #require(
                    snapshot == expected,
                    "seed \(seed) step \(step) \(c.name):\n\(snapshot)\nexpected:\n\(expected)"
                )
                if step % 20 == 0 {
                    try #require(expected == (try Self.bruteForce(t, c)), "seed \(seed) step \(step) \(c.name)")
                }
                snapshots[k] = snapshot
            }
        }
        for f in controllers { #expect(f.statistics.incrementalBatches > 0) }
    }
}
