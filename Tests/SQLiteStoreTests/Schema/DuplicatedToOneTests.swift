import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

/// Several rows on the foreign-key side of a to-one relationship pointing at
/// the same object (a `sqlite3` shell can write them): SQL joins and Swift
/// reads pick the same one, the lowest id, and a join never repeats the object.
/// And a unique key that a newer model adds over rows that break it.
@Suite("Duplicated to-one rows and new unique keys")
struct DuplicatedToOneTests {
    let dir = TemporaryDirectory()

    /// Bank 1 with details 10 (2011) and 12 (2013), and 11 (2012) inserted in between; bank 2 with details 20.
    func storeWithDuplicates() throws -> Store {
        let store = try Store(path: dir.path("dup.sqlite"), model: BankModel.model())
        try store.database.execute(
            """
            INSERT INTO failed_bank_info(id, name, city, state) VALUES (1, 'One', 'A', 'TX'), (2, 'Two', 'B', 'CA');
            INSERT INTO failed_bank_details(id, close_date, info_id) VALUES (12, '2013-01-01', 1), (10, '2011-01-01', 1),
                                                                           (20, '2020-01-01', 2), (11, '2012-01-01', 1);
            """
        )
        return store
    }

    func joined(_ store: Store, where condition: String = "1") throws -> [[StoreValue]] {
        let source = try store.model.sqlSource(root: "FailedBankInfo", keyPaths: ["details.closeDate", "details"])
        let date = try source.expression(forKeyPath: "details.closeDate")
        let id = try source.expression(forKeyPath: "details")
        return try store.database.query(
            "SELECT t0.id, \(id), \(date) FROM \(source.from) WHERE \(condition) ORDER BY t0.id"
        )
    }

