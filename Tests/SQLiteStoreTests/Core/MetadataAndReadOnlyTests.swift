import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

/// The store's key-value metadata, and read-only opens of other programs' files.
@Suite struct MetadataAndReadOnlyTests {
    @Test func metadataRoundTripsBesideTheStoresIdentity() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.path("m.sqlite"), model: BankModel.model())
        #expect(try store.metadata(forKey: "a") == nil)
        // The table exists from the store's creation on, holding only its identity; reading adds nothing.
        #expect(try store.database.scalar("SELECT group_concat(key) FROM store_metadata") == .text("store_id"))
        try store.setMetadata(["a": "1", "b": "\"etag\""])
        #expect(try store.metadata(forKey: "a") == "1")
        #expect(try store.metadata(forKey: "b") == "\"etag\"")
        try store.setMetadata(["a": "2", "b": nil])
        #expect(try store.metadata(forKey: "a") == "2")
        #expect(try store.metadata(forKey: "b") == nil)
        // No history: metadata is not an object change.
        #expect(try store.historyPosition() == 0)
    }

    @Test func aStoreWithMetadataStillOpens() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("m.sqlite")
        try Store(path: path, model: BankModel.model()).setMetadata(["k": "v"])
        let again = try Store(path: path, model: BankModel.model())
        #expect(try again.metadata(forKey: "k") == "v")
    }

    @Test func openReadOnlyCreatesNothingAndWritesNothing() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("other.db")
        do {
            let db = try Database(path: path)
            try db.execute(
                "PRAGMA journal_mode = DELETE; CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes(body) VALUES ('x')"
            )
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(Database.hasSQLiteHeader(path: path))
        let db = try Database.openReadOnly(path: path)
        #expect(try db.tableNames() == ["notes"])
        #expect(try db.scalar("SELECT body FROM notes").string == "x")
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO notes(body) VALUES ('y')") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["other.db"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        let text = dir.path("list.csv")
        try Data("Bank Name,City\r\n".utf8).write(to: URL(fileURLWithPath: text))
        #expect(!Database.hasSQLiteHeader(path: text))
        #expect(!Database.hasSQLiteHeader(path: dir.path("missing")))
        #expect(throws: StoreError.self) { _ = try Database.openReadOnly(path: text) }
    }
}
