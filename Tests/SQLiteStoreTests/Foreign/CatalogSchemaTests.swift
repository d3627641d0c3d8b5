import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

/// The catalog over schemas beyond plain tables: a view SQLite cannot read, generated
/// columns, virtual tables, a table whose columns hide its row id; and a WAL file's
/// companions left as they were.
@Suite struct CatalogSchemaTests {
    static func make(_ sql: String, in dir: TemporaryDirectory) throws -> String {
        let path = dir.path("c.sqlite")
        try Database(path: path, options: ForeignDatabaseFixture.plain()).execute(sql)
        return path
    }

    @Test func aBrokenViewIsListedWithSQLitesReasonBesideTheTablesThatRead() throws {
        let dir = TemporaryDirectory()
        let path = try CatalogSchemaTests.make(
            "CREATE TABLE base (a); CREATE TABLE t (x); CREATE VIEW bv AS SELECT a FROM base; DROP TABLE base;",
            in: dir
        )
        let catalog = try DatabaseCatalog(path: path)
        #expect(catalog.tables.map(\.name) == ["bv", "t"])
        let view = try #require(catalog.table(named: "bv"))
        #expect(view.brokenReason == "no such table: main.base")
        #expect(view.columns.isEmpty)
        #expect(catalog.table(named: "t")?.brokenReason == nil)
    }

    @Test func aSampleOfAColumnsValuesSaysWhetherItHoldsDates() throws {
        let dir = TemporaryDirectory()
        let path = try CatalogSchemaTests.make(
            """
            CREATE TABLE flights (dep_time TEXT, closed TEXT, mixed TEXT, empty TEXT);
            INSERT INTO flights VALUES ('517', '2025-06-27', '2025-06-27', NULL);
            INSERT INTO flights VALUES ('533', '2025-06-28 10:00', 'soon', NULL);
            INSERT INTO flights VALUES (NULL, NULL, NULL, NULL);
            """,
            in: dir
        )
        let table = try #require(try DatabaseCatalog(path: path).table(named: "flights"))
        #expect(!table.sampleHoldsDates(column: "dep_time"))
        #expect(table.sampleHoldsDates(column: "closed"))
        #expect(!table.sampleHoldsDates(column: "mixed"))
        #expect(!table.sampleHoldsDates(column: "empty"))
    }

    @Test func generatedColumnsAreListedAndReadThroughAStore() throws {
        let dir = TemporaryDirectory()
        let path = try CatalogSchemaTests.make(
            """
            CREATE TABLE item (price REAL, qty INTEGER, total REAL GENERATED ALWAYS AS (price * qty) STORED,
              twice INTEGER GENERATED ALWAYS AS (qty * 2) VIRTUAL);
            INSERT INTO item (price, qty) VALUES (2.5, 4);
            """,
            in: dir
        )
        let catalog = try DatabaseCatalog(path: path)
        let table = try #require(catalog.table(named: "item"))
        #expect(table.columns.map(\.name) == ["price", "qty", "total", "twice"])
        #expect(table.columns.map(\.isGenerated) == [false, false, true, true])
        let model = try ForeignDatabaseFixture.model(catalog, table: "item")
        let context = ObjectContext(store: try Store(foreignDatabaseAt: path, model: model, readOnly: true))
        let row = try #require(try context.fetch("item").first)
        #expect(row["total"] == .real(10) && row["twice"] == .integer(8))
    }

    @Test func aVirtualTableIsListedWithItsModuleAndReadByPosition() throws {
        let dir = TemporaryDirectory()
        let path = try CatalogSchemaTests.make(
            "CREATE VIRTUAL TABLE docs USING fts5(title, body); INSERT INTO docs VALUES ('a', 'hello'), ('b', 'bye');",
            in: dir
        )
        let catalog = try DatabaseCatalog(path: path)
        #expect(catalog.tables.map(\.name) == ["docs"], "no shadow tables")
        let docs = try #require(catalog.table(named: "docs"))
        #expect(docs.virtualModule == "fts5" && docs.rowIDColumn == nil)
        #expect(docs.columns.map(\.name) == ["title", "body"])
        #expect(docs.noRowIDReason == "a virtual table (fts5) is read-only here")
        #expect(try docs.rowCount() == 2)
        let model = try ForeignDatabaseFixture.model(catalog, table: "docs")
        let context = ObjectContext(store: try Store(foreignDatabaseAt: path, model: model, readOnly: true))
        #expect(try context.fetch("docs").map { $0["body"] } == ["hello", "bye"])
    }

    @Test func aTableWhoseColumnsHideItsRowIDSaysSoAndIsNotCalledWithoutRowID() throws {
        let dir = TemporaryDirectory()
        let path = try CatalogSchemaTests.make("CREATE TABLE r (rowid, oid, _rowid_, name);", in: dir)
        let table = try #require(try DatabaseCatalog(path: path).table(named: "r"))
        #expect(table.rowIDColumn == nil && !table.isWithoutRowID)
        #expect(table.noRowIDReason?.contains("hide its row id") == true)
    }
}
