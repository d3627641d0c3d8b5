import Foundation
import Testing

@testable import SQLiteStore

/// Starts `/usr/bin/sqlite3 <db> <sql>` as a child process (not waited for).
func startSQLiteShell(_ path: String, _ sql: String) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = ["-bail", "-cmd", ".timeout 5000", path, sql]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    return process
}

/// Polls `processExternalChanges` every 50 ms for up to `seconds`, merging what
/// it returns, until `done` holds for the merged change set. The deadline is
/// generous: the other process (a `sqlite3` shell) may start late on a loaded machine.
func pollExternalChanges(
    _ context: ObjectContext,
    within seconds: Double = 60,
    until done: (ChangeSet) -> Bool
) throws -> ChangeSet {
    var merged = ChangeSet(isFromOtherProcess: true)
    let deadline = Date().addingTimeInterval(seconds)
    repeat {
        if let changes = try context.processExternalChanges() {
            #expect(changes.isFromOtherProcess)
            merged.inserted.formUnion(changes.inserted)
            merged.deleted.formUnion(changes.deleted)
            for (id, keys) in changes.updated { merged.updated[id, default: []].formUnion(keys) }
            merged.isReset = merged.isReset || changes.isReset
        }
        if done(merged) { return merged }
        Thread.sleep(forTimeInterval: 0.05)
    } while Date() < deadline
    return merged
}

let sqliteShellAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")

@Suite("Changes from other processes")
struct ExternalChangesTests {
    @Test(.enabled(if: sqliteShellAvailable, "needs /usr/bin/sqlite3"))
    func shellInsertUpdateAndDeleteArePublished() throws {
        let f = try Fixture()
        let (a, aDetails) = try insertBank(f.context, name: "A", closeDate: "2010-01-01")
        let (b, bDetails) = try insertBank(f.context, name: "B")
        f.recorder.changes.removeAll()
        #expect(try f.context.processExternalChanges() == nil)

        // Insert: a new info and its details.
        let insert = try startSQLiteShell(
            f.path,
            """
            INSERT INTO failed_bank_info(name, city, state) VALUES ('Shell Bank 銀行', 'Tōkyō', 'JP');
            INSERT INTO failed_bank_details(close_date, info_id) VALUES ('2024-04-26', last_insert_rowid());
            """
        )
        var changes = try pollExternalChanges(f.context) { $0.inserted.count >= 2 }
        insert.waitUntilExit()
        #expect(insert.terminationStatus == 0)
        let newInfo = ObjectID(
            entity: "FailedBankInfo",
            rowID: try f.store.database.scalar("SELECT max(id) FROM failed_bank_info").int64!
        )
        let newDetails = ObjectID(
            entity: "FailedBankDetails",
            rowID: try f.store.database.scalar("SELECT max(id) FROM failed_bank_details").int64!
        )
        #expect(changes == ChangeSet(inserted: [newInfo, newDetails], isFromOtherProcess: true))
        #expect(f.recorder.last == changes)
        #expect(try f.context.object(with: newInfo)?.value(forKeyPath: "details.closeDate") == "2024-04-26")

        // Update of a details row: reported for the details and for the info that reaches it.
        let update = try startSQLiteShell(
            f.path,
            "UPDATE failed_bank_details SET close_date = '2010-12-31' WHERE id = \(aDetails.objectID.rowID);"
        )
        changes = try pollExternalChanges(f.context) { $0.updated.count >= 2 }
        update.waitUntilExit()
        #expect(changes == ChangeSet(updated: [aDetails.objectID: [], a.objectID: []], isFromOtherProcess: true))
        #expect(aDetails["closeDate"] == "2010-12-31")  // registered objects are refreshed
        #expect(a.value(forKeyPath: "details.closeYear") == "2010")

        // Delete with foreign keys on: the details go with the info.
        let delete = try startSQLiteShell(
            f.path,
            "PRAGMA foreign_keys = ON; DELETE FROM failed_bank_info WHERE id = \(b.objectID.rowID);"
        )
        changes = try pollExternalChanges(f.context) { $0.deleted.count >= 2 }
        delete.waitUntilExit()
        #expect(changes == ChangeSet(deleted: [b.objectID, bDetails.objectID], isFromOtherProcess: true))
        #expect(b.isDeleted && bDetails.isDeleted)
        #expect(try f.context.object(with: b.objectID) == nil)
    }

