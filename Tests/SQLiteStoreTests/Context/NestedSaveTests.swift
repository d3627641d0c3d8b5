import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

/// A save, undo or redo inside a caller's transaction (an app that writes its own rows in the
/// same transaction) is the caller's to commit: the context publishes it when the outermost
/// transaction commits, and when that rolls back instead — the caller threw, or its COMMIT
/// failed on a full disk — the context is as before the save: the changes pending, the undo
/// stack as it was, nothing published. A retry then saves what the user typed.
@Suite struct NestedSaveTests {
    struct Stop: Error {}

    @Test func aSaveWhoseCallersTransactionRollsBackLeavesTheChangesPending() throws {
        let f = try Fixture()
        let (bank, _) = try insertBank(f.context, name: "First Bank")
        let published = f.recorder.changes.count
        bank["name"] = "Renamed Bank"
        let added = f.context.insert(into: "FailedBankInfo")
        added["name"] = "New Bank"
        added["city"] = "Dover"
        added["state"] = "DE"
        #expect(throws: Stop.self) {
            try f.store.database.transaction {
                try f.context.save(actionName: "Edits")
                #expect(f.recorder.changes.count == published, "nothing is published before the commit")
                throw Stop()
            }
        }
        #expect(try f.count("failed_bank_info") == 1)
        #expect(f.context.hasChanges && bank.changedKeys == ["name"] && bank.string("name") == "Renamed Bank")
        #expect(added.isInserted && added.objectID.isTemporary && added.string("name") == "New Bank")
        #expect(f.context.undoActionName == nil && f.recorder.changes.count == published)
        #expect(try f.context.object(with: bank.objectID) === bank)
        try f.context.save(actionName: "Edits")
        #expect(try f.count("failed_bank_info") == 2 && f.context.undoActionName == "Edits")
        #expect(
            try f.store.database.scalar(
                "SELECT name FROM failed_bank_info WHERE id = ?",
                [.integer(bank.objectID.rowID)]
            )
                == "Renamed Bank"
        )
    }

    @Test func aSaveInsideACallersTransactionIsPublishedWhenItCommits() throws {
        let f = try Fixture()
        let published = f.recorder.changes.count
        try f.store.database.transaction {
            try insertBank(f.context, name: "First Bank")
            #expect(f.recorder.changes.count == published)
        }
        #expect(f.recorder.changes.count == published + 1)
    }

    @Test func anUndoWhoseCallersTransactionRollsBackStaysOnTheStack() throws {
        let f = try Fixture()
        let (bank, _) = try insertBank(f.context, name: "First Bank")
        bank["name"] = "Renamed Bank"
        try f.context.save(actionName: "Renamed")
        #expect(throws: Stop.self) {
            try f.store.database.transaction {
                try f.context.undo()
                throw Stop()
            }
        }
        #expect(bank.string("name") == "Renamed Bank")
        #expect(f.context.undoActionName == "Renamed" && !f.context.canRedo)
        try f.context.undo()
        #expect(bank.string("name") == "First Bank")
        #expect(
            try f.store.database.scalar(
                "SELECT name FROM failed_bank_info WHERE id = ?",
                [.integer(bank.objectID.rowID)]
            )
                == "First Bank"
        )
    }

    /// Another program's write that reuses the history's sequence numbers of the rolled-back
    /// save is reported: they were not the context's own.
    @Test func aRolledBackSaveDoesNotHideAnotherWritersChanges() throws {
        let f = try Fixture()
        try insertBank(f.context, name: "First Bank")
        #expect(throws: Stop.self) {
            try f.store.database.transaction {
                try insertBank(f.context, name: "Rolled Back")
                throw Stop()
            }
        }
        f.context.rollback()
        let other = try Database(path: f.path)
        try other.run("INSERT INTO failed_bank_info(name, city, state) VALUES ('Elsewhere', 'Dover', 'DE')")
        let changes = try #require(try f.context.processExternalChanges())
        #expect(changes.inserted.count == 1)
    }
}
