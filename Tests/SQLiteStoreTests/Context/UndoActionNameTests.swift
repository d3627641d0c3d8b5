import Foundation
import Testing

@testable import SQLiteStore

/// The context's undo stack carries the name each save was made with, so a
/// screen says what it undid without a second list of labels beside it.
@Suite("Undo action names")
struct UndoActionNameTests {
    @Test func undoReturnsTheActionNameAndTheChangesOfTheSaveItUndid() throws {
        let f = try Fixture()
        let (info, details) = try insertBank(f.context, name: "Bank")
        let infoID = info.objectID
        let detailsID = details.objectID
        f.context.delete(info)
        try f.context.save(actionName: "Deleted “Bank”")
        #expect(f.context.undoActionName == "Deleted “Bank”")

        let undone = try #require(try f.context.undo())
        #expect(undone.name == "Deleted “Bank”")
        #expect(undone.changes == ChangeSet(inserted: [infoID, detailsID]))
        #expect(!undone.discardedUnsavedChanges)
        #expect(f.context.redoActionName == "Deleted “Bank”")
        #expect(f.context.undoActionName == nil, "the insert was saved without a name")

        let redone = try #require(try f.context.redo())
        #expect(redone.name == "Deleted “Bank”")
        #expect(redone.changes == ChangeSet(deleted: [infoID, detailsID]))
        #expect(f.context.undoActionName == "Deleted “Bank”")
    }

    @Test func namesStackWithTheSavesAndNothingToUndoIsNil() throws {
        let f = try Fixture()
        let (info, _) = try insertBank(f.context, name: "Bank")
        info["city"] = "X"
        try f.context.save(actionName: "Edited “Bank”")
        info["city"] = "Y"
        try f.context.save(actionName: "Edited “Bank” again")
        #expect(try f.context.undo()?.name == "Edited “Bank” again")
        #expect(try f.context.undo()?.name == "Edited “Bank”")
        #expect(try f.context.undo()?.name == nil)  // the unnamed insert
        #expect(try f.context.undo() == nil)
    }

    @Test func undoWithUnsavedChangesDiscardsThemAndSaysSo() throws {
        let f = try Fixture()
        let (info, _) = try insertBank(f.context, name: "Bank")
        info["city"] = "W"
        try f.context.save(actionName: "Edited “Bank”")
        info["city"] = "Z"
        #expect(f.context.undoActionName == nil, "undo would discard the unsaved change first")
        let undone = try #require(try f.context.undo())
        #expect(undone.discardedUnsavedChanges)
        #expect(f.context.undoActionName == "Edited “Bank”")
    }

    @Test func setUndoActionNameNamesTheLastSaveMadeWithoutOne() throws {
        let f = try Fixture()
        let (info, _) = try insertBank(f.context, name: "Bank")
        f.context.setUndoActionName("Added “Bank”")
        #expect(f.context.undoActionName == "Added “Bank”")
        info["city"] = "X"
        try f.context.save()
        #expect(f.context.undoActionName == nil)
        #expect(try f.context.undo()?.name == nil)
        #expect(try f.context.undo()?.name == "Added “Bank”")
        f.context.setUndoActionName("nothing to name")  // an empty stack: no effect
        #expect(f.context.undoActionName == nil)
    }
}
