import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

@Suite("Foreign databases: catalog and hands-off store")
struct ForeignDatabaseTests {
    @Test func catalogListsTablesViewsColumnsAndRowIDs() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("other.sqlite")
        try ForeignDatabaseFixture.make(at: path)
        let catalog = try DatabaseCatalog(path: path)
        #expect(catalog.tables.map(\.name) == ["banks by state", "failed banks", "order", "student", "tags"])

        let banks = try #require(catalog.table(named: "failed banks"))
        #expect(!banks.isView && banks.rowIDColumn == "rowid")
        #expect(banks.columns.map(\.name) == ["Bank Name", "City", "ST", "Close Date", "Fund"])
        #expect(banks.columns.map(\.type) == [.text, .text, .text, .date, .integer])
        #expect(banks.columns.map(\.declaredType) == ["TEXT", "", "CHAR(2)", "DATE", "INTEGER"])
        #expect(try banks.rowCount() == 5)

        let student = try #require(catalog.table(named: "student"))
        #expect(student.rowIDColumn == "id" && student.columns[0].isPrimaryKey)
        #expect(try #require(catalog.table(named: "order")).rowIDColumn == "_rowid_")
        let tags = try #require(catalog.table(named: "tags"))
        #expect(tags.isWithoutRowID && tags.rowIDColumn == nil && tags.columns[0].isPrimaryKey)
        let view = try #require(catalog.table(named: "banks by state"))
        #expect(view.isView && view.rowIDColumn == nil)
        #expect(try view.rowCount() == 3)
    }

    @Test func catalogRefusesMissingNonSQLiteAndDamagedFiles() throws {
        let dir = TemporaryDirectory()
        #expect(throws: StoreError.missingFile(path: dir.path("none.sqlite"))) {
            try DatabaseCatalog(path: dir.path("none.sqlite"))
        }
        let csv = dir.path("banks.csv")
        try Data("Bank Name,City\nFirst,Chicago\n".utf8).write(to: URL(fileURLWithPath: csv))
        #expect(throws: StoreError.notADatabase(path: csv)) { try DatabaseCatalog(path: csv) }
        let damaged = dir.path("damaged.sqlite")
        try ForeignDatabaseFixture.make(at: damaged)
        var bytes = try #require(FileManager.default.contents(atPath: damaged))
        for i in 100..<bytes.count { bytes[i] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: damaged))
        #expect(throws: StoreError.notADatabase(path: damaged)) { try DatabaseCatalog(path: damaged) }
        #expect(throws: StoreError.missingFile(path: dir.path("none.sqlite"))) {
            try Store(
                foreignDatabaseAt: dir.path("none.sqlite"),
                model: Model(version: 1, applicationID: 0, entities: []),
                readOnly: true
            )
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("none.sqlite")))
    }

    @Test func readOnlySessionReadsAsStoredAndLeavesTheFileByteIdentical() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("other.sqlite")
        try ForeignDatabaseFixture.make(at: path)
        let before = ForeignDatabaseFixture.state(of: path)
        do {
            let catalog = try DatabaseCatalog(path: path)
            let model = try ForeignDatabaseFixture.model(catalog, table: "failed banks", entity: "Bank")
            let store = try Store(foreignDatabaseAt: path, model: model, readOnly: true)
            #expect(store.isForeign && store.isReadOnly && !store.hasTracking)
            let context = ObjectContext(store: store)
            let rows = try context.fetch("Bank", orderBy: "\"Bank Name\"")
            #expect(
                rows.map { $0["Bank Name"].string } == [
                    "First Bank", "Fourth Bank", "Odd Bank", "Second Bank", "Third Bank",
                ]
            )
            let odd = try #require(rows.first { $0["Bank Name"].string == "Odd Bank" })
            #expect(odd["Fund"] == .text("not a number"))
            #expect(odd["id"] == .integer(5))
            #expect(try context.object(with: ObjectID(entity: "Bank", rowID: 2))?["City"] == .text("Austin"))
            context.delete(rows[0])
            #expect(throws: StoreError.readOnly(path: path)) { try context.save() }
            #expect(try context.processExternalChanges() == nil)
            #expect(ForeignDatabaseFixture.state(of: path).companions.isEmpty)
        }
        let after = ForeignDatabaseFixture.state(of: path)
        #expect(after.bytes == before.bytes)
        #expect(after.companions.isEmpty)
    }

    @Test func readOnlySessionOfAWALFileLeavesNoFilesBehind() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("wal.sqlite")
        do {
            let db = try Database(path: path)  // WAL, as this project's connections make it
            try db.execute("CREATE TABLE t(a TEXT); INSERT INTO t VALUES ('x'), ('y');")
        }
        let before = ForeignDatabaseFixture.state(of: path)
        #expect(before.companions.isEmpty)
        do {
            let catalog = try DatabaseCatalog(path: path)
            #expect(try catalog.table(named: "t")?.rowCount() == 2)
            let store = try Store(
                foreignDatabaseAt: path,
                model: try ForeignDatabaseFixture.model(catalog, table: "t"),
                readOnly: true
            )
            #expect(store.isReadOnly)
            #expect(try ObjectContext(store: store).fetch("t").count == 2)
            let lease = try #require(store.acquireReaderConnection())
            #expect(try lease.database.scalar("SELECT count(*) FROM t").int64 == 2)
            lease.release()
        }
        let after = ForeignDatabaseFixture.state(of: path)
        #expect(after.bytes == before.bytes)
        #expect(after.companions.isEmpty)
    }

    @Test func oddIdentifiersViewsAndWithoutRowIDTablesRead() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("other.sqlite")
        try ForeignDatabaseFixture.make(at: path)
        let catalog = try DatabaseCatalog(path: path)
        let entities = try ["order", "banks by state", "tags", "student"].map {
            try #require(catalog.table(named: $0)).entity(named: $0)
        }
        let store = try Store(
            foreignDatabaseAt: path,
            model: Model(version: 1, applicationID: 0, entities: entities),
            readOnly: true
        )
        let context = ObjectContext(store: store)
        let orders = try context.fetch("order", orderBy: "t0._rowid_")
        #expect(orders.map { $0["say \"hi\""].string } == ["x", "y"])
        #expect(orders.map { $0["rowid"] } == [.integer(10), .integer(20)])  // the column, not the row id
        #expect(orders.map(\.objectID.rowID) == [1, 2])
        let states = try context.fetch("banks by state")
        #expect(states.map(\.objectID.rowID) == [1, 2, 3])
        #expect(Set(states.compactMap { $0["ST"].string }) == ["IL", "TX", "ZZ"])
        #expect(try context.fetch("tags").count == 2)
        let students = try context.fetch("student", orderBy: "t0.id")
        #expect(students.map { $0["id"] } == [.integer(1), .integer(2), .integer(3)])
        #expect(students.map(\.objectID.rowID) == [1, 2, 3])
    }

    @Test func rowsOfAViewLoadByPositionWhereverTheyAre() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("view.sqlite")
        let db = try Database(path: path, options: ForeignDatabaseFixture.plain())
        try db.execute(
            """
            CREATE TABLE n (v INTEGER);
            WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 5000) INSERT INTO n SELECT i * 7 FROM k;
            CREATE VIEW "every other" AS SELECT v, v % 3 AS r FROM n WHERE v % 2 = 0;
            """
        )
        let expected = try db.query("SELECT v FROM \"every other\"").map { $0[0].int64 }
        let entity = try #require(DatabaseCatalog(path: path).table(named: "every other")).entity(named: "evens")
        let store = try Store(
            foreignDatabaseAt: path,
            model: Model(version: 1, applicationID: 0, entities: [entity]),
            readOnly: true
        )
        let positions: [Int64] = [2500, 3, 1, 1777, 2499]
        let context = ObjectContext(store: store)
        let rows = try context.objects(with: positions.map { ObjectID(entity: "evens", rowID: $0) })
        #expect(rows.map(\.objectID.rowID) == positions)
        #expect(rows.map { $0["v"].int64 } == positions.map { expected[Int($0) - 1] })
        let one = try #require(try ObjectContext(store: store).object(with: ObjectID(entity: "evens", rowID: 2000)))
        #expect(one["v"].int64 == expected[1999])
        #expect(try ObjectContext(store: store).object(with: ObjectID(entity: "evens", rowID: 2501)) == nil)
    }

    @Test func writableStoreDeletesAndUndoesWithoutChangingTheSchemaOrJournalMode() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("other.sqlite")
        try ForeignDatabaseFixture.make(at: path)
        let other = try Database(path: path, options: ForeignDatabaseFixture.plain())
        let schemaBefore = try other.query("SELECT type, name, sql FROM sqlite_master ORDER BY name")
        do {
            let model = try ForeignDatabaseFixture.model(
                try DatabaseCatalog(path: path),
                table: "failed banks",
                entity: "Bank"
            )
            let store = try Store(foreignDatabaseAt: path, model: model, readOnly: false)
            #expect(!store.isReadOnly)
            let context = ObjectContext(store: store)
            let second = try #require(try context.object(with: ObjectID(entity: "Bank", rowID: 2)))
            context.delete(second)
            try context.save(actionName: "Deleted Second Bank")
            #expect(try other.scalar("SELECT count(*) FROM \"failed banks\" WHERE rowid = 2").int64 == 0)
            let undone = try #require(try context.undo())
            #expect(undone.changes.inserted == [ObjectID(entity: "Bank", rowID: 2)])
            #expect(
                try other.query("SELECT rowid, \"Bank Name\", \"Close Date\" FROM \"failed banks\" WHERE rowid = 2")
                    == [[.integer(2), .text("Second Bank"), .text("2021-02-03")]]
            )
        }
        #expect(try other.scalar("PRAGMA journal_mode").string == "delete")
        #expect(try other.query("SELECT type, name, sql FROM sqlite_master ORDER BY name") == schemaBefore)
        #expect(try other.userVersion() == 0 && other.applicationID() == 0)
    }

    @Test func anotherConnectionsChangeIsAResetWithoutTracking() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("other.sqlite")
        try ForeignDatabaseFixture.make(at: path)
        let model = try ForeignDatabaseFixture.model(try DatabaseCatalog(path: path), table: "student")
        let store = try Store(foreignDatabaseAt: path, model: model, readOnly: true)
        let context = ObjectContext(store: store)
        var published: [ChangeSet] = []
        context.addObserver { published.append($0) }
        #expect(try context.processExternalChanges() == nil)
        let other = try Database(path: path, options: ForeignDatabaseFixture.plain())
        try other.run("INSERT INTO student(name, subject, number) VALUES ('Di', 'Art', 2)")
        let changes = try #require(try context.processExternalChanges())
        #expect(changes.isReset)
        #expect(published.count == 1)
        #expect(try context.processExternalChanges() == nil)
    }

    @Test func trackingInstallReportsRowChangesAndRemoveRestoresTheSchema() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("other.sqlite")
        try ForeignDatabaseFixture.make(at: path)
        let other = try Database(path: path, options: ForeignDatabaseFixture.plain())
        let schemaBefore = try other.query("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name")
        let catalog = try DatabaseCatalog(path: path)
        let entities = try ["failed banks", "student"].map { try #require(catalog.table(named: $0)).entity(named: $0) }
        let model = Model(version: 1, applicationID: 0, entities: entities)
        do {
            let store = try Store(foreignDatabaseAt: path, model: model, readOnly: false)
            #expect(throws: StoreError.noRowID(table: "tags")) { try store.installTracking(forTables: ["tags"]) }
            try store.installTracking(forTables: ["failed banks", "student"])
            #expect(store.hasTracking)
            #expect(try DatabaseCatalog(path: path).table(named: TrackingNames.standard.historyTable) == nil)
            let context = ObjectContext(store: store)
            try other.execute(
                """
                INSERT INTO student(name, subject, number) VALUES ('Di', 'Art', 2);
                UPDATE "failed banks" SET "City" = 'Evanston' WHERE rowid = 1;
                DELETE FROM "failed banks" WHERE "Bank Name" = 'Odd Bank';
                UPDATE student SET id = 40 WHERE id = 2;
                """
            )
            let changes = try #require(try context.processExternalChanges())
            #expect(!changes.isReset)
            #expect(
                changes.inserted == [ObjectID(entity: "student", rowID: 4), ObjectID(entity: "student", rowID: 40)]
            )
            #expect(
                changes.deleted == [ObjectID(entity: "failed banks", rowID: 5), ObjectID(entity: "student", rowID: 2)]
            )
            #expect(Set(changes.updated.keys) == [ObjectID(entity: "failed banks", rowID: 1)])
            // Own deletes are not reported back.
            let bank = try #require(try context.object(with: ObjectID(entity: "failed banks", rowID: 3)))
            context.delete(bank)
            try context.save()
            #expect(try context.processExternalChanges() == nil)
        }
        do {
            // Another session sees the tracking installed by the first one.
            let store = try Store(foreignDatabaseAt: path, model: model, readOnly: false)
            #expect(store.hasTracking)
            try store.removeTracking()
            #expect(!store.hasTracking)
        }
        #expect(try other.query("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name") == schemaBefore)
    }

    @Test func trackingInstalledByAnotherProcessIsPickedUpAfterOneReset() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("other.sqlite")
        try ForeignDatabaseFixture.make(at: path)
        let model = try ForeignDatabaseFixture.model(try DatabaseCatalog(path: path), table: "student")
        let reader = try Store(foreignDatabaseAt: path, model: model, readOnly: true)
        let context = ObjectContext(store: reader)
        let installer = try Store(foreignDatabaseAt: path, model: model, readOnly: false)
        try installer.installTracking(forTables: ["student"])
        let other = try Database(path: path, options: ForeignDatabaseFixture.plain())
        try other.run("INSERT INTO student(name) VALUES ('Ed')")
        #expect(try context.processExternalChanges()?.isReset == true)
        try other.run("DELETE FROM student WHERE name = 'Ann'")
        let changes = try #require(try context.processExternalChanges())
        #expect(!changes.isReset && changes.deleted == [ObjectID(entity: "student", rowID: 1)])
        try installer.removeTracking()
        try other.run("DELETE FROM student WHERE name = 'Bob'")
        #expect(try context.processExternalChanges()?.isReset == true)
    }

    @Test func tablesNamedLikeThisProjectsOwnOpenAsForeignEntities() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("ours.sqlite")
        do {
            let db = try Database(path: path, options: ForeignDatabaseFixture.plain())
            try db.execute(
                "CREATE TABLE store_history(seq INTEGER PRIMARY KEY, entity TEXT); INSERT INTO store_history(entity) VALUES ('X');"
            )
        }
        let catalog = try DatabaseCatalog(path: path)
        #expect(catalog.tables.map(\.name) == ["store_history"])
        let store = try Store(
            foreignDatabaseAt: path,
            model: try ForeignDatabaseFixture.model(catalog, table: "store_history"),
            readOnly: true
        )
        #expect(try ObjectContext(store: store).fetch("store_history").map { $0["entity"] } == [.text("X")])
        // A model of this project still may not use the name.
        #expect(throws: StoreError.self) {
            try Model(version: 1, applicationID: 1, entities: [Entity("StoreHistory", attributes: [])]).validate()
        }
    }

    @Test func identifiersAreQuotedOnlyWhenTheyMust() {
        #expect(SQLIdentifier.quoted("close_date") == "close_date")
        #expect(SQLIdentifier.quoted("Close Date") == "\"Close Date\"")
        #expect(SQLIdentifier.quoted("order") == "\"order\"")
        #expect(SQLIdentifier.quoted("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(SQLIdentifier.quoted("1st") == "\"1st\"")
        #expect(SQLIdentifier.quoted("rowid") == "rowid")
    }

    @Test func theIDColumnsNameIsTheRowIDsKeyPathWhenAColumnIsCalledID() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("log.sqlite")
        let db = try Database(path: path)
        try db.execute("CREATE TABLE log (id TEXT, message TEXT); INSERT INTO log VALUES ('b', 'one'), ('a', 'two')")
        let table = try #require(try DatabaseCatalog(path: path).table(named: "log"))
        let model = Model(version: 1, applicationID: 0, entities: [table.entity(named: "log")])
        let source = try model.sqlSource(root: "log", keyPaths: ["id", "rowid"])
        #expect(try source.expression(forKeyPath: "id") == "t0.id", "the column")
        #expect(try source.expression(forKeyPath: "rowid") == "t0.rowid", "the row id")
        let context = ObjectContext(store: try Store(foreignDatabaseAt: path, model: model, readOnly: true))
        let rows = try context.fetch("log", orderBy: "t0.rowid DESC")
        #expect(rows.map { $0["rowid"] } == [.integer(2), .integer(1)])
        #expect(rows.map { $0["id"] } == [.text("a"), .text("b")])
    }
}
