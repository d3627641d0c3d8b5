import Foundation

@testable import SQLiteStore

/// A database made with raw SQL as another program would make it: rollback journal,
/// no triggers, odd identifiers, a table without INTEGER PRIMARY KEY, a view and a
/// WITHOUT ROWID table. Written through a plain connection (never a ``Store``).
enum ForeignDatabaseFixture {
    static let schema = #"""
        CREATE TABLE "failed banks" (
          "Bank Name" TEXT NOT NULL,
          "City",
          "ST" CHAR(2),
          "Close Date" DATE,
          "Fund" INTEGER
        );
        CREATE TABLE student (id INTEGER PRIMARY KEY, name TEXT, subject TEXT, number INT);
        CREATE TABLE "order" ("key" TEXT, "say ""hi""" TEXT, "rowid" INTEGER);
        CREATE TABLE tags (tag TEXT PRIMARY KEY, uses INTEGER) WITHOUT ROWID;
        CREATE VIEW "banks by state" AS SELECT "ST", count(*) AS n FROM "failed banks" GROUP BY "ST";
        """#

    static let banks: [(String, String, String, String, Int64?)] = [
        ("First Bank", "Chicago", "IL", "2023-05-01", 1),
        ("Second Bank", "Austin", "TX", "2021-02-03", 2),
        ("Third Bank", "Peoria", "IL", "2023-01-15", nil),
        ("Fourth Bank", "Dallas", "TX", "2008-09-25", 4),
    ]

    /// Creates the database at `path` with `sqlite3`-like SQL (journal_mode stays DELETE).
    static func make(at path: String) throws {
        let db = try Database(path: path, options: plain())
        try db.execute(schema)
        for b in banks {
            try db.run(
                "INSERT INTO \"failed banks\" VALUES (?, ?, ?, ?, ?)",
                [.text(b.0), .text(b.1), .text(b.2), .text(b.3), b.4.map { .integer($0) } ?? .null]
            )
        }
        // A column declared INTEGER holding text: read as stored.
        try db.run("INSERT INTO \"failed banks\" VALUES ('Odd Bank', 'Nowhere', 'ZZ', 'someday', 'not a number')")
        try db.execute(
            """
            INSERT INTO student(name, subject, number) VALUES ('Ann', 'Math', 3), ('Bob', 'Art', 1), ('Cy', 'Math', 1);
            INSERT INTO "order" VALUES ('k1', 'x', 10), ('k2', 'y', 20);
            INSERT INTO tags VALUES ('red', 2), ('blue', 5);
            """
        )
    }

    /// Options of a plain connection that keeps the rollback journal, as `sqlite3` does.
    static func plain() -> Database.Options {
        var options = Database.Options()
        options.walMode = false
        return options
    }

    /// The bytes of the file, and which of its companions exist.
    static func state(of path: String) -> (bytes: Data?, companions: [String]) {
        let companions = ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: path + $0) }
        return (FileManager.default.contents(atPath: path), companions)
    }

    /// A model of one entity for `table`, made from the catalog.
    static func model(_ catalog: DatabaseCatalog, table: String, entity: String? = nil) throws -> Model {
        guard let t = catalog.table(named: table) else { throw StoreError.unknownEntity(table) }
        return Model(version: 1, applicationID: 0, entities: [t.entity(named: entity ?? table)])
    }
}
