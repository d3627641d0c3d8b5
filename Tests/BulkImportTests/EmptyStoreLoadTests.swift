import BulkImport
import Foundation
import SQLiteStore
import TestSupport
import Testing

@Suite struct EmptyStoreLoadTests {
    let folder = TemporaryDirectory("emptyload")
    var directory: String { folder.path }

    func newStore() throws -> Store {
        try Store(
            path: directory + "/s.sqlite",
            model: StudentModel.model,
            readOnly: false,
            immutable: false,
            keepingNewFileOutOfWAL: true
        )
    }

    func insertAda(_ db: Database) throws {
        try db.execute("INSERT INTO student(name, number) VALUES ('Ada', 1)")
    }

    @Test func aNewStoreIsLoadedInTheRollbackJournalAndEntersWALOnceAfterIt() throws {
        let store = try newStore()
        var modeDuringLoad: StoreValue?
        let done = try EmptyStoreLoad.run(store: store, tables: ["student"]) { db in
            modeDuringLoad = try db.scalar("PRAGMA journal_mode")
            try insertAda(db)
        }
        #expect(done)
        #expect(modeDuringLoad == .text("delete"))
        #expect(!store.awaitsWAL)
        #expect(try store.database.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(try store.database.scalar("PRAGMA page_size") == .integer(16384))
        #expect(try store.database.scalar("SELECT count(*) FROM student") == .integer(1))
    }

    @Test func aFailedLoadIntoANewStoreLeavesItEmptyAndInWAL() throws {
        struct Failure: Error {}
        let store = try newStore()
        #expect(throws: Failure.self) {
            _ = try EmptyStoreLoad.run(store: store, tables: ["student"]) { db in
                try insertAda(db)
                throw Failure()
            }
        }
        #expect(!store.awaitsWAL)
        #expect(try store.database.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(try store.database.scalar("SELECT count(*) FROM student") == .integer(0))
        #expect(try store.database.userVersion() == 1)
    }

    @Test func keepingWALForTheLoadPutsANewStoreInWALFirst() throws {
        let store = try newStore()
        var modeDuringLoad: StoreValue?
        _ = try EmptyStoreLoad.run(store: store, tables: ["student"], allowJournalSwitch: false) { db in
            modeDuringLoad = try db.scalar("PRAGMA journal_mode")
            try insertAda(db)
        }
        #expect(modeDuringLoad == .text("wal"))
    }
}
