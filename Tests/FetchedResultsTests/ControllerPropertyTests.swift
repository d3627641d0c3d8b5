import Foundation
import SQLiteStore
import TestSupport
import Testing

@_spi(Benchmark) @testable import FetchedResults

/// Rules 3–6 on random workloads: every batch, applied to the previous
/// snapshot by rule 4 (FetchedResults.docc/ChangeBatches.md), equals a fresh fetch; every batch passes UIKit's count
/// rule; no object twice; no self-moves. Changes come from the controller's
/// own context, from a second connection's context, and as raw SQL on a
/// second connection (what another process or the `sqlite3` shell does).
///
/// Seeds are fixed; a failure prints its seed and step. `PROPERTY_LONG=1` runs many more steps;
/// `PROPERTY_QUICK=1` (CI's run under AddressSanitizer, which needs the code paths, not the
/// thousands of batches the plain run checks) fewer.
@Suite("Incremental change batches (property)")
struct ControllerPropertyTests {
    static let isLong = PropertySettings.isLong
    static let isQuick = PropertySettings.isQuick
    static let steps = isLong ? 10_000 : isQuick ? 100 : 500

    static let names = [
        "alpha", "Alpha", "ALPHA", "Émile", "émile", "emile", "zeta", "Zeta", "beta", "Beta bank", "1st Bank", "_under",
        "First State Bank", "first state bank", "First State Bank of Alpha Land", "日本", "ß bank",
        "100 Bank", "a", "A", "amber", "Apex", "abc", "Abc", "bank of zed", "(paren)",
    ]
    static let states = ["CA", "TX", "NY", "IL", "FL", "ca", "GA"]

    struct Config {
        var name: String
        var request: FetchRequest
        var section: String?
    }

    static func configs() throws -> [Config] {
        var byDate = FetchRequest(entity: "FailedBankInfo")
        byDate.sortDescriptors = [
            FetchSort("details.closeDate", ascending: false), FetchSort("name", comparison: .caseInsensitive),
        ]
        byDate.fetchBatchSize = 20
        var byState = FetchRequest(entity: "FailedBankInfo")
        byState.sortDescriptors = [FetchSort("state"), FetchSort("name", comparison: .caseInsensitive)]
        byState.predicate = try FetchPredicate("details.closeDate >= '2006-01-01' OR name BEGINSWITH[c] 'a'")
        var byName = FetchRequest(entity: "FailedBankInfo")
        byName.sortDescriptors = [FetchSort("name", comparison: .caseInsensitive)]
        byName.predicate = try FetchPredicate(
            "state IN {'CA', 'TX', 'NY'} AND (details.fund == nil OR details.fund < 50)"
        )
        var byInitial = FetchRequest(entity: "FailedBankInfo")
        byInitial.sortDescriptors = [FetchSort("name", comparison: .caseInsensitive)]
        var byYearAsc = FetchRequest(entity: "FailedBankInfo")
        byYearAsc.sortDescriptors = [FetchSort("details.closeYear"), FetchSort("city", ascending: false)]
        return [
            Config(name: "date/year", request: byDate, section: "details.closeYear"),
            Config(name: "state/state filtered", request: byState, section: "state"),
            Config(name: "name filtered", request: byName, section: nil),
            Config(name: "year asc/year", request: byYearAsc, section: "details.closeYear"),
            Config(name: "name/initial", request: byInitial, section: "initial"),
        ]
    }

    static func fresh(_ t: TempStore, _ c: Config) throws -> Snapshot {
        let f = FetchedResultsController(fetchRequest: c.request, context: t.context, sectionNameKeyPath: c.section)
        try f.performFetch()
        return Snapshot(f)
    }

    /// The expected results computed in Swift from every object, independent of the controller's SQL.
    static func bruteForce(_ t: TempStore, _ c: Config) throws -> Snapshot {
        let all = try t.context.fetch("FailedBankInfo")
        var sorts = c.request.sortDescriptors
        if let s = c.section, s != sorts[0].keyPath { sorts.insert(FetchSort(s, ascending: sorts[0].ascending), at: 0) }
        let matching = all.filter { c.request.predicate?.matches($0) ?? true }.sorted { a, b in
            for s in sorts {
                let x = s.compare(a.value(forKeyPath: s.keyPath), b.value(forKeyPath: s.keyPath))
                if x != 0 { return x < 0 }
            }
            return a.objectID.rowID < b.objectID.rowID
        }
        guard let key = c.section else { return Snapshot(sections: [("", matching.map(\.objectID))]) }
        return Snapshot(grouping: matching, by: { $0.value(forKeyPath: key) })
    }