    @Test func aJoinThroughTheInverseSideKeepsOnlyTheLowestIDRow() throws {
        let store = try storeWithDuplicates()
        #expect(
            try joined(store) == [
                [.integer(1), .integer(10), .text("2011-01-01")], [.integer(2), .integer(20), .text("2020-01-01")],
            ]
        )
        // Also when SQLite runs the join from the details side (a condition on a details column).
        #expect(
            try joined(store, where: "t1.close_date >= '2012-06-01'") == [
                [.integer(2), .integer(20), .text("2020-01-01")]
            ]
        )
    }

    @Test func swiftReadsTheSameRowAsTheJoin() throws {
        let store = try storeWithDuplicates()
        let context = ObjectContext(store: store)
        let bank = try #require(try context.object(with: ObjectID(entity: "FailedBankInfo", rowID: 1)))
        #expect(bank.related("details")?.objectID.rowID == 10)
        #expect(bank.value(forKeyPath: "details.closeYear") == .text("2011"))
    }

    @Test func afterDeletingTheLowestRowTheNextLowestIsTheLinkInSQLAndSwift() throws {
        let store = try storeWithDuplicates()
        let context = ObjectContext(store: store)
        let bank = try #require(try context.object(with: ObjectID(entity: "FailedBankInfo", rowID: 1)))
        context.delete(try #require(bank.related("details")))
        try context.save()
        #expect(try joined(store).first == [.integer(1), .integer(11), .text("2012-01-01")])
        #expect(bank.related("details")?.objectID.rowID == 11, "the context's bank still says it has no details")
        #expect(bank.value(forKeyPath: "details.closeDate") == .text("2012-01-01"))
    }

    // MARK: A unique key added by a migration

    /// The test model at version 2 with `details.info` unique (one details row per bank).
    static func uniqueModel(migrations: [Migration] = [Migration(from: 1, to: 2) { _ in }]) -> Model {
        var model = BankModel.model(version: 2, migrations: migrations)
        let d = BankModel.details
        model.entities[1] = Entity(
            d.name,
            attributes: d.attributes,
            relationships: d.relationships,
            derived: d.derived,
            uniqueKeys: [["info"]]
        )
        return model
    }

    @Test func aNewStoreEnforcesTheKeyWithOneIndexOnTheColumn() throws {
        let store = try Store(path: dir.path("new.sqlite"), model: Self.uniqueModel())
        #expect(try store.enforcesUniqueKey(["info"], of: "FailedBankDetails"))
        let onInfoID = try store.database.query(
            """
            SELECT il.name FROM pragma_index_list('failed_bank_details') AS il
            WHERE (SELECT group_concat(name) FROM pragma_index_info(il.name)) = 'info_id'
            """
        )
        #expect(onInfoID == [[.text("failed_bank_details_unique_info_id")]])
        try store.database.execute("INSERT INTO failed_bank_info(id, name, city, state) VALUES (1, 'One', 'A', 'TX')")
        try store.database.execute("INSERT INTO failed_bank_details(close_date, info_id) VALUES ('2011-01-01', 1)")
        #expect(throws: SQLiteError.self) {
            try store.database.execute("INSERT INTO failed_bank_details(close_date, info_id) VALUES ('2012-01-01', 1)")
        }
    }

    @Test func migratingAStoreWithoutDuplicatesEnforcesTheKey() throws {
        let path = dir.path("v1.sqlite")
        do {
            let old = try Store(path: path, model: BankModel.model())
            try old.database.execute(
                """
                INSERT INTO failed_bank_info(id, name, city, state) VALUES (1, 'One', 'A', 'TX');
                INSERT INTO failed_bank_details(close_date, info_id) VALUES ('2011-01-01', 1);
                """
            )
            #expect(try !old.enforcesUniqueKey(["info"], of: "FailedBankDetails"))
        }
        let store = try Store(path: path, model: Self.uniqueModel())
        #expect(try store.database.userVersion() == 2)
        #expect(try store.enforcesUniqueKey(["info"], of: "FailedBankDetails"))
        #expect(throws: SQLiteError.self) {
            try store.database.execute("INSERT INTO failed_bank_details(close_date, info_id) VALUES ('2012-01-01', 1)")
        }
    }

    @Test func aStoreWhoseRowsBreakANewUniqueKeyStillOpensWithAPlainIndexAndReopens() throws {
        let path = dir.path("dup.sqlite")
        _ = try storeWithDuplicates()
        let store = try Store(path: path, model: Self.uniqueModel())
        #expect(try store.database.userVersion() == 2)
        #expect(try !store.enforcesUniqueKey(["info"], of: "FailedBankDetails"))
        // The column stays indexed: the plain index the key's columns get instead.
        let plan = try store.database.query("EXPLAIN QUERY PLAN SELECT id FROM failed_bank_details WHERE info_id = 1")
            .map { $0[3].string ?? "" }
        #expect(plan.contains { $0.contains("USING") && $0.contains("INDEX failed_bank_details_info_id") }, "\(plan)")
        #expect(try joined(store).count == 2)
        // Nothing was deleted, and the file opens again (the schema is current now).
        #expect(try store.database.scalar("SELECT count(*) FROM failed_bank_details") == .integer(4))
        let again = try Store(path: path, model: Self.uniqueModel())
        #expect(try !again.enforcesUniqueKey(["info"], of: "FailedBankDetails"))
        let readOnly = try Store(path: path, model: Self.uniqueModel(), readOnly: true)
        #expect(try joined(readOnly).count == 2)
    }

    @Test func anEnforcedKeyMakesThePlainJoinAndAPlainIndexKeepsTheLowestIDJoin() throws {
        let enforced = try Store(path: dir.path("new.sqlite"), model: Self.uniqueModel())
        #expect(enforced.model.entity(named: "FailedBankDetails")?.uniqueKeys == [["info"]])
        let plain = try enforced.model.sqlSource(root: "FailedBankInfo", keyPaths: ["details.closeDate"]).from
        #expect(plain == "failed_bank_info AS t0 LEFT JOIN failed_bank_details AS t1 ON t1.info_id = t0.id")
        // A file that holds the key only as a plain index: the store's model leaves the key out.
        _ = try storeWithDuplicates()
        let duplicated = try Store(path: dir.path("dup.sqlite"), model: Self.uniqueModel())
        #expect(duplicated.model.entity(named: "FailedBankDetails")?.uniqueKeys == [])
        let guarded = try duplicated.model.sqlSource(root: "FailedBankInfo", keyPaths: ["details.closeDate"]).from
        #expect(guarded.contains("NOT EXISTS"))
    }
}
