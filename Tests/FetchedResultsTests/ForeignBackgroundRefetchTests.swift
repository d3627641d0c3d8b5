import Foundation
import SQLiteStore
import TestSupport
import Testing

@_spi(Benchmark) @testable import FetchedResults

/// A controller over a database made with raw SQL (rollback journal, no triggers, odd
/// identifiers): other connections' changes arrive as resets, and the background
/// refetch's batch, applied to the old results by rule 4, equals a fresh fetch.
@Suite("Foreign databases: background refetch and diff")
struct ForeignBackgroundRefetchTests {
    final class ForeignFile {
        let folder = TemporaryDirectory("frc-foreign")
        var directory: String { folder.path }
        var path: String { directory + "/items.sqlite" }
        let writer: Database

        init() throws {
            var options = Database.Options()
            options.walMode = false
            let path = folder.path("items.sqlite")
            writer = try Database(path: path, options: options)
            try writer.execute(
                """
                CREATE TABLE "the items" ("Item Name" TEXT, "Group" TEXT, "n" INTEGER);
                CREATE INDEX "by group" ON "the items"("Group", "Item Name");
                """
            )
        }

        func store() throws -> Store {
            let catalog = try DatabaseCatalog(path: path)
            let table = try #require(catalog.table(named: "the items"))
            let initial = DerivedAttribute("initial", .text, sql: "upper(substr($.\"Item Name\", 1, 1))") { value in
                guard case .text(let s) = value("Item Name") else { return .null }
                return .text(String(s.prefix(1)).uppercased())
            }
            let entity = table.entity(named: "items", derived: [initial])
            return try Store(
                foreignDatabaseAt: path,
                model: Model(version: 1, applicationID: 0, entities: [entity]),
                readOnly: false
            )
        }
    }

    struct Seeded: RandomNumberGenerator {
        var mix: SplitMix
        mutating func next() -> UInt64 { mix.next() }
    }

    static func byGroup() -> (FetchRequest, String) {
        var request = FetchRequest(entity: "items")
        request.sortDescriptors = [FetchSort("Group"), FetchSort("Item Name", ascending: false)]
        request.fetchBatchSize = 16
        return (request, "Group")
    }

    static func byInitial() -> (FetchRequest, String) {
        var request = FetchRequest(entity: "items")
        request.sortDescriptors = [FetchSort("Item Name"), FetchSort("n", ascending: false)]
        return (request, "initial")
    }

    static func fresh(_ store: Store, _ config: (FetchRequest, String)) throws -> Snapshot {
        let controller = FetchedResultsController(
            fetchRequest: config.0,
            context: ObjectContext(store: store),
            sectionNameKeyPath: config.1
        )
        try controller.performFetch()
        return Snapshot(controller)
    }

    static let names = [
        "apple", "Apple", "banana", "cherry", "date", "Émile", "fig", "grape", "kiwi", "lemon", "mango", "1st", "zeta",
    ]
    static let groups: [StoreValue] = [.text("fruit"), .text("Fruit"), .text("nuts"), .text("x y"), .null, .integer(7)]

