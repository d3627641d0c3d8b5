import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

@Suite("Foreign databases: the names of what tracking adds are the app's")
struct TrackingNamesTests {
    private func makeFile(in dir: TemporaryDirectory) throws -> (path: String, other: Database) {
        let path = dir.path("notes.sqlite")
        let other = try Database(path: path, options: ForeignDatabaseFixture.plain())
        try other.execute(
            "CREATE TABLE note (id INTEGER PRIMARY KEY, title TEXT); INSERT INTO note(title) VALUES ('a');"
        )
        return (path, other)
    }

    private func store(_ path: String, tracking: TrackingNames) throws -> Store {
        let entity = try #require(DatabaseCatalog(path: path, tracking: tracking).table(named: "note")).entity(
            named: "note"
        )
        return try Store(
            foreignDatabaseAt: path,
            model: Model(version: 1, applicationID: 0, entities: [entity]),
            readOnly: false,
            tracking: tracking
        )
    }

    private func schemaNames(_ db: Database) throws -> [String] {
        try db.query("SELECT name FROM sqlite_master WHERE name <> 'note' ORDER BY name").compactMap { $0[0].string }
    }

    @Test func withoutNamesTrackingUsesTheStandardNeutralOnes() throws {
        let dir = TemporaryDirectory()
        let (path, other) = try makeFile(in: dir)
        try store(path, tracking: .standard).installTracking(forTables: ["note"])
        #expect(
            try schemaNames(other) == [
                "store_tracking", "store_tracking_delete_note", "store_tracking_insert_note",
                "store_tracking_update_note",
            ]
        )
    }

    @Test func anAppsNamesAreInstalledSeenHiddenAndRemovedExactly() throws {
        let dir = TemporaryDirectory()
        let (path, other) = try makeFile(in: dir)
        let names = TrackingNames(historyTable: "books_history")
        let tracked = try store(path, tracking: names)
        try tracked.installTracking(forTables: ["note"])
        #expect(
            try schemaNames(other) == [
                "books_history", "books_history_delete_note", "books_history_insert_note", "books_history_update_note",
            ]
        )
        #expect(try DatabaseCatalog(path: path, tracking: names).tables.map(\.name) == ["note"])
        // A store given other names does not see this tracking: another connection's change is a reset.
        #expect(try !store(path, tracking: .standard).hasTracking)
        let context = ObjectContext(store: try store(path, tracking: names))
        try other.execute("INSERT INTO note(title) VALUES ('b')")
        let changes = try #require(try context.processExternalChanges())
        #expect(!changes.isReset && changes.inserted == [ObjectID(entity: "note", rowID: 2)])
        try tracked.removeTracking()
        #expect(try schemaNames(other) == [])
    }

    @Test func aViewsRowNumberIsReadAsTheColumnTheAppNames() throws {
        let dir = TemporaryDirectory()
        let (path, other) = try makeFile(in: dir)
        try other.execute("CREATE VIEW titles AS SELECT title FROM note")
        let view = try #require(DatabaseCatalog(path: path).table(named: "titles"))
        #expect(view.entity(named: "titles").idColumn == "store_position")
        let named = view.entity(named: "titles", positionColumn: "books_position")
        #expect(named.idColumn == "books_position")
        #expect(named.sqlTable == "(SELECT row_number() OVER () AS books_position, * FROM titles)")
        let store = try Store(
            foreignDatabaseAt: path,
            model: Model(version: 1, applicationID: 0, entities: [named]),
            readOnly: true
        )
        let row = try #require(try ObjectContext(store: store).object(with: ObjectID(entity: "titles", rowID: 1)))
        #expect(row["title"].string == "a")
    }
}