    /// One random change, applied through a context (own or second) or as raw SQL.
    struct Mutator {
        var rng: SeededGenerator
        let t: TempStore
        let otherStore: Store
        let other: ObjectContext
        var nextCert: Int64 = 5_000_000

        mutating func pick<T>(_ a: [T]) -> T { a.randomElement(using: &rng)! }

        /// The change `how` (from 0 to 4), then the test's context told of what changed outside it:
        /// 0 and 1 through the test's context, 2 through the second context, 3 as raw SQL, 4 as
        /// ``massViaSQL()``.
        mutating func apply(_ how: Int) throws {
            switch how {
            case 4:
                try massViaSQL()
                _ = try t.context.processExternalChanges()
            case 0, 1: try viaContext(t.context)
            case 2:
                _ = try other.processExternalChanges()
                try viaContext(other)
                _ = try t.context.processExternalChanges()
            default:
                try viaSQL()
                _ = try t.context.processExternalChanges()
            }
        }
        mutating func chance(_ n: Int) -> Bool { Int.random(in: 0..<n, using: &rng) == 0 }

        mutating func date() -> String {
            if chance(6) {
                // Reuse an existing date: ties.
                if let d = try? t.store.database.scalar(
                    "SELECT close_date FROM failed_bank_details ORDER BY random() LIMIT 1"
                ).string {
                    return d
                }
            }
            // Now and then a year nobody is in: a new section, soon emptied again.
            let year = chance(5) ? Int.random(in: 1985...1994, using: &rng) : Int.random(in: 2000...2012, using: &rng)
            return String(
                format: "%04d-%02d-%02d",
                year,
                Int.random(in: 1...12, using: &rng),
                Int.random(in: 1...28, using: &rng)
            )
        }

        /// Recently touched banks are picked often, so sections empty and objects change repeatedly.
        var recent: [Int64] = []

        mutating func target(_ all: [Int64]) -> Int64 {
            if !recent.isEmpty && chance(2) { return pick(recent) }
            let id = pick(all)
            recent.append(id)
            if recent.count > 8 { recent.removeFirst() }
            return id
        }

        func ids() throws -> [Int64] {
            try t.store.database.query("SELECT id FROM failed_bank_info").map { $0[0].int64! }
        }

        /// Performs 1–6 operations in `context`, then saves.
        mutating func viaContext(_ context: ObjectContext) throws {
            let all = try ids()
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let op = Int.random(in: 0..<12, using: &rng)
                if op == 0 || all.isEmpty {
                    let info = context.insert(into: "FailedBankInfo")
                    info["name"] = .text(pick(ControllerPropertyTests.names))
                    info["city"] = .text(pick(["Springfield", "Shelbyville", "Ogdenville"]))
                    info["state"] = .text(pick(ControllerPropertyTests.states))
                    if !chance(8) {
                        let d = context.insert(into: "FailedBankDetails")
                        d["closeDate"] = .text(date())
                        nextCert += 1
                        d["cert"] = .integer(nextCert)
                        d["fund"] = chance(2) ? .null : .integer(Int64.random(in: 0...100, using: &rng))
                        d.setRelated(info, for: "info")
                    }
                    continue
                }
                guard let object = try context.object(with: ObjectID(entity: "FailedBankInfo", rowID: target(all))),
                    !object.isDeleted
                else { continue }
                switch op {
                case 1: context.delete(object)
                case 2, 3: object["name"] = .text(pick(ControllerPropertyTests.names))
                case 4: object["state"] = .text(chance(4) ? pick(["WY", "AK"]) : pick(ControllerPropertyTests.states))
                case 5, 6:
                    if let d = object.related("details") { d["closeDate"] = .text(date()) }
                case 7:
                    if let d = object.related("details") {
                        context.delete(d)
                    } else {
                        let d = context.insert(into: "FailedBankDetails")
                        d["closeDate"] = .text(date())
                        nextCert += 1
                        d["cert"] = .integer(nextCert)
                        d.setRelated(object, for: "info")
                    }
                case 8:
                    if let d = object.related("details") {
                        d["fund"] = chance(3) ? .null : .integer(Int64.random(in: 0...100, using: &rng))
                    }
                case 9: object["city"] = .text(pick(["Springfield", "Shelbyville", "Ogdenville", "Capital City"]))
                case 10:
                    if let d = object.related("details") {
                        d["acquiringInstitution"] = .text(pick(ControllerPropertyTests.names))
                    }
                default:
                    // Two changes to the same object in one save.
                    object["name"] = .text(pick(ControllerPropertyTests.names))
                    if let d = object.related("details") { d["closeDate"] = .text(date()) }
                }
            }
            try context.save()
        }