    /// One random write by another connection: inserts, deletes or updates of one to a few rows.
    static func randomWrite(_ db: Database, _ rng: inout Seeded) throws {
        let count = try db.scalar("SELECT count(*) FROM \"the items\"").int64 ?? 0
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<4:
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                try db.run(
                    "INSERT INTO \"the items\" VALUES (?, ?, ?)",
                    [
                        .text(names.randomElement(using: &rng)!), groups.randomElement(using: &rng)!,
                        .integer(Int64.random(in: 0...9, using: &rng)),
                    ]
                )
            }
        case 4..<6 where count > 0:
            try db.run(
                "DELETE FROM \"the items\" WHERE rowid IN (SELECT rowid FROM \"the items\" ORDER BY random() LIMIT ?)",
                [.integer(Int64.random(in: 1...2, using: &rng))]
            )
        case 6..<8 where count > 0:
            try db.run(
                "UPDATE \"the items\" SET \"Group\" = ? WHERE rowid = (SELECT rowid FROM \"the items\" ORDER BY random() LIMIT 1)",
                [groups.randomElement(using: &rng)!]
            )
        default:
            guard count > 0 else { return }
            try db.run(
                "UPDATE \"the items\" SET \"Item Name\" = ?, n = ? WHERE rowid = (SELECT rowid FROM \"the items\" ORDER BY random() LIMIT 1)",
                [.text(names.randomElement(using: &rng)!), .integer(Int64.random(in: 0...9, using: &rng))]
            )
        }
    }

    @Test(arguments: [("group", 0), ("initial", 1)])
    func backgroundRefetchBatchAppliedToTheOldResultsEqualsAFreshFetch(_ name: String, _ which: Int) throws {
        let seed = UInt64(0xF7_0017) &+ UInt64(which)
        var rng = Seeded(mix: SplitMix(seed: seed))
        let file = try ForeignFile()
        for _ in 0..<30 { try Self.randomWrite(file.writer, &rng) }
        let store = try file.store()
        let context = ObjectContext(store: store)
        let config = which == 0 ? Self.byGroup() : Self.byInitial()
        let controller = FetchedResultsController(
            fetchRequest: config.0,
            context: context,
            sectionNameKeyPath: config.1
        )
        controller.refetchesInBackgroundOnReset = true
        var delivered: [ChangeBatch] = []
        controller.onChange = { delivered.append($0) }
        try controller.performFetch()
        var snapshot = Snapshot(controller)
        for round in 0..<300 {
            for _ in 0..<Int.random(in: 1...3, using: &rng) { try Self.randomWrite(file.writer, &rng) }
            let changes = try #require(try context.processExternalChanges(), "seed \(seed) round \(round)")
            #expect(changes.isReset)
            #expect(controller.backgroundWork == [.refetch])
            delivered.removeAll()
            let outcome = try controller.waitForBackgroundWork()
            guard case .refetched(let batch)? = outcome else {
                Issue.record("no refetch delivered: seed \(seed) round \(round)")
                return
            }
            #expect(batch.isReset && delivered.count == 1)
            #expect(controller.backgroundWork.isEmpty)
            let applied = try BatchChecker.apply(batch, to: snapshot)
            let expected = try Self.fresh(store, config)
            #expect(applied == expected, "seed \(seed) round \(round)")
            #expect(Snapshot(controller) == expected, "seed \(seed) round \(round)")
            guard applied == expected else { return }
            snapshot = applied
        }
    }

    /// The batches a controller delivered, applied one after the other (rule 4) to the results it fetched first.
    final class AppliedBatches {
        var snapshot = Snapshot()
        var count = 0
    }

    /// A controller of `config` over `context`, fetched, whose every batch is applied to ``AppliedBatches``.
    static func fetchedApplyingBatches(
        _ config: (FetchRequest, String),
        context: ObjectContext
    ) throws -> (FetchedResultsController, AppliedBatches) {
        let controller = FetchedResultsController(
            fetchRequest: config.0,
            context: context,
            sectionNameKeyPath: config.1
        )
        let applied = AppliedBatches()
        controller.onChange = { batch in
            applied.snapshot =
                (try? BatchChecker.apply(batch, to: applied.snapshot)) ?? Snapshot(sections: [("broken batch", [])])
            applied.count += 1
        }
        try controller.performFetch()
        applied.snapshot = Snapshot(controller)
        return (controller, applied)
    }

    @Test func anOwnDeleteDuringTheBackgroundRefetchRestartsIt() throws {
        var rng = Seeded(mix: SplitMix(seed: 17))
        let file = try ForeignFile()
        for _ in 0..<60 { try Self.randomWrite(file.writer, &rng) }
        let store = try file.store()
        let context = ObjectContext(store: store)
        let config = Self.byGroup()
        let (controller, applied) = try Self.fetchedApplyingBatches(config, context: context)
        try file.writer.run("INSERT INTO \"the items\" VALUES ('new one', 'fruit', 1)")
        #expect(controller.startInBackground(.refetch) == .started)
        // Meanwhile the controller's own context deletes a row: an incremental batch now, the refetch again later.
        let victim = try #require(controller.fetchedObjects.first)
        context.delete(victim)
        try context.save()
        #expect(applied.count == 1)
        try controller.waitForBackgroundWork()
        #expect(applied.count == 2)
        let expected = try Self.fresh(store, config)
        #expect(applied.snapshot == expected)
        #expect(Snapshot(controller) == expected)
        #expect(controller.indexPath(for: victim.objectID) == nil)
    }

    @Test func aCancelledBackgroundRefetchStartsAgainAndEndsRight() throws {
        let file = try ForeignFile()
        try file.writer.execute(
            """
            WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 50000)
            INSERT INTO "the items" SELECT 'item ' || (i * 7919 % 50000), CASE i % 3 WHEN 0 THEN 'fruit' WHEN 1 THEN 'nuts' ELSE NULL END, i % 10 FROM k;
            """
        )
        let store = try file.store()
        let context = ObjectContext(store: store)
        let config = Self.byGroup()
        let (controller, applied) = try Self.fetchedApplyingBatches(config, context: context)
        try file.writer.run("INSERT INTO \"the items\" VALUES ('new one', 'fruit', 1)")
        #expect(controller.startInBackground(.refetch) == .started)
        controller.cancelBackgroundWork()
        let victim = try #require(controller.fetchedObjects.first)
        context.delete(victim)
        try context.save()
        try controller.waitForBackgroundWork()
        #expect(controller.backgroundWork.isEmpty)
        let expected = try Self.fresh(store, config)
        #expect(applied.snapshot == expected)
        #expect(Snapshot(controller) == expected)
    }

    @Test func withTrackingAThousandRowChangeIsIncremental() throws {
        let file = try ForeignFile()
        try file.writer.transaction {
            let insert = try file.writer.statement("INSERT INTO \"the items\" VALUES (?, ?, ?)")
            for i in 0..<20_000 {
                try insert.bind([
                    .text(Self.names[i % Self.names.count] + " \(i)"), Self.groups[i % Self.groups.count],
                    .integer(Int64(i % 10)),
                ])
                _ = try insert.step()
                insert.reset()
            }
        }
        let store = try file.store()
        try store.installTracking(forTables: ["the items"])
        let context = ObjectContext(store: store)
        let config = Self.byGroup()
        let controller = FetchedResultsController(
            fetchRequest: config.0,
            context: context,
            sectionNameKeyPath: config.1
        )
        var batches: [ChangeBatch] = []
        controller.onChange = { batches.append($0) }
        try controller.performFetch()
        try controller.prepareForChanges()
        let before = Snapshot(controller)
        try file.writer.execute(
            """
            BEGIN;
            UPDATE "the items" SET "Group" = 'moved' WHERE rowid % 40 = 0;
            DELETE FROM "the items" WHERE rowid % 40 = 1;
            INSERT INTO "the items" SELECT "Item Name" || ' copy', "Group", n FROM "the items" WHERE rowid % 40 = 2;
            COMMIT;
            """
        )
        let changes = try #require(try context.processExternalChanges())
        #expect(
            !changes.isReset && changes.updated.count == 500 && changes.deleted.count == 500
                && changes.inserted.count == 500
        )
        #expect(controller.statistics.incrementalBatches == 1 && controller.statistics.refetches == 0)
        let batch = try #require(batches.last)
        #expect(try BatchChecker.apply(batch, to: before) == Self.fresh(store, config))
        try store.removeTracking()
    }

    @Test func withoutTrackingAResultsCacheIsNeverTrustedOverAnotherProcessesChange() throws {
        let file = try ForeignFile()
        try file.writer.execute(
            "INSERT INTO \"the items\" VALUES ('b', 'fruit', 1), ('a', 'fruit', 2), ('c', 'nuts', 3)"
        )
        let cacheDirectory = file.directory + "/cache"
        let config = Self.byGroup()
        do {
            let store = try file.store()
            let controller = FetchedResultsController(
                fetchRequest: config.0,
                context: ObjectContext(store: store),
                sectionNameKeyPath: config.1,
                cacheName: "items",
                cacheDirectory: cacheDirectory
            )
            try controller.performFetch()
        }
        // Same row count, same max rowid, same schema: only the order changed.
        try file.writer.run("UPDATE \"the items\" SET \"Group\" = 'zzz' WHERE \"Item Name\" = 'b'")
        let store = try file.store()
        let controller = FetchedResultsController(
            fetchRequest: config.0,
            context: ObjectContext(store: store),
            sectionNameKeyPath: config.1,
            cacheName: "items",
            cacheDirectory: cacheDirectory
        )
        try controller.performFetch()
        #expect(!controller.lastFetchUsedCache)
        #expect(Snapshot(controller) == (try Self.fresh(store, config)))
    }

    @Test func anOwnSaveWhileNotTrackingMakesTheNextChangeSetRefetch() throws {
        let file = try ForeignFile()
        try file.writer.execute(
            "INSERT INTO \"the items\" VALUES ('b', 'fruit', 1), ('a', 'fruit', 2), ('c', 'nuts', 3)"
        )
        let store = try file.store()
        let context = ObjectContext(store: store)
        let config = Self.byGroup()
        let controller = FetchedResultsController(
            fetchRequest: config.0,
            context: context,
            sectionNameKeyPath: config.1
        )
        try controller.performFetch()  // not tracking: no delegate, no onChange
        let a = try #require(try context.fetch("items", where: "t0.\"Item Name\" = 'a'").first)
        context.delete(a)
        try context.save()
        var batches: [ChangeBatch] = []
        controller.onChange = { batches.append($0) }
        let c = try #require(try context.fetch("items", where: "t0.\"Item Name\" = 'c'").first)
        c["Group"] = .text("fruit")
        try context.save()
        #expect(Snapshot(controller) == (try Self.fresh(store, config)))
        #expect(controller.indexPath(for: a.objectID) == nil)
    }

    @Test func idsAreTheRowIDAndTheFetchUsesTheSameQueryPlanAsRawSQL() throws {
        let file = try ForeignFile()
        try file.writer.execute(
            "INSERT INTO \"the items\" VALUES ('b', 'fruit', 1), ('a', 'fruit', 2), ('c', 'nuts', 3)"
        )
        let store = try file.store()
        let config = Self.byGroup()
        let controller = FetchedResultsController(
            fetchRequest: config.0,
            context: ObjectContext(store: store),
            sectionNameKeyPath: config.1
        )
        try controller.performFetch()
        let raw = try file.writer.query("SELECT rowid FROM \"the items\" ORDER BY \"Group\", \"Item Name\" DESC, rowid")
            .map { $0[0].int64! }
        #expect(controller.fetchedObjects.objectIDs.map(\.rowID) == raw)
        let plan = try FetchPlan(request: config.0, model: store.model, sectionNameKeyPath: config.1)
        #expect(plan.fetchSQL.hasPrefix("SELECT t0.rowid, t0.\"Group\" FROM \"the items\" AS t0 ORDER BY"))
        // The same plan as the raw query a person would write.
        func details(_ sql: String) throws -> [String] {
            try file.writer.query("EXPLAIN QUERY PLAN " + sql).map { $0[3].string ?? "" }
        }
        let rawSQL =
            "SELECT t0.rowid, t0.\"Group\" FROM \"the items\" AS t0 ORDER BY t0.\"Group\", t0.\"Item Name\" DESC, t0.rowid"
        #expect(try details(plan.fetchSQL) == details(rawSQL))
    }
}

extension Snapshot {
    init() { self.init(sections: []) }
}
