import Foundation
import Testing

@testable import SQLiteStore

/// The store's save hook runs inside every save, undo and redo of its contexts, before and
/// after the rows, in the same transaction: an app's invariant cannot be gone around.
@Suite("Save hook")
struct SaveHookTests {
    /// A fixture whose store keeps `bank_total(n)` equal to the number of banks through its hook,
    /// and records which writes ran the hook and how many banks `willWrite` saw.
    final class Totals {
        let f: Fixture
        var writes: [SaveHook.Write] = []
        var countsBefore: [Int64] = []
        var failDidWrite = false
        var failWillWrite = false

        struct Refused: Error {}

        init() throws {
            f = try Fixture()
            try f.store.database.execute(
                "CREATE TABLE bank_total (n INTEGER NOT NULL); INSERT INTO bank_total VALUES (0)"
            )
            f.store.saveHook = SaveHook(
                willWrite: { [unowned self] db, write in
                    if self.failWillWrite { throw Refused() }
                    self.countsBefore.append(try db.scalar("SELECT count(*) FROM failed_bank_info").int64 ?? -1)
                    self.writes.append(write)
                },
                didWrite: { [unowned self] db, _ in
                    try db.run("UPDATE bank_total SET n = (SELECT count(*) FROM failed_bank_info)")
                    if self.failDidWrite { throw Refused() }
                }
            )
        }

        var total: Int64 { (try? f.store.database.scalar("SELECT n FROM bank_total").int64) ?? -1 }
    }

    @Test func saveUndoAndRedoEachRunTheHookBeforeAndAfterTheirRows() throws {
        let t = try Totals()
        let (info, _) = try insertBank(t.f.context, name: "Bank")
        try insertBank(t.f.context, name: "Other")
        #expect(t.total == 2)
        t.f.context.delete(info)
        try t.f.context.save(actionName: "Deleted “Bank”")
        #expect(t.total == 1)
        try t.f.context.undo()
        #expect(t.total == 2, "the undo's own didWrite wrote the total of the rows as they stand")
        try t.f.context.redo()
        #expect(t.total == 1)
        #expect(t.writes == [.save, .save, .save, .undo, .redo])
        #expect(t.countsBefore == [0, 1, 2, 1, 2], "willWrite ran before the write's rows")
    }

    @Test func whatTheHookWritesIsNotInTheUndoLog() throws {
        let t = try Totals()
        try insertBank(t.f.context, name: "Bank")
        try t.f.store.database.execute("UPDATE bank_total SET n = 40")  // what a later hook would find
        try t.f.context.undo()
        // Reverting the save's log would have put back the 0 of before the save; the hook wrote 0 as the count.
        #expect(t.total == 0)
        try t.f.store.database.execute("UPDATE bank_total SET n = 40")
        try t.f.context.redo()
        #expect(t.total == 1)
    }

    @Test func aThrowingDidWriteRollsTheSaveBackAndTheContextKeepsItsChanges() throws {
        let t = try Totals()
        t.failDidWrite = true
        let info = t.f.context.insert(into: "FailedBankInfo")
        info["name"] = "Bank"
        info["city"] = "X"
        info["state"] = "IL"
        #expect(throws: Totals.Refused.self) { try t.f.context.save() }
        #expect(try t.f.count("failed_bank_info") == 0)
        #expect(t.total == 0, "the hook's own write was rolled back with the rows")
        #expect(t.f.context.hasChanges, "a retry saves what was typed")
        t.failDidWrite = false
        try t.f.context.save()
        #expect(try t.f.count("failed_bank_info") == 1)
        #expect(t.total == 1)
    }

    @Test func aThrowingWillWriteRefusesAnUndoAndKeepsItOnTheStack() throws {
        let t = try Totals()
        let (info, _) = try insertBank(t.f.context, name: "Bank")
        t.f.context.delete(info)
        try t.f.context.save(actionName: "Deleted “Bank”")
        t.failWillWrite = true
        #expect(throws: Totals.Refused.self) { try t.f.context.undo() }
        #expect(try t.f.count("failed_bank_info") == 0)
        #expect(t.f.context.undoActionName == "Deleted “Bank”")
        t.failWillWrite = false
        try t.f.context.undo()
        #expect(try t.f.count("failed_bank_info") == 1)
        #expect(t.total == 1)
    }

    @Test func aStoreWithoutAHookSavesAsBefore() throws {
        let f = try Fixture()
        try insertBank(f.context, name: "Bank")
        try f.context.undo()
        #expect(try f.count("failed_bank_info") == 0)
    }
}
