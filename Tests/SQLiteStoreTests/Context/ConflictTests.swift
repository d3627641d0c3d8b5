import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

/// Two writers of one file: a save or an undo never writes over what the other wrote since
/// it read the row. It refuses, naming the object (or the row), writes nothing, and the
/// context offers the choice (reload and reapply, or overwrite).
@Suite struct ConflictTests {
    /// A context with a bank loaded, and another connection to the file (another process).
    struct TwoWriters {
        let f: Fixture
        let bank: ManagedObject
        let other: Database

        init() throws {
            f = try Fixture()
            try insertBank(f.context, name: "First Bank", city: "Springfield")
            let second = ObjectContext(store: f.store)
            try insertBank(second, name: "Second Bank")
            bank = try #require(try f.context.fetch("FailedBankInfo", where: "name = 'First Bank'").first)
            other = try Database(path: f.path)
        }

        func stored(_ column: String) throws -> StoreValue {
            try other.scalar(
                "SELECT \(column) FROM failed_bank_info WHERE id = ?",
                [.integer(bank.objectID.rowID)]
            )
        }
    }

    @Test func aSaveOverAnotherWritersChangeRefusesNamingTheObjectAndWritesNothing() throws {
        let t = try TwoWriters()
        try t.other.run("UPDATE failed_bank_info SET city = 'Chicago' WHERE id = ?", [.integer(t.bank.objectID.rowID)])
        t.bank["name"] = "First Bank of Springfield"
        #expect {
            try t.f.context.save()
        } throws: { error in
            error as? StoreError
                == .conflict([SaveConflict(objectID: t.bank.objectID, changedKeys: ["city"], rowIsGone: false)])
        }
        #expect(try t.stored("name") == "First Bank" && t.stored("city") == "Chicago")
        #expect(t.bank.string("name") == "First Bank of Springfield" && t.f.context.hasChanges)
        let message =
            "\(StoreError.conflict([SaveConflict(objectID: t.bank.objectID, changedKeys: ["city"], rowIsGone: false)]))"
        #expect(
            message
                == "FailedBankInfo/1 was changed by another program since it was read (city): reload and reapply the changes, or overwrite"
        )
    }

    @Test func reloadAndReapplyKeepsTheOtherWritersChangeAndSavesOwnChanges() throws {
        let t = try TwoWriters()
        try t.other.run("UPDATE failed_bank_info SET city = 'Chicago' WHERE id = ?", [.integer(t.bank.objectID.rowID)])
        t.bank["name"] = "First Bank of Springfield"
        #expect(throws: StoreError.self) { try t.f.context.save() }
        try t.f.context.resolveConflict(of: t.bank, by: .reloadAndReapply)
        #expect(t.bank.string("city") == "Chicago")
        try t.f.context.save()
        #expect(try t.stored("name") == "First Bank of Springfield" && t.stored("city") == "Chicago")
    }

    @Test func overwriteWritesTheObjectAsTheContextShowsIt() throws {
        let t = try TwoWriters()
        try t.other.run("UPDATE failed_bank_info SET city = 'Chicago' WHERE id = ?", [.integer(t.bank.objectID.rowID)])
        t.bank["name"] = "First Bank of Springfield"
        #expect(throws: StoreError.self) { try t.f.context.save() }
        try t.f.context.resolveConflict(of: t.bank, by: .overwrite)
        try t.f.context.save()
        #expect(try t.stored("name") == "First Bank of Springfield" && t.stored("city") == "Springfield")
    }

    @Test func aChangeMadeAfterTheContextSawTheOtherWritersChangeIsNoConflict() throws {
        let t = try TwoWriters()
        try t.other.run("UPDATE failed_bank_info SET city = 'Chicago' WHERE id = ?", [.integer(t.bank.objectID.rowID)])
        try t.f.context.processExternalChanges()
        t.bank["name"] = "First Bank of Springfield"
        try t.f.context.save()
        #expect(try t.stored("city") == "Chicago")
    }

    /// An `UPDATE OF city` trigger fires only when the statement sets city.
    @Test func aSaveWritesOnlyTheAttributesThatChanged() throws {
        let t = try TwoWriters()
        try t.other.execute(
            """
            CREATE TABLE city_writes (n INTEGER);
            CREATE TRIGGER city_written AFTER UPDATE OF city ON failed_bank_info BEGIN INSERT INTO city_writes VALUES (1); END;
            """
        )
        t.bank["name"] = "First Bank of Springfield"
        try t.f.context.save()
        #expect(try t.other.scalar("SELECT count(*) FROM city_writes") == .integer(0))
        t.bank["city"] = "Chicago"
        try t.f.context.save()
        #expect(try t.other.scalar("SELECT count(*) FROM city_writes") == .integer(1))
    }

    @Test func aDeleteOfAnObjectAnotherWriterChangedRefuses() throws {
        let t = try TwoWriters()
        t.f.context.delete(t.bank)
        try t.other.run("UPDATE failed_bank_info SET city = 'Chicago' WHERE id = ?", [.integer(t.bank.objectID.rowID)])
        #expect(throws: StoreError.self) { try t.f.context.save() }
        #expect(try t.stored("name") == "First Bank")
        try t.f.context.resolveConflict(of: t.bank, by: .overwrite)
        try t.f.context.save()
        #expect(try t.stored("name") == .null)
    }

    /// Before, the UPDATE found no row and the save reported success: the edit was lost silently.
    @Test func aChangeOfAnObjectAnotherWriterDeletedRefuses() throws {
        let t = try TwoWriters()
        t.bank["name"] = "First Bank of Springfield"
        try t.other.run("DELETE FROM failed_bank_info WHERE id = ?", [.integer(t.bank.objectID.rowID)])
        #expect {
            try t.f.context.save()
        } throws: { error in
            "\(error)".hasPrefix("FailedBankInfo/1 was deleted by another program since it was read")
        }
        #expect(throws: StoreError.alreadyDeleted(table: "failed_bank_info", rowID: t.bank.objectID.rowID)) {
            try t.f.context.resolveConflict(of: t.bank, by: .reloadAndReapply)
        }
        #expect(t.bank.isDeleted && !t.f.context.hasChanges)
    }

    @Test func undoOfADeleteAfterAnotherWriterPutTheRowBackSaysSoAndChangesNothing() throws {
        let t = try TwoWriters()
        t.bank["city"] = "Peoria"
        try t.f.context.save(actionName: "Moved")
        let id = t.bank.objectID.rowID
        t.f.context.delete(t.bank)
        try t.f.context.save(actionName: "Deleted")
        try t.other.run(
            "INSERT INTO failed_bank_info(id, name, city, state) VALUES (?, 'Returned Bank', 'Dover', 'DE')",
            [.integer(id)]
        )
        #expect {
            try t.f.context.undo()
        } throws: { error in
            "\(error)" == "the row \(id) of failed_bank_details already exists again; not restored"
                || "\(error)" == "the row \(id) of failed_bank_info already exists again; not restored"
        }
        #expect(try t.other.scalar("SELECT name FROM failed_bank_info WHERE id = ?", [.integer(id)]) == "Returned Bank")
        #expect(t.f.context.undoActionName == "Deleted", "it stays: it applies once the row is gone again")
        try t.other.run("DELETE FROM failed_bank_info WHERE id = ?", [.integer(id)])
        try t.f.context.undo()
        #expect(try t.stored("city") == "Peoria")
    }

    @Test func undoOfAnInsertAnotherWriterChangedSinceRefusesAndKeepsTheRow() throws {
        let t = try TwoWriters()
        let id = t.bank.objectID.rowID
        try t.other.run("UPDATE failed_bank_info SET city = 'Chicago' WHERE id = ?", [.integer(id)])
        #expect {
            try t.f.context.undo()
        } throws: { error in
            "\(error)"
                == "the row \(id) of failed_bank_info was changed by another program since it was added; not undone"
        }
        #expect(try t.stored("city") == "Chicago", "the added row is kept, as the other writer left it")
        try t.other.run("UPDATE failed_bank_info SET city = 'Springfield' WHERE id = ?", [.integer(id)])
        try t.f.context.undo()
        #expect(try t.other.scalar("SELECT count(*) FROM failed_bank_info WHERE id = ?", [.integer(id)]) == .integer(0))
    }

    /// a, u, Ctrl-R, then u over another writer's change: the row was added again by the redo,
    /// and the refusal says so — not a bare "since".
    @Test func undoOfARedoneAddAnotherWriterChangedSaysTheRowWasAddedAgain() throws {
        let t = try TwoWriters()
        let id = t.bank.objectID.rowID
        try t.f.context.undo()
        try t.f.context.redo()
        try t.other.run("UPDATE failed_bank_info SET city = 'Chicago' WHERE id = ?", [.integer(id)])
        #expect {
            try t.f.context.undo()
        } throws: { error in
            "\(error)"
                == "the row \(id) of failed_bank_info was changed by another program since it was added again; not undone"
        }
        #expect(try t.stored("city") == "Chicago")
        #expect(t.f.context.canUndo && !t.f.context.canRedo, "it stays, to undo once the other change is gone")
    }

    /// d, u, then Ctrl-R over another writer's change: the row was put back by undo, and the
    /// refusal is the redo's.
    @Test func redoOfAnUndoneDeleteAnotherWriterChangedSaysUndoPutTheRowBack() throws {
        let t = try TwoWriters()
        let id = t.bank.objectID.rowID
        t.f.context.delete(t.bank)
        try t.f.context.save(actionName: "Deleted")
        try t.f.context.undo()
        try t.other.run("UPDATE failed_bank_info SET city = 'Chicago' WHERE id = ?", [.integer(id)])
        #expect {
            try t.f.context.redo()
        } throws: { error in
            "\(error)"
                == "the row \(id) of failed_bank_info was changed by another program since undo put it back; not redone"
        }
        #expect(try t.stored("city") == "Chicago")
        #expect(t.f.context.redoActionName == "Deleted", "it stays, to redo once the other change is gone")
    }

    @Test func undoOfAChangeAnotherWriterChangedAgainRefuses() throws {
        let t = try TwoWriters()
        t.bank["city"] = "Peoria"
        try t.f.context.save(actionName: "Moved")
        try t.other.run("UPDATE failed_bank_info SET city = 'Chicago' WHERE id = ?", [.integer(t.bank.objectID.rowID)])
        #expect {
            try t.f.context.undo()
        } throws: { error in
            "\(error)"
                == "the row \(t.bank.objectID.rowID) of failed_bank_info was changed by another program since it was edited; not undone"
        }
        #expect(try t.stored("city") == "Chicago")
        // Another column changed by the other writer is no conflict: the undo restores its own.
        try t.other.run("UPDATE failed_bank_info SET city = 'Peoria' WHERE id = ?", [.integer(t.bank.objectID.rowID)])
        try t.f.context.undo()
        #expect(try t.stored("city") == "Springfield")
        try t.f.context.processExternalChanges()
        t.bank["city"] = "Peoria"
        try t.f.context.save(actionName: "Moved again")
        try t.other.run("UPDATE failed_bank_info SET state = 'WI' WHERE id = ?", [.integer(t.bank.objectID.rowID)])
        try t.f.context.undo()
        #expect(try t.stored("city") == "Springfield" && t.stored("state") == "WI")
    }
}