    @Test(.enabled(if: sqliteShellAvailable, "needs /usr/bin/sqlite3"))
    func shellDeleteWithoutForeignKeysLeavesAnOrphanAndNothingBreaks() throws {
        let f = try Fixture()
        let (info, details) = try insertBank(f.context, name: "A")
        let shell = try startSQLiteShell(f.path, "DELETE FROM failed_bank_info WHERE id = \(info.objectID.rowID);")
        let changes = try pollExternalChanges(f.context) { !$0.deleted.isEmpty }
        shell.waitUntilExit()
        #expect(changes == ChangeSet(deleted: [info.objectID], isFromOtherProcess: true))
        #expect(details.related("info") == nil)
        #expect(details.value(forKeyPath: "info.name") == .null)
        // The orphan can still be edited and deleted.
        details["zip"] = 12345
        try f.context.save()
        f.context.delete(details)
        try f.context.save()
        #expect(try f.count("failed_bank_details") == 0)
    }

    @Test(.enabled(if: sqliteShellAvailable, "needs /usr/bin/sqlite3"))
    func aReaderWhosePositionWasPrunedGetsAReset() throws {
        let f = try Fixture()
        try insertBank(f.context, name: "A")
        #expect(try f.context.processExternalChanges() == nil)
        // Another process writes a lot and prunes the history as a store would: in one transaction (a
        // reader polling between the insert and the prune would have caught up, and see no reset).
        let shell = try startSQLiteShell(
            f.path,
            """
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20)
            INSERT INTO failed_bank_info(name, city, state) SELECT 'Bank ' || i, 'C', 'S' FROM n;
            DELETE FROM store_history WHERE seq <= (SELECT max(seq) FROM store_history) - 5;
            COMMIT;
            """
        )
        let changes = try pollExternalChanges(f.context) { $0.isReset }
        shell.waitUntilExit()
        #expect(changes.isReset)
        #expect(try f.context.processExternalChanges() == nil)
    }

    @Test func pruningOnSaveKeepsTheNewestEntriesAndResetsReadersThatFellBehind() throws {
        let f = try Fixture()
        let writerStore = try Store(path: f.path, model: BankModel.model())
        writerStore.historyLimit = 3
        let writer = ObjectContext(store: writerStore)
        for i in 0..<5 { try insertBank(writer, name: "Bank \(i)") }
        #expect(try f.count("store_history") == 3)
        let changes = try #require(try f.context.processExternalChanges())
        #expect(changes.isReset && changes.isFromOtherProcess)

        // A reader that keeps up is not reset.
        try insertBank(writer, name: "Next", save: false)
        try writer.save()
        let next = try #require(try f.context.processExternalChanges())
        #expect(!next.isReset && next.inserted.count == 2)
    }

    @Test func aBulkWriteIsSeenAsAReset() throws {
        let f = try Fixture()
        try insertBank(f.context, name: "A")
        let other = try Store(path: f.path, model: BankModel.model())
        try other.bulkWrite { db in
            for i in 0..<100 {
                try db.run("INSERT INTO failed_bank_info(name, city, state) VALUES (?, 'C', 'S')", [.text("Bulk \(i)")])
            }
        }
        #expect(try f.count("store_history") < 10)  // no per-row history
        let changes = try #require(try f.context.processExternalChanges())
        #expect(changes.isReset)
        #expect(f.recorder.last == changes)
        // Triggers are back after the bulk write.
        try other.database.run("INSERT INTO failed_bank_info(name, city, state) VALUES ('After', 'C', 'S')")
        #expect(try f.context.processExternalChanges()?.inserted.count == 1)
    }

