import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FetchedResults

/// The grouped controller on random workloads: after every change, the batches it delivered,
/// applied to the groups it showed before, give the groups of a fresh `GROUP BY` — value for
/// value, in order — and its counts are the fresh counts; every group whose count changed is in
/// a batch, no group twice. Changes come from the controller's own context, from a second
/// connection's context, and as raw SQL on a second connection (another process), in small
/// saves and in transactions of hundreds of rows.
///
/// Seeds are fixed; a failure prints its seed and step. `PROPERTY_LONG=1` runs thousands of
/// steps (and fresh seeds), `PROPERTY_QUICK=1` a few dozen.
@Suite("Grouped controller: batches equal a fresh GROUP BY (property)")
struct GroupedControllerPropertyTests {
    static let steps = PropertySettings.cases(normal: 300, long: 5_000, quick: 40)

    struct Config {
        var name: String
        var request: FetchRequest
        var key: String
    }

    static func configs() throws -> [Config] {
        var all = FetchRequest(entity: "FailedBankInfo")
        all.sortDescriptors = [FetchSort("name")]
        var recent = all
        recent.predicate = try FetchPredicate("details.closeDate >= '2006-01-01' OR name BEGINSWITH[c] 'a'")
        var three = all
        three.predicate = try FetchPredicate("state IN {'CA', 'TX', 'NY'}")
        return [
            Config(name: "state", request: all, key: "state"),
            Config(name: "year(closeDate) through details", request: all, key: "details.closeYear"),
            Config(name: "fund (NULLs) in three states", request: three, key: "details.fund"),
            Config(name: "initial, filtered", request: recent, key: "initial"),
            Config(name: "city, filtered", request: recent, key: "city"),
        ]
    }

    /// Groups as plain values: each value (by SQL's equality) and its count, in the controller's order.
    struct Groups: Equatable, CustomStringConvertible {
        var values: [StoreValue]
        var counts: [Int]

        init(_ controller: GroupedResultsController) {
            values = controller.groups.map { FetchedResultsController.sectionIdentity($0.value) }
            counts = controller.groups.map(\.count)
        }

        init(values: [StoreValue], counts: [Int]) {
            self.values = values
            self.counts = counts
        }

        var description: String { zip(values, counts).map { "\($0)=\($1)" }.joined(separator: " ") }
    }

    /// A fresh controller's groups: one `GROUP BY`.
    static func fresh(_ t: TempStore, _ c: Config) throws -> Groups {
        let controller = GroupedResultsController(fetchRequest: c.request, context: t.context, groupKeyPath: c.key)
        try controller.performFetch()
        return Groups(controller)
    }

    /// The groups computed in Swift from every object, independent of the controller's SQL.
    static func bruteForce(_ t: TempStore, _ c: Config) throws -> Groups {
        var counts: [StoreValue: Int] = [:]
        for object in try t.context.fetch("FailedBankInfo") where c.request.predicate?.matches(object) ?? true {
            counts[FetchedResultsController.sectionIdentity(object.value(forKeyPath: c.key)), default: 0] += 1
        }
        let ordered = counts.sorted { a, b in
            a.value != b.value ? a.value > b.value : StoreValue.compare(a.key, b.key) < 0
        }
        return Groups(values: ordered.map(\.key), counts: ordered.map(\.value))
    }

    /// `batch` applied to the order of `old`'s values (rule 4 of ChangeBatches.md, one section); the
    /// counts of the result are taken from `counts` (the controller's after the batch).
    static func apply(_ batch: GroupChangeBatch, to old: [StoreValue]) throws -> [StoreValue] {
        struct Invalid: Error, CustomStringConvertible { var description: String }
        var seen = Set<StoreValue>()
        for change in batch.changes {
            guard seen.insert(FetchedResultsController.sectionIdentity(change.value)).inserted else {
                throw Invalid(description: "\(change.value) appears twice")
            }
        }
        let removed = batch.changes.filter { $0.change == .delete || $0.change == .move }
        for change in removed {
            guard let from = change.from, old.indices.contains(from),
                old[from] == FetchedResultsController.sectionIdentity(change.value)
            else { throw Invalid(description: "\(change.change) of \(change.value) from a row it was not on") }
        }
        for change in batch.changes where change.change == .update {
            guard let from = change.from, old.indices.contains(from),
                old[from] == FetchedResultsController.sectionIdentity(change.value)
            else { throw Invalid(description: "update of \(change.value) at a row it was not on") }
        }
        let gone = Set(removed.compactMap(\.from))
        var values = old.enumerated().filter { !gone.contains($0.offset) }.map(\.element)
        let added = batch.changes.filter { $0.change == .insert || $0.change == .move }.sorted { $0.to! < $1.to! }
        for change in added {
            guard let to = change.to, to <= values.count else {
                throw Invalid(
                    description: "\(change.change) of \(change.value) to row \(change.to ?? -1) of \(values.count)"
                )
            }
            values.insert(FetchedResultsController.sectionIdentity(change.value), at: to)
        }
        for change in batch.changes where change.change == .update {
            guard let to = change.to, values.indices.contains(to),
                values[to] == FetchedResultsController.sectionIdentity(change.value)
            else { throw Invalid(description: "update of \(change.value) does not land on row \(change.to ?? -1)") }
        }
        guard values.count == batch.numberOfGroups else {
            throw Invalid(description: "\(values.count) groups after the batch, which says \(batch.numberOfGroups)")
        }
        return values
    }

