import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

/// A store knows which file it has open: a random id written at creation plus
/// device and inode (what a results cache keys on), and whether its path still
/// names that file (a store renamed over its path).
@Suite struct StoreIdentityTests {
    static func insert(_ store: Store, _ names: [String]) throws {
        try store.database.transaction {
            for name in names {
                try store.database.run(
                    "INSERT INTO failed_bank_info(name, city, state) VALUES (?, 'Springfield', 'IL')",
                    [.text(name)]
                )
            }
        }
    }

    static func names(_ store: Store) throws -> [String] {
        try store.database.query("SELECT name FROM failed_bank_info ORDER BY id").compactMap { $0[0].string }
    }

    @Test func theIdentityNamesTheFileAndSurvivesReopeningButNotRecreation() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("banks.sqlite")
        let first = try Store(path: path, model: BankModel.model()).identity
        #expect(first.storeID != nil && first.inode != nil)
        #expect(try Store(path: path, model: BankModel.model()).identity == first)
        // A copy keeps the id but is another file.
        #expect(copyfile(path, dir.path("copy.sqlite")))
        let copy = try Store(path: dir.path("copy.sqlite"), model: BankModel.model()).identity
        #expect(copy.storeID == first.storeID && copy != first)
        // Deleted and created again: a new id, even if the inode is reused.
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        let recreated = try Store(path: path, model: BankModel.model()).identity
        #expect(recreated.storeID != first.storeID)
    }

    @Test func theStoreTellsWhetherItsPathStillNamesItsFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("banks.sqlite")
        let store = try Store(path: path, model: BankModel.model())
        #expect(store.fileAtPath() == .same)
        do { _ = try Store(path: dir.path("other.sqlite"), model: BankModel.model()) }
        #expect(rename(dir.path("other.sqlite"), path) == 0)
        #expect(store.fileAtPath() == .replaced)
        #expect(rename(path, dir.path("moved.sqlite")) == 0)
        #expect(store.fileAtPath() == .missing)
        #expect(try Store(path: ":memory:", model: BankModel.model()).fileAtPath() == .same)
    }

    @Test func aStoreIsNotOpenedAtAPathWhileThisProcessStillHasTheReplacedFileOpen() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("banks.sqlite")
        var old: Store? = try Store(path: path, model: BankModel.model())
        // A second store of the same file is fine.
        #expect(try Store(path: path, model: BankModel.model()).identity == old!.identity)
        do { try Self.insert(try Store(path: dir.path("other.sqlite"), model: BankModel.model()), ["Other"]) }
        #expect(rename(dir.path("other.sqlite"), path) == 0)
        #expect(throws: StoreError.replacedFileStillOpen(path: path)) {
            try Store(path: path, model: BankModel.model())
        }
        old = nil
        #expect(try Self.names(try Store(path: path, model: BankModel.model())) == ["Other"])
    }

    /// SQLite leaves the `-wal` of a file renamed or deleted while open (it does not checkpoint
    /// it on close); a connection to the new file at the path would read the old pages from it.
    @Test func prepareForReopeningKeepsTheOldFilesLogOutOfTheNewFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("banks.sqlite")
        var old: Store? = try Store(path: path, model: BankModel.model())
        try Self.insert(old!, (0..<200).map { "Old \($0)" })
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        do { try Self.insert(try Store(path: dir.path("other.sqlite"), model: BankModel.model()), ["New 1", "New 2"]) }
        #expect(rename(dir.path("other.sqlite"), path) == 0)
        #expect(old!.fileAtPath() == .replaced)
        #expect(old!.prepareForReopening())
        old = nil
        let reopened = try Store(path: path, model: BankModel.model())
        #expect(try Self.names(reopened) == ["New 1", "New 2"])
        try Self.insert(reopened, ["New 3"])
        #expect(try reopened.database.scalar("PRAGMA integrity_check").string == "ok")
        #expect(try Self.names(reopened) == ["New 1", "New 2", "New 3"])
    }

    @Test func aStoreOlderThanTheIDIsGivenOneWhenOpenedForWriting() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("banks.sqlite")
        do {
            let store = try Store(path: path, model: BankModel.model())
            try Self.insert(store, ["Kept"])
            try store.database.execute("DROP TABLE store_metadata")
        }
        #expect(try Store(path: path, model: BankModel.model(), readOnly: true).identity.storeID == nil)
        let migrated = try Store(path: path, model: BankModel.model())
        #expect(migrated.identity.storeID != nil)
        #expect(try Self.names(migrated) == ["Kept"])
    }

    func copyfile(_ from: String, _ to: String) -> Bool {
        (try? FileManager.default.copyItem(atPath: from, toPath: to)) != nil
    }
}
