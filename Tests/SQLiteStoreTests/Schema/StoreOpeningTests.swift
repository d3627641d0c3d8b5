import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

@Suite("Opening a store")
struct StoreOpeningTests {
    let dir = TemporaryDirectory()

    @Test func aStoreOfItsOwnRefusesNamesItsSchemaCannotWritePlainly() throws {
        let dir = TemporaryDirectory()
        func open(_ entity: Entity) throws {
            _ = try Store(
                path: dir.path("\(UUID().uuidString).sqlite"),
                model: Model(version: 1, applicationID: 0x5445_5354, entities: [entity])
            )
        }
        #expect {
            try open(Entity("Item", attributes: [Attribute("order", .text)]))
        } throws: { "\($0)".contains("\"order\" is not a plain SQL name") }
        #expect {
            try open(Entity("Item", attributes: [Attribute("name", .text, column: "full name")]))
        } throws: { "\($0)".contains("\"full name\" is not a plain SQL name") }
        #expect {
            try open(Entity("items", tableName: "the items", idColumn: "rowid", attributes: [Attribute("n", .integer)]))
        } throws: { "\($0)".contains("Store(foreignDatabaseAt:") }
        try open(Entity("Item", attributes: [Attribute("order", .text, column: "sort_order")]))
    }

    @Test func schemaUsesReadableSnakeCaseNamesAndForeignKeyActions() throws {
        let store = try Store(path: dir.path("banks.sqlite"), model: BankModel.model())
        let db = store.database
        let tables = try db.query("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").compactMap {
            $0[0].string
        }
        #expect(tables.contains("failed_bank_info"))
        #expect(tables.contains("failed_bank_details"))
        #expect(tables.contains("store_history"))
        let columns = try StoreFileInspector.columns(of: "failed_bank_details", in: db)
        #expect(columns == ["id", "close_date", "updated_date", "zip", "fund", "insured", "info_id"])
        let fk = try db.query(
            "SELECT \"table\", \"from\", on_delete FROM pragma_foreign_key_list('failed_bank_details')"
        )
        #expect(fk == [[.text("failed_bank_info"), .text("info_id"), .text("CASCADE")]])
        let notNull = try db.query(
            "SELECT name FROM pragma_table_info('failed_bank_details') WHERE \"notnull\" = 1 ORDER BY cid"
        ).compactMap { $0[0].string }
        #expect(notNull == ["close_date", "insured"])
        let indexes = Set(
            try db.query("SELECT name FROM sqlite_master WHERE type='index' AND sql IS NOT NULL").compactMap {
                $0[0].string
            }
        )
        #expect(
            indexes.isSuperset(of: [
                "failed_bank_info_name", "failed_bank_info_state", "failed_bank_details_close_date",
                "failed_bank_details_info_id",
            ])
        )
        #expect(try db.applicationID() == BankModel.applicationID)
        #expect(try db.userVersion() == 1)
    }

    @Test func defaultsAndUniqueKeysComeFromTheModel() throws {
        let note = Entity(
            "StashNote",
            attributes: [Attribute("title", .text), Attribute("pinned", .bool, default: .integer(0))],
            uniqueKeys: [["title"]]
        )
        let store = try Store(path: dir.path("u.sqlite"), model: Model(version: 1, applicationID: 7, entities: [note]))
        try store.database.run("INSERT INTO stash_note(title) VALUES ('a')")
        #expect(try store.database.scalar("SELECT pinned FROM stash_note") == .integer(0))
        let error = #expect(throws: SQLiteError.self) {
            try store.database.run("INSERT INTO stash_note(title) VALUES ('a')")
        }
        #expect(error?.code == 2067)
    }

    @Test func reopeningAStoreKeepsItsData() throws {
        let path = dir.path("banks.sqlite")
        do {
            let store = try Store(path: path, model: BankModel.model())
            try store.database.run(
                "INSERT INTO failed_bank_info(name, city, state) VALUES ('First–Citizens', 'Raleigh', 'NC')"
            )
        }
        let store = try Store(path: path, model: BankModel.model())
        #expect(try store.database.scalar("SELECT name FROM failed_bank_info") == .text("First–Citizens"))
    }

    @Test func migrationFromVersion1To2RunsInOrderAndKeepsData() throws {
        let path = dir.path("m.sqlite")
        let v1 = Entity("StashNote", attributes: [Attribute("title", .text)])
        do {
            let store = try Store(path: path, model: Model(version: 1, applicationID: 7, entities: [v1]))
            try store.database.run("INSERT INTO stash_note(title) VALUES ('keep me')")
        }
        let v2 = Entity(
            "StashNote",
            attributes: [Attribute("title", .text), Attribute("pinned", .bool, default: .integer(0))]
        )
        let tag = Entity("StashTag", attributes: [Attribute("label", .text)])
        let migration = Migration(from: 1, to: 2) { db in
            try db.execute("ALTER TABLE stash_note ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0")
            try db.execute("UPDATE stash_note SET pinned = 1 WHERE title = 'keep me'")
        }
        let store = try Store(
            path: path,
            model: Model(version: 2, applicationID: 7, entities: [v2, tag], migrations: [migration])
        )
        #expect(try store.database.userVersion() == 2)
        #expect(try store.database.query("SELECT title, pinned FROM stash_note") == [[.text("keep me"), .integer(1)]])
        // A new entity's table is created, and history triggers cover it.
        try store.database.run("INSERT INTO stash_tag(label) VALUES ('x')")
        #expect(
            try store.database.scalar("SELECT count(*) FROM store_history WHERE entity = 'StashTag'") == .integer(1)
        )
    }

    @Test func failingMigrationLeavesTheOldVersion() throws {
        let path = dir.path("m.sqlite")
        let v1 = Entity("StashNote", attributes: [Attribute("title", .text)])
        _ = try Store(path: path, model: Model(version: 1, applicationID: 7, entities: [v1]))
        struct Broken: Error {}
        let broken = Migration(from: 1, to: 2) { db in
            try db.execute("ALTER TABLE stash_note ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0")
            throw Broken()
        }
        #expect(throws: Broken.self) {
            _ = try Store(path: path, model: Model(version: 2, applicationID: 7, entities: [v1], migrations: [broken]))
        }
        let store = try Store(path: path, model: Model(version: 1, applicationID: 7, entities: [v1]))
        #expect(try store.database.userVersion() == 1)
        #expect(try StoreFileInspector.columns(of: "stash_note", in: store.database) == ["id", "title"])
    }

    @Test func missingMigrationIsAClearError() throws {
        let path = dir.path("m.sqlite")
        let v1 = Entity("StashNote", attributes: [Attribute("title", .text)])
        _ = try Store(path: path, model: Model(version: 1, applicationID: 7, entities: [v1]))
        #expect(throws: StoreError.missingMigration(from: 1, to: 3)) {
            _ = try Store(path: path, model: Model(version: 3, applicationID: 7, entities: [v1]))
        }
    }

    @Test func newerSchemaVersionIsRefusedAndTheFileIsLeftByteForByteUnchanged() throws {
        let path = dir.path("newer.sqlite")
        do {
            let store = try Store(path: path, model: BankModel.model(version: 3, migrations: []))
            try store.database.run("INSERT INTO failed_bank_info(name, city, state) VALUES ('Bank', 'City', 'ST')")
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = #expect(throws: StoreError.newerSchemaVersion(found: 3, supported: 1)) {
            _ = try Store(path: path, model: BankModel.model(version: 1))
        }
        #expect(error?.description.contains("newer version") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
        // Read-only opening refuses it too.
        #expect(throws: StoreError.newerSchemaVersion(found: 3, supported: 1)) {
            _ = try Store(path: path, model: BankModel.model(version: 1), readOnly: true)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func newerSchemaVersionIsRefusedWhileAnotherConnectionHoldsTheWAL() throws {
        let path = dir.path("newer.sqlite")
        let newer = try Store(
            path: path,
            model: BankModel.model(version: 2, migrations: [Migration(from: 1, to: 2) { _ in }])
        )
        try newer.database.run("INSERT INTO failed_bank_info(name, city, state) VALUES ('Bank', 'City', 'ST')")
        #expect(throws: StoreError.newerSchemaVersion(found: 2, supported: 1)) {
            _ = try Store(path: path, model: BankModel.model(version: 1))
        }
    }

    @Test func aFileThatIsNotSQLiteIsRefusedUnchanged() throws {
        let path = dir.path("notes.txt")
        let text = Data("name,city\nFirst–Citizens,Raleigh\n".utf8) + Data(repeating: 0x41, count: 200)
        try text.write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.notADatabase(path: path)) { _ = try Store(path: path, model: BankModel.model()) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func anotherApplicationsDatabaseIsRefused() throws {
        let other = dir.path("other.sqlite")
        do {
            let db = try Database(path: other)
            try db.execute("PRAGMA application_id = 1234; CREATE TABLE x(a)")
        }
        #expect(throws: StoreError.foreignApplication(path: other, applicationID: 1234)) {
            _ = try Store(path: other, model: BankModel.model())
        }
        let unknownTables = dir.path("plain.sqlite")
        do {
            let db = try Database(path: unknownTables)
            try db.execute("CREATE TABLE zbanks(a, b)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: unknownTables))
        #expect(throws: StoreError.foreignApplication(path: unknownTables, applicationID: 0)) {
            _ = try Store(path: unknownTables, model: BankModel.model())
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: unknownTables)) == before)
    }

    @Test func theCoreDataFileOfTheOriginalTutorialIsForeign() throws {
        let url = fixtureFile("FailedBanksCD_2011_coredata.sqlite")
        try #require(
            FileManager.default.fileExists(atPath: url.path),
            "Tests/Fixtures/\(url.lastPathComponent) is missing"
        )
        let copy = dir.path("cd.sqlite")
        try FileManager.default.copyItem(atPath: url.path, toPath: copy)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        #expect(throws: StoreError.self) { _ = try Store(path: copy, model: BankModel.model()) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
    }

    @Test func anEmptySQLiteFileWithMatchingTablesIsAdopted() throws {
        let path = dir.path("adopt.sqlite")
        do {
            let db = try Database(path: path)
            try db.execute(SchemaBuilder(model: BankModel.model()).createTable(for: BankModel.info))
        }
        let store = try Store(path: path, model: BankModel.model())
        #expect(try store.database.applicationID() == BankModel.applicationID)
    }

    @Test func invalidModelsAreRejectedWithAReason() throws {
        let lonely = Entity(
            "A",
            attributes: [],
            relationships: [Relationship("b", destination: "B", inverse: "a", storesForeignKey: true)]
        )
        #expect(throws: StoreError.self) { try Model(version: 1, applicationID: 1, entities: [lonely]).validate() }
        let b = Entity(
            "B",
            attributes: [],
            relationships: [Relationship("a", destination: "A", inverse: "b", storesForeignKey: true)]
        )
        #expect(throws: StoreError.self) { try Model(version: 1, applicationID: 1, entities: [lonely, b]).validate() }
        #expect(throws: Never.self) { try BankModel.model().validate() }
    }

    @Test func readOnlyStoreReadsButDoesNotCreate() throws {
        let path = dir.path("ro.sqlite")
        #expect(throws: StoreError.readOnly(path: path)) {
            _ = try Store(path: path, model: BankModel.model(), readOnly: true)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        _ = try Store(path: path, model: BankModel.model())
        let ro = try Store(path: path, model: BankModel.model(), readOnly: true)
        #expect(ro.isReadOnly)
        #expect(throws: StoreError.readOnly(path: path)) { try ro.bulkWrite { _ in } }
    }
}

