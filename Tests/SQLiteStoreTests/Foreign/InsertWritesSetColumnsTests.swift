import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

@Suite("An insert writes only the attributes that were set")
struct InsertWritesSetColumnsTests {
    static let schema = """
        CREATE TABLE items (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          qty INTEGER NOT NULL DEFAULT 1,
          added TEXT DEFAULT 'today',
          note TEXT,
          total INTEGER GENERATED ALWAYS AS (qty * 10) VIRTUAL,
          kept INTEGER GENERATED ALWAYS AS (qty + 1) STORED,
          price REAL,
          amount REAL GENERATED ALWAYS AS (price * qty) VIRTUAL
        );
        """

    /// A file with the schema and one row written by a plain connection, as `sqlite3` would.
    static func makeFile(at path: String, naming sql: String) throws -> [[StoreValue]] {
        let db = try Database(path: path, options: ForeignDatabaseFixture.plain())
        try db.execute(schema)
        if !sql.isEmpty { try db.run(sql) }
        return try db.query("SELECT * FROM items")
    }

    /// An empty file of the schema at `path`, and a context on a store over it (the foreign
    /// database's model read from the file), writable.
    static func emptyItemsContext(at path: String) throws -> ObjectContext {
        _ = try makeFile(at: path, naming: "")
        let model = try ForeignDatabaseFixture.model(try DatabaseCatalog(path: path), table: "items")
        return ObjectContext(store: try Store(foreignDatabaseAt: path, model: model, readOnly: false))
    }

    @Test func anInsertedRowEqualsOneAddedNamingOnlyTheColumnsSet() throws {
        let dir = TemporaryDirectory()
        let reference = try Self.makeFile(
            at: dir.path("sqlite3.sqlite"),
            naming: "INSERT INTO items(name, note) VALUES ('pen', NULL)"
        )
        let path = dir.path("store.sqlite")
        let context = try Self.emptyItemsContext(at: path)
        let item = context.insert(into: "items")
        item["name"] = .text("pen")
        item["note"] = .null
        try context.save(actionName: "Added pen")

        let other = try Database(path: path, options: ForeignDatabaseFixture.plain())
        #expect(try other.query("SELECT * FROM items") == reference)
        // The context holds what the file holds: the DEFAULTs and the generated values.
        #expect(item["qty"] == .integer(1) && item["added"] == .text("today"))
        #expect(item["total"] == .integer(10) && item["kept"] == .integer(2))
        #expect(!item.hasChanges)

        _ = try #require(try context.undo())
        #expect(try other.query("SELECT * FROM items") == [])
        _ = try #require(try context.redo())
        #expect(try other.query("SELECT * FROM items") == reference)
    }

    @Test func aWholeNumberInARealColumnReadsBackAsARealAndItsUndoIsNoConflict() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("store.sqlite")
        let context = try Self.emptyItemsContext(at: path)
        let item = context.insert(into: "items")
        item["name"] = .text("cup")
        item["price"] = .real(3)
        item["qty"] = .integer(2)
        try context.save(actionName: "Added cup")
        // As a SELECT reads it (the pre-update hook and RETURNING give 3 and 6 as integers).
        #expect(item["amount"] == .real(6))
        item["price"] = .real(4)
        try context.save(actionName: "Edited price")
        _ = try #require(try context.undo())
        _ = try #require(try context.undo())
        let other = try Database(path: path, options: ForeignDatabaseFixture.plain())
        #expect(try other.query("SELECT count(*) FROM items") == [[.integer(0)]])
    }

    @Test func aGeneratedColumnIsNeverWrittenAndSettingItIsRefused() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("store.sqlite")
        let context = try Self.emptyItemsContext(at: path)
        let item = context.insert(into: "items")
        item["name"] = .text("cup")
        item["qty"] = .integer(3)
        try context.save()
        let other = try Database(path: path, options: ForeignDatabaseFixture.plain())
        #expect(try other.query("SELECT qty, total, kept FROM items") == [[.integer(3), .integer(30), .integer(4)]])

        item["total"] = .integer(99)
        #expect(throws: StoreError.self) { try context.save() }
        #expect(try other.query("SELECT qty, total, kept FROM items") == [[.integer(3), .integer(30), .integer(4)]])
    }

    @Test func anUnsetAttributeOfThisProjectsModelGetsItsDefault() throws {
        let dir = TemporaryDirectory()
        let store = try Store(
            path: dir.path("own.sqlite"),
            model: Model(
                version: 1,
                applicationID: 0,
                entities: [
                    Entity(
                        "Thing",
                        attributes: [
                            Attribute("name", .text), Attribute("language", .text, default: .text("en")),
                        ]
                    )
                ]
            )
        )
        let context = ObjectContext(store: store)
        let thing = context.insert(into: "Thing")
        thing["name"] = .text("a")
        try context.save()
        #expect(try store.database.query("SELECT name, language FROM thing") == [[.text("a"), .text("en")]])
        #expect(thing["language"] == .text("en"))
    }
}