        /// A new bank with its details, as raw SQL on `db`.
        mutating func insertBankViaSQL(_ db: Database) throws {
            try db.run(
                "INSERT INTO failed_bank_info(name, city, state) VALUES (?, 'Springfield', ?)",
                [.text(pick(ControllerPropertyTests.names)), .text(pick(ControllerPropertyTests.states))]
            )
            let newID = db.lastInsertRowID
            nextCert += 1
            try db.run(
                "INSERT INTO failed_bank_details(close_date, cert, info_id) VALUES (?, ?, ?)",
                [.text(date()), .integer(nextCert), .integer(newID)]
            )
        }

        /// One transaction on the second connection changing hundreds of banks at
        /// once (new closing dates and names, some deletions and new banks): a
        /// change set large enough for the controller to read its rows on two
        /// connections and to touch many rows of one chunk.
        mutating func massViaSQL() throws {
            let db = otherStore.database
            let all = try ids()
            guard !all.isEmpty else { return }
            try db.transaction {
                for _ in 0..<Int.random(in: 300...600, using: &rng) {
                    let id = pick(all)
                    switch Int.random(in: 0..<20, using: &rng) {
                    case 0: try db.run("DELETE FROM failed_bank_info WHERE id = ?", [.integer(id)])
                    case 1: try insertBankViaSQL(db)
                    case 2...5:
                        try db.run(
                            "UPDATE failed_bank_info SET name = ? WHERE id = ?",
                            [.text(pick(ControllerPropertyTests.names)), .integer(id)]
                        )
                    case 6:
                        try db.run(
                            "UPDATE failed_bank_info SET state = ? WHERE id = ?",
                            [.text(pick(ControllerPropertyTests.states)), .integer(id)]
                        )
                    default:
                        try db.run(
                            "UPDATE failed_bank_details SET close_date = ? WHERE info_id = ?",
                            [.text(date()), .integer(id)]
                        )
                    }
                }
            }
        }

        /// Whether ``viaSQL()`` also writes extra details rows for banks that have one (nothing in
        /// this model forbids them; the controller must show the lowest-id one, never the bank twice).
        var duplicates = false
        /// Banks given an extra details row while this mutator ran (while that row lived, it showed when lower).
        var duplicateInserts = 0

