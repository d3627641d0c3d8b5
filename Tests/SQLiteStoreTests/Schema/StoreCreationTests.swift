import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

@Suite("Creating a new store file")
struct StoreCreationTests {
    let dir = TemporaryDirectory()

    /// A bank store at `path` opened as an import opens a new file: kept out of WAL until asked.
    private func storeKeptOutOfWAL(at path: String) throws -> Store {
        try Store(path: path, model: BankModel.model(), readOnly: false, immutable: false, keepingNewFileOutOfWAL: true)
    }

    @Test func aNewStoreHas16KBPagesAndIsInWAL() throws {
        let path = dir.path("new.sqlite")
        let store = try Store(path: path, model: BankModel.model())
        #expect(try store.database.scalar("PRAGMA page_size") == .integer(16384))
        #expect(try store.database.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(!store.awaitsWAL)
    }

    @Test func aNewStoreKeptOutOfWALEntersItOnceAskedOrWhenItGoesAway() throws {
        let path = dir.path("load.sqlite")
        do {
            let store = try storeKeptOutOfWAL(at: path)
            #expect(store.awaitsWAL)
            #expect(try store.database.scalar("PRAGMA journal_mode") == .text("delete"))
            #expect(try store.database.userVersion() == 1)
            try store.enterWAL()
            #expect(!store.awaitsWAL)
            #expect(try store.database.scalar("PRAGMA journal_mode") == .text("wal"))
        }
        let other = dir.path("dropped.sqlite")
        do {
            let store = try storeKeptOutOfWAL(at: other)
            #expect(store.awaitsWAL)
        }
        let header = try #require(FileManager.default.contents(atPath: other))
        #expect(header[18] == 2 && header[19] == 2)  // the WAL file-format bytes
    }

    @Test func anExistingStoreIsNotKeptOutOfWAL() throws {
        let path = dir.path("old.sqlite")
        _ = try Store(path: path, model: BankModel.model())
        let store = try storeKeptOutOfWAL(at: path)
        #expect(!store.awaitsWAL)
        #expect(try store.database.scalar("PRAGMA journal_mode") == .text("wal"))
    }

    /// The creation fails after its first tables are written (a table of the model takes the name of
    /// the store's metadata table, without its columns): nothing of it stays, and the file opens as a
    /// complete new store afterwards.
    @Test func aCreationThatFailsHalfwayLeavesNoHalfMadeStore() throws {
        let path = dir.path("half.sqlite")
        let clash = Model(
            version: 1,
            applicationID: 0x5445_5354,
            entities: [
                Entity("Note", attributes: [Attribute("title", .text)]),
                Entity("StoreMetadata", attributes: [Attribute("title", .text)]),
            ]
        )
        #expect(throws: (any Error).self) { _ = try Store(path: path, model: clash) }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        #expect(size == 0)
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))

        let store = try Store(path: path, model: BankModel.model())
        #expect(try store.database.userVersion() == 1)
        #expect(try store.database.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'note'") == .integer(0))
        #expect(try store.database.scalar("PRAGMA integrity_check") == .text("ok"))
    }
}
