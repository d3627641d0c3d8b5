import FaultInjection
import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

/// A context's save, undo and redo under every injected I/O failure (README: Reliability):
/// the failure is reported, the file holds the old state exactly, the context keeps what
/// the user typed (pending changes, the undo stack) and a retry saves it.
@Suite struct ContextFaultTests {
    /// Five banks with details, and a trigger that writes an audit row for each deleted bank.
    static func template() throws -> FileTemplate {
        try FileTemplate("banks.sqlite") { path in
            let store = try Store(path: path, model: BankModel.model())
            let context = ObjectContext(store: store)
            for i in 1...5 { try insertBank(context, name: "Bank \(i)", closeDate: "2011-07-2\(i)") }
            try store.database.execute(
                """
                CREATE TABLE audit (id INTEGER PRIMARY KEY, what TEXT NOT NULL);
                CREATE TRIGGER failed_bank_info_audit AFTER DELETE ON failed_bank_info
                BEGIN INSERT INTO audit(what) VALUES ('deleted ' || old.name); END;
                """
            )
        }
    }

    /// A context with one save's worth of changes typed: a bank inserted (with details),
    /// one renamed, one deleted (its details cascade, the trigger writes its audit row).
    final class Edits {
        let store: Store
        let context: ObjectContext
        let inserted: ManagedObject
        let renamed: ManagedObject
        let deleted: ManagedObject

        init(_ path: String) throws {
            store = try Store(path: path, model: BankModel.model())
            context = ObjectContext(store: store)
            let banks = try context.fetch("FailedBankInfo", orderBy: "id")
            (inserted, _) = try insertBank(context, name: "New Bank", closeDate: "2012-01-01", save: false)
            renamed = banks[1]
            renamed["name"] = "Renamed Bank"
            deleted = banks[2]
            _ = deleted.related("details")
            context.delete(deleted)
        }

        /// The typed changes are still pending, and the objects' saved state is the file's.
        func pendingChangesIntact() throws -> [String] {
            var problems: [String] = []
            if !context.hasChanges { problems.append("the context has no changes any more") }
            if !inserted.isInserted || !inserted.objectID.isTemporary { problems.append("the insert was forgotten") }
            if renamed.string("name") != "Renamed Bank" || renamed.changedKeys != ["name"] {
                problems.append("the rename was forgotten: \(renamed)")
            }
            if !deleted.isDeleted { problems.append("the delete was forgotten") }
            let saved = try store.database.scalar(
                "SELECT name FROM failed_bank_info WHERE id = ?",
                [.integer(renamed.objectID.rowID)]
            )
            let nameIndex = renamed.entity.attributeIndex["name"]!
            if renamed.committedValues[nameIndex] != saved {
                problems.append(
                    "the context's saved name \(renamed.committedValues[nameIndex]) is not the file's \(saved)"
                )
            }
            return problems
        }

        /// What the context shows agrees with the file, and `undoName` is the save undo would undo.
        func inStepWithFile(undoName: String?, redoName: String?) throws -> [String] {
            var problems: [String] = []
            if context.hasChanges { problems.append("the context has unsaved changes") }
            if context.undoActionName != undoName {
                problems.append("undo would undo \(context.undoActionName ?? "nothing"), not \(undoName ?? "nothing")")
            }
            if context.redoActionName != redoName {
                problems.append("redo would redo \(context.redoActionName ?? "nothing"), not \(redoName ?? "nothing")")
            }
            let saved = try store.database.scalar(
                "SELECT name FROM failed_bank_info WHERE id = ?",
                [.integer(renamed.objectID.rowID)]
            )
            if renamed["name"] != saved { problems.append("the context shows \(renamed["name"]), the file \(saved)") }
            return problems
        }
    }

    @Test func aSaveThatFailsChangesNothingAndKeepsWhatTheUserTyped() throws {
        let outcome = try WriteUnderFaults<Edits>(
            template: try Self.template(),
            open: { try Edits($0) },
            operation: { try $0.context.save(actionName: "Edits") },
            afterFailure: { edits, _ in try edits.pendingChangesIntact() },
            retry: { try $0.context.save(actionName: "Edits") }
        ).run()
        #expect(outcome.problems.isEmpty, "\(outcome)")
        #expect(outcome.summary.fired(.write) > 0 && outcome.failuresReported > 0, "\(outcome)")
    }

    @Test func anUndoThatFailsChangesNothingAndCanBeTriedAgain() throws {
        let outcome = try WriteUnderFaults<Edits>(
            template: try Self.template(),
            open: { path in
                let edits = try Edits(path)
                try edits.context.save(actionName: "Edits")
                return edits
            },
            operation: { try $0.context.undo() },
            afterFailure: { edits, _ in try edits.inStepWithFile(undoName: "Edits", redoName: nil) },
            retry: { try $0.context.undo() }
        ).run()
        #expect(outcome.problems.isEmpty, "\(outcome)")
        #expect(outcome.summary.fired(.write) > 0 && outcome.failuresReported > 0, "\(outcome)")
    }

    @Test func aRedoThatFailsChangesNothingAndCanBeTriedAgain() throws {
        let outcome = try WriteUnderFaults<Edits>(
            template: try Self.template(),
            open: { path in
                let edits = try Edits(path)
                try edits.context.save(actionName: "Edits")
                try edits.context.undo()
                return edits
            },
            operation: { try $0.context.redo() },
            afterFailure: { edits, _ in try edits.inStepWithFile(undoName: nil, redoName: "Edits") },
            retry: { try $0.context.redo() }
        ).run()
        #expect(outcome.problems.isEmpty, "\(outcome)")
        #expect(outcome.summary.fired(.write) > 0 && outcome.failuresReported > 0, "\(outcome)")
    }
}