        /// Raw SQL on the second connection, as the sqlite3 shell would write.
        mutating func viaSQL() throws {
            let db = otherStore.database
            let all = try ids()
            guard !all.isEmpty else { return }
            let id = target(all)
            if duplicates && chance(2) { return try duplicateViaSQL(db, bank: id) }
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: try db.run("DELETE FROM failed_bank_info WHERE id = ?", [.integer(id)])
            case 1:
                try db.run(
                    "UPDATE failed_bank_info SET name = ? WHERE id = ?",
                    [.text(pick(ControllerPropertyTests.names)), .integer(id)]
                )
            case 2:
                try db.run(
                    "UPDATE failed_bank_details SET close_date = ? WHERE info_id = ?",
                    [.text(date()), .integer(id)]
                )
            case 3: try db.transaction { try insertBankViaSQL(db) }
            case 4:
                try db.run(
                    "UPDATE failed_bank_info SET state = ? WHERE id IN (?, ?)",
                    [.text(pick(ControllerPropertyTests.states)), .integer(id), .integer(Int64(pick(all)))]
                )
            default:
                try db.run(
                    "UPDATE failed_bank_details SET fund = ? WHERE info_id = ?",
                    [.integer(Int64.random(in: 0...100, using: &rng)), .integer(id)]
                )
            }
        }

        /// A change of a bank's extra details rows: a second row (at a higher id, or at a free id
        /// below the bank's lowest one, which then becomes the one shown), a new date on any of
        /// its rows, its lowest row deleted (the next one shows), or a row moved to another bank.
        mutating func duplicateViaSQL(_ db: Database, bank id: Int64) throws {
            guard
                try db.scalar("SELECT EXISTS (SELECT 1 FROM failed_bank_info WHERE id = ?)", [.integer(id)]).int64 == 1
            else { return }
            let rows = try db.query("SELECT id FROM failed_bank_details WHERE info_id = ? ORDER BY id", [.integer(id)])
                .map { $0[0].int64! }
            switch Int.random(in: 0..<6, using: &rng) {
            case 0, 1:
                nextCert += 1
                var newID: StoreValue = .null
                if let lowest = rows.first, chance(2),
                    let free = try db.scalar(
                        "SELECT max(id) + 1 FROM failed_bank_details WHERE id < ?",
                        [.integer(lowest)]
                    ).int64,
                    free < lowest
                {
                    newID = .integer(free)
                }
                try db.run(
                    "INSERT INTO failed_bank_details(id, close_date, cert, fund, info_id) VALUES (?, ?, ?, ?, ?)",
                    [
                        newID, .text(date()), .integer(nextCert),
                        chance(2) ? .null : .integer(Int64.random(in: 0...100, using: &rng)), .integer(id),
                    ]
                )
                if !rows.isEmpty { duplicateInserts += 1 }
            case 2:
                guard !rows.isEmpty else { return }
                try db.run(
                    "UPDATE failed_bank_details SET close_date = ? WHERE id = ?",
                    [.text(date()), .integer(pick(rows))]
                )
            case 3:
                guard let lowest = rows.first, rows.count > 1 || chance(4) else { return }
                try db.run("DELETE FROM failed_bank_details WHERE id = ?", [.integer(lowest)])
            case 4:
                guard let row = rows.last else { return }
                try db.run(
                    "UPDATE failed_bank_details SET info_id = ? WHERE id = ?",
                    [.integer(pick(try ids())), .integer(row)]
                )
            default:
                guard !rows.isEmpty else { return }
                try db.run(
                    "UPDATE failed_bank_details SET fund = ? WHERE id = ?",
                    [.integer(Int64.random(in: 0...100, using: &rng)), .integer(pick(rows))]
                )
            }
        }
    }

    static let seeds: [UInt64] = [11, 42, 1977, 0xC0FFEE]

    @Test(arguments: seeds)
    func everyBatchAppliedToTheOldSnapshotGivesTheNewFetch(seed: UInt64) throws {
        try Self.run(seed: seed, duplicates: false)
    }

    @Test(
        "with extra details rows for a bank written by raw SQL (inserted, re-dated, deleted, moved), every batch still applies and equals a fresh fetch; no bank shows twice",
        arguments: [UInt64(7), 2026]
    )
    func duplicatedDetailsRowsNeverBreakABatch(seed: UInt64) throws {
        try Self.run(seed: seed, duplicates: true)
    }

    @Test(
        "with one details row per bank enforced, saves give the rows they wrote (a re-dated bank's date is not read again), and every batch still equals a fresh fetch",
        arguments: [UInt64(5), 99]
    )
    func valuesTakenFromSavesGiveTheSameBatches(seed: UInt64) throws {
        try Self.run(seed: seed, duplicates: false, model: BankModel.uniqueDetailsModel)
    }

    static func run(seed: UInt64, duplicates: Bool, model: Model = BankModel.model) throws {
        let t = try TempStore(model: model)
        var rng = SeededGenerator(seed: seed)
        // ≥ 500 banks across 13 years, with ties and banks without details, written by "an importer".
        let (otherStore, other) = try t.secondConnection()
        let db = otherStore.database
        try db.transaction {
            for i in 0..<520 {
                try db.run(
                    "INSERT INTO failed_bank_info(name, city, state) VALUES (?, 'Springfield', ?)",
                    [.text(Self.names.randomElement(using: &rng)!), .text(Self.states.randomElement(using: &rng)!)]
                )
                let id = db.lastInsertRowID
                if i % 9 == 0 { continue }
                try db.run(
                    "INSERT INTO failed_bank_details(close_date, cert, fund, info_id) VALUES (?, ?, ?, ?)",
                    [
                        .text(String(format: "%04d-%02d-%02d", 2000 + i % 13, 1 + i % 12, 1 + i % 27)),
                        .integer(Int64(i + 1)),
                        i % 3 == 0 ? .null : .integer(Int64(i % 100)), .integer(id),
                    ]
                )
            }
        }
        _ = try t.context.processExternalChanges()
        _ = try other.processExternalChanges()
        var mutator = Mutator(rng: SeededGenerator(seed: seed &+ 1), t: t, otherStore: otherStore, other: other)
        mutator.duplicates = duplicates

        let configs = try Self.configs()
        var controllers: [FetchedResultsController] = []
        var received: [[ChangeBatch]] = Array(repeating: [], count: configs.count)
        var snapshots: [Snapshot] = []
        for (k, c) in configs.enumerated() {
            let controller = FetchedResultsController(
                fetchRequest: c.request,
                context: t.context,
                sectionNameKeyPath: c.section
            )
            // The first controller's split reads wait for the second thread's first chunk: the
            // test asserts below that some read was split, which a loaded machine may otherwise
            // never schedule (the caller can read every chunk before the other thread runs).
            controller.splitReadsWaitForOtherThread = k == 0
            try controller.performFetch()
            controller.onChange = { received[k].append($0) }
            controllers.append(controller)
            snapshots.append(Snapshot(controller))
            #expect(
                snapshots[k] == (try Self.bruteForce(t, c)),
                "seed \(seed): initial fetch of \(c.name) differs from Swift's"
            )
        }

        var lastChanges: [ChangeSet] = []
        t.context.addObserver { lastChanges.append($0) }
        var kinds: [ChangeType: Int] = [:]
        var sectionKinds: [ChangeType: Int] = [:]
        for step in 0..<Self.steps {
            lastChanges.removeAll()
            let how = step % 50 == 49 ? 4 : Int.random(in: 0..<4, using: &rng)
            try mutator.apply(how)
            for (k, c) in configs.enumerated() {
                let expected = try Self.fresh(t, c)
                let shown = expected.sections.flatMap(\.ids)
                if Set(shown).count != shown.count {
                    Issue.record("seed \(seed) step \(step) \(c.name): a fresh fetch shows a bank twice")
                    return
                }
                var snapshot = snapshots[k]
                for batch in received[k] {
                    for c in batch.objectChanges { kinds[c.change, default: 0] += 1 }
                    for c in batch.sectionChanges { sectionKinds[c.change, default: 0] += 1 }
                    do {
                        snapshot = try BatchChecker.apply(batch, to: snapshot)
                    } catch {
                        Issue.record(
                            "seed \(seed) step \(step) (\(how)) \(c.name): \(error)\nbatch: \(batch)\nold:\n\(snapshots[k])"
                        )
                        return
                    }
                }
                let batches = received[k]
                received[k].removeAll()
                if snapshot != expected {
                    Issue.record(
                        "seed \(seed) step \(step) (\(how)) \(c.name): applying the batches does not give the fresh fetch\nchanges: \(lastChanges)\nbatches: \(batches)\nexpected:\n\(expected)\ngot:\n\(snapshot)"
                    )
                    return
                }
                if Snapshot(controllers[k]) != expected {
                    Issue.record(
                        "seed \(seed) step \(step) \(c.name): the controller's own state differs from a fresh fetch"
                    )
                    return
                }
                if step % 50 == 0, expected != (try Self.bruteForce(t, c)) {
                    Issue.record("seed \(seed) step \(step) \(c.name): the fetch differs from Swift's filter and sort")
                    return
                }
                snapshots[k] = snapshot
            }
        }
        // The workload exercised every kind of change, incrementally.
        for kind in ChangeType.allCases {
            #expect(kinds[kind, default: 0] > 0, "seed \(seed): no \(kind) was reported")
        }
        #expect(
            sectionKinds[.insert, default: 0] > 0 && (duplicates || sectionKinds[.delete, default: 0] > 0),
            "seed \(seed): sections were never created and emptied"
        )
        for c in controllers {
            #expect(c.statistics.refetches == 0 && c.statistics.incrementalBatches > Self.steps / 4)
        }
        #expect(
            controllers.contains { $0.statistics.splitReads > 0 },
            "seed \(seed): no change set was large enough to read on two connections"
        )
        #expect(
            controllers.allSatisfy { $0.statistics.rowsWithWrittenValues > 0 },
            "seed \(seed): no change set's own values were used"
        )
        if duplicates {
            let duplicated = try t.store.database.scalar(
                "SELECT count(*) FROM (SELECT 1 FROM failed_bank_details GROUP BY info_id HAVING count(*) > 1)"
            )
            // A fifth of the steps in the quick form: a fifth of the duplicates expected.
            #expect(
                mutator.duplicateInserts > (Self.isQuick ? 1 : 5) && (duplicated.int64 ?? 0) > 0,
                "seed \(seed): too few banks had extra details rows"
            )
        }
        print("seed \(seed): \(kinds) sections \(sectionKinds) probes \(controllers.map(\.statistics.probeReads))")
    }
}
