import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

/// The store's second, read-only connection (`acquireReaderConnection()`):
/// lent to one borrower at a time, seeing committed data, refused where a
/// second connection would be wrong (an immutable snapshot, or a file that
/// is no longer the one the store has open).
@Suite struct ReaderConnectionTests {
    static func bankModel() -> Model { BankModel.model() }

    @Test func itIsLentToOneBorrowerAtATimeAndSeesCommittedRows() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.path("banks.sqlite"), model: Self.bankModel())
        try store.database.run("INSERT INTO failed_bank_info(name, city, state) VALUES ('A', 'B', 'CA')")

        let lease = try #require(store.acquireReaderConnection())
        #expect(store.acquireReaderConnection() == nil, "a second borrower waits its turn")
        #expect(try lease.database.scalar("SELECT count(*) FROM failed_bank_info").int64 == 1)
        #expect(lease.database.isReadOnly)
        lease.release()
        lease.release()  // once only
        let again = try #require(store.acquireReaderConnection())
        again.release()
    }

    @Test func aStopAskedBeforeTheQueryStartsStopsItAndTheNextBorrowerRunsAgain() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.path("banks.sqlite"), model: Self.bankModel())
        let lease = try #require(store.acquireReaderConnection())
        // Asked while nothing runs (a cancel that wins the race with the worker's first step).
        lease.database.interruptUntilResumed()
        let heavy =
            "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 1000000) SELECT count(*) FROM k"
        #expect {
            try lease.database.scalar(heavy)
        } throws: { ($0 as? SQLiteError)?.isInterrupted == true }
        lease.release()
        let next = try #require(store.acquireReaderConnection())
        defer { next.release() }
        #expect(try next.database.scalar(heavy).int64 == 1_000_000)
    }

    @Test func aLeaseDroppedWithoutReleaseGivesTheConnectionBack() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.path("banks.sqlite"), model: Self.bankModel())
        do { _ = store.acquireReaderConnection() }
        let lease = try #require(store.acquireReaderConnection())
        lease.release()
    }

    @Test func itDoesNotSeeTheStoresOpenTransaction() throws {
        let dir = TemporaryDirectory()
        let store = try Store(path: dir.path("banks.sqlite"), model: Self.bankModel())
        let lease = try #require(store.acquireReaderConnection())
        defer { lease.release() }
        try store.database.transaction {
            try store.database.run("INSERT INTO failed_bank_info(name, city, state) VALUES ('A', 'B', 'CA')")
            #expect(try lease.database.scalar("SELECT count(*) FROM failed_bank_info").int64 == 0)
        }
        #expect(try lease.database.scalar("SELECT count(*) FROM failed_bank_info").int64 == 1)
    }

    @Test func aFileThatReplacedTheStoresFileIsNotOpened() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("banks.sqlite")
        let store = try Store(path: path, model: Self.bankModel())
        // Someone renames another store over the path (this process may not open a store
        // at the path while `store` has the old file open: see StoreIdentityTests).
        let otherPath = dir.path("other.sqlite")
        do {
            let other = try Store(path: otherPath, model: Self.bankModel())
            try other.database.run("INSERT INTO failed_bank_info(name, city, state) VALUES ('Other', 'B', 'CA')")
        }
        #expect(rename(otherPath, path) == 0)
        #expect(store.acquireReaderConnection() == nil)
    }

    @Test func anImmutableSnapshotHasNoSecondConnection() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("banks.sqlite")
        do { _ = try Store(path: path, model: Self.bankModel()) }
        let snapshot = try Store(path: path, model: Self.bankModel(), readOnly: true, immutable: true)
        #expect(snapshot.acquireReaderConnection() == nil)
    }

    @Test func closingTheStoreRemovesTheWALEvenAfterTheSecondConnectionWasUsed() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("banks.sqlite")
        do {
            let store = try Store(path: path, model: Self.bankModel())
            try store.database.run("INSERT INTO failed_bank_info(name, city, state) VALUES ('A', 'B', 'CA')")
            let lease = try #require(store.acquireReaderConnection())
            _ = try lease.database.scalar("SELECT count(*) FROM failed_bank_info")
            lease.release()
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }
}