    static let seeds: [UInt64] = [3, 41, 2026]

    @Test(arguments: PropertySettings.seeds(default: seeds))
    func everyBatchAppliedToTheOldGroupsGivesAFreshGroupBy(seed: UInt64) throws {
        let t = try TempStore()
        var rng = SeededGenerator(seed: seed)
        let (otherStore, other) = try t.secondConnection()
        let db = otherStore.database
        try db.transaction {
            for i in 0..<400 {
                try db.run(
                    "INSERT INTO failed_bank_info(name, city, state) VALUES (?, ?, ?)",
                    [
                        .text(ControllerPropertyTests.names.randomElement(using: &rng)!),
                        .text(["Springfield", "Shelbyville", "Ogdenville"].randomElement(using: &rng)!),
                        .text(ControllerPropertyTests.states.randomElement(using: &rng)!),
                    ]
                )
                let id = db.lastInsertRowID
                if i % 9 == 0 { continue }
                try db.run(
                    "INSERT INTO failed_bank_details(close_date, cert, fund, info_id) VALUES (?, ?, ?, ?)",
                    [
                        .text(String(format: "%04d-%02d-%02d", 2000 + i % 13, 1 + i % 12, 1 + i % 27)),
                        .integer(Int64(i + 1)), i % 3 == 0 ? .null : .integer(Int64(i % 7)), .integer(id),
                    ]
                )
            }
        }
        _ = try t.context.processExternalChanges()
        _ = try other.processExternalChanges()
        var mutator = ControllerPropertyTests.Mutator(
            rng: SeededGenerator(seed: seed &+ 1),
            t: t,
            otherStore: otherStore,
            other: other
        )
        let configs = try Self.configs()
        var controllers: [GroupedResultsController] = []
        var received: [[GroupChangeBatch]] = Array(repeating: [], count: configs.count)
        var shown: [Groups] = []
        for (k, c) in configs.enumerated() {
            let controller = GroupedResultsController(fetchRequest: c.request, context: t.context, groupKeyPath: c.key)
            try controller.performFetch()
            controller.onChange = { received[k].append($0) }
            // Half learn the rows' groups now, half at their first change set.
            if k % 2 == 0 { try controller.prepareForChanges() }
            controllers.append(controller)
            shown.append(Groups(controller))
            #expect(shown[k] == (try Self.bruteForce(t, c)), "seed \(seed): \(c.name) differs from Swift's count")
        }
        var kinds: [ChangeType: Int] = [:]
        for step in 0..<Self.steps {
            let how = step % 40 == 39 ? 4 : Int.random(in: 0..<4, using: &rng)
            try mutator.apply(how)
            for (k, c) in configs.enumerated() {
                let expected = try Self.fresh(t, c)
                var values = shown[k].values
                for batch in received[k] {
                    for change in batch.changes { kinds[change.change, default: 0] += 1 }
                    do {
                        values = try Self.apply(batch, to: values)
                    } catch {
                        Issue.record("seed \(seed) step \(step) (\(how)) \(c.name): \(error)\nold: \(shown[k])")
                        return
                    }
                }
                let batches = received[k]
                received[k].removeAll()
                let now = Groups(controllers[k])
                guard values == expected.values, now == expected else {
                    Issue.record(
                        "seed \(seed) step \(step) (\(how)) \(c.name): the batches do not give a fresh GROUP BY\nbatches: \(batches)\nexpected: \(expected)\ngot: \(values)\ncontroller: \(now)"
                    )
                    return
                }
                // A group whose count changed is in a batch (its row redrawn).
                let before = Dictionary(uniqueKeysWithValues: zip(shown[k].values, shown[k].counts))
                let named = Set(batches.flatMap(\.changes).map { FetchedResultsController.sectionIdentity($0.value) })
                for (value, count) in zip(now.values, now.counts) where before[value] != count {
                    guard named.contains(value) else {
                        Issue.record("seed \(seed) step \(step) \(c.name): \(value) went to \(count) in no batch")
                        return
                    }
                }
                if step % 50 == 0, expected != (try Self.bruteForce(t, c)) {
                    Issue.record("seed \(seed) step \(step) \(c.name): GROUP BY differs from Swift's count")
                    return
                }
                shown[k] = now
            }
        }
        for kind in ChangeType.allCases {
            #expect(kinds[kind, default: 0] > 0, "seed \(seed): no \(kind) was reported")
        }
        for controller in controllers {
            #expect(controller.statistics.refetches == 0)
            #expect(controller.statistics.membershipBuilds == 1)
            #expect(controller.statistics.incrementalBatches > Self.steps / 4)
        }
        print("grouped seed \(seed): \(kinds)")
    }
}