    @Test func aBulkWriteOnTheSameStoreResetsItsContexts() throws {
        let f = try Fixture()
        try f.store.bulkWrite { db in
            try db.run("INSERT INTO failed_bank_info(name, city, state) VALUES ('Bulk', 'C', 'S')")
        }
        #expect(try f.context.processExternalChanges()?.isReset == true)
    }

    @Test func ownSavesAreNotReportedBackAndAQuietStoreReportsNothing() throws {
        let f = try Fixture()
        try insertBank(f.context, name: "A")
        #expect(try f.context.processExternalChanges() == nil)
        // Interleaved: another writer, then an own save, then another writer.
        let other = try Database(path: f.path)
        try other.run("INSERT INTO failed_bank_info(name, city, state) VALUES ('X', 'C', 'S')")
        try insertBank(f.context, name: "B")
        try other.run("INSERT INTO failed_bank_info(name, city, state) VALUES ('Y', 'C', 'S')")
        let changes = try #require(try f.context.processExternalChanges())
        #expect(changes.inserted.count == 2)
        let names = try f.context.objects(with: Array(changes.inserted)).compactMap { $0.string("name") }.sorted()
        #expect(names == ["X", "Y"])
        #expect(try f.context.processExternalChanges() == nil)
    }

    @Test func anotherContextOnTheSameStoreIsSeen() throws {
        let f = try Fixture()
        let other = ObjectContext(store: f.store)
        let (info, details) = try insertBank(other, name: "A")
        let changes = try #require(try f.context.processExternalChanges())
        #expect(changes.inserted == [info.objectID, details.objectID])
    }

    @Test func operationsOnOneRowCoalesce() throws {
        let f = try Fixture()
        let (a, _) = try insertBank(f.context, name: "A")
        let other = try Database(path: f.path)
        try other.transaction {
            try other.run("INSERT INTO failed_bank_info(name, city, state) VALUES ('gone', 'C', 'S')")
            try other.run("DELETE FROM failed_bank_info WHERE name = 'gone'")
            try other.run("INSERT INTO failed_bank_info(name, city, state) VALUES ('new', 'C', 'S')")
            try other.run("UPDATE failed_bank_info SET city = 'D' WHERE name = 'new'")
            try other.run("UPDATE failed_bank_info SET city = 'E' WHERE id = ?", [.integer(a.objectID.rowID)])
            try other.run("DELETE FROM failed_bank_info WHERE id = ?", [.integer(a.objectID.rowID)])
        }
        let newID = ObjectID(
            entity: "FailedBankInfo",
            rowID: try other.scalar("SELECT id FROM failed_bank_info WHERE name = 'new'").int64!
        )
        let changes = try #require(try f.context.processExternalChanges())
        #expect(changes.inserted == [newID])
        #expect(changes.deleted.contains(a.objectID))
        #expect(changes.updated.isEmpty)
    }

    @Test func historyTriggersRecordTheReferencedRowToo() throws {
        let f = try Fixture()
        let (info, details) = try insertBank(f.context, name: "A")
        let start = try f.store.historyPosition()
        try f.store.database.run(
            "UPDATE failed_bank_details SET zip = 1 WHERE id = ?",
            [.integer(details.objectID.rowID)]
        )
        let rows = try f.store.database.query(
            "SELECT entity, row_id, op FROM store_history WHERE seq > ? ORDER BY seq",
            [.integer(start)]
        )
        #expect(
            rows == [
                ["FailedBankDetails", .integer(details.objectID.rowID), "U"],
                ["FailedBankInfo", .integer(info.objectID.rowID), "U"],
            ]
        )
    }

    @Test func externalUpdatesKeepUnsavedLocalEdits() throws {
        let f = try Fixture()
        let (info, _) = try insertBank(f.context, name: "A")
        info["name"] = "Local"
        let other = try Database(path: f.path)
        try other.run("UPDATE failed_bank_info SET city = 'Remote' WHERE id = ?", [.integer(info.objectID.rowID)])
        _ = try f.context.processExternalChanges()
        #expect(info["city"] == "Remote")
        #expect(info["name"] == "Local")
        #expect(info.changedKeys == ["name"])
    }
}