@Suite("Model and SQLSource")
struct ModelTests {
    @Test func namesBecomeSnakeCase() {
        #expect(snakeCase("FailedBankInfo") == "failed_bank_info")
        #expect(snakeCase("closeDate") == "close_date")
        #expect(snakeCase("userID") == "user_id")
        #expect(snakeCase("URLValue") == "url_value")
        #expect(snakeCase("name") == "name")
        #expect(camelCaseWords("URLValue") == ["URL", "Value"])
        #expect(camelCaseWords("userID") == ["user", "ID"])
        #expect(BankModel.details.relationship(named: "info")?.columnName == "info_id")
    }

    @Test func keyPathsThroughRelationshipsBecomeLeftJoins() throws {
        let source = try BankModel.model().sqlSource(
            root: "FailedBankInfo",
            keyPaths: ["name", "details.closeDate", "details.closeYear"]
        )
        #expect(
            source.from == "failed_bank_info AS t0 LEFT JOIN failed_bank_details AS t1 ON t1.info_id = t0.id"
                + " AND NOT EXISTS (SELECT 1 FROM failed_bank_details AS t1x WHERE t1x.info_id = t1.info_id AND t1x.id < t1.id)"
        )
        #expect(try source.expression(forKeyPath: "name") == "t0.name")
        #expect(try source.expression(forKeyPath: "details.closeDate") == "t1.close_date")
        #expect(try source.expression(forKeyPath: "details.closeYear") == "(substr(t1.close_date, 1, 4))")
        #expect(try source.type(forKeyPath: "details.closeDate") == .date)
        #expect(try source.expression(forKeyPath: "details") == "t1.id")
        #expect(throws: StoreError.unknownKeyPath("details.nope", entity: "FailedBankInfo")) {
            try source.expression(forKeyPath: "details.nope")
        }

        let back = try BankModel.model().sqlSource(root: "FailedBankDetails", keyPaths: ["info.name", "info"])
        #expect(back.from == "failed_bank_details AS t0 LEFT JOIN failed_bank_info AS t1 ON t1.id = t0.info_id")
        #expect(try back.expression(forKeyPath: "info") == "t0.info_id")
        #expect(throws: StoreError.unknownEntity("Nope")) {
            try BankModel.model().sqlSource(root: "Nope", keyPaths: [])
        }
    }

    @Test func derivedSQLAndSwiftAgree() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.path("d.sqlite"), model: BankModel.model())
        let source = try store.model.sqlSource(root: "FailedBankDetails", keyPaths: ["closeYear"])
        let derived = BankModel.details.derivedAttribute(named: "closeYear")!
        for date in ["2011-07-29", "1999-01-01", "2024-12-31"] {
            try store.database.run("INSERT INTO failed_bank_details(close_date) VALUES (?)", [.text(date)])
            let sql = try store.database.scalar(
                "SELECT \(try source.expression(forKeyPath: "closeYear")) FROM \(source.from) ORDER BY t0.id DESC LIMIT 1"
            )
            let swift = derived.compute { $0 == "closeDate" ? .text(date) : .null }
            #expect(sql == swift)
        }
    }
}
