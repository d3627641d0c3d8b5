import Foundation
import SQLiteStore
import TerminalUI
import TestSupport
import Testing

@testable import MyStashKit

/// Every path that writes a stash keeps its manifest true — the list screen's generic
/// delete, `u` (the context's undo), redo, a form's save, import, add, passwd — because the
/// manifest is the store's save hook, not a method each caller must remember. Each test
/// writes through one path and then unlocks from a fresh process (the real binary), as the
/// user's next `mystash` would.
@Suite(.serialized) struct ManifestOnEveryWriteTests {
    static let passphrase = "correct horse"

    /// The app over a stash holding "Alpha" and "Zulu", on an in-memory screen driven key by
    /// key as `TestTerminal` drives one (a frame 10 ms after each key, one a second later).
    final class App {
        let temp: TemporaryStash
        let stash: Stash
        let clock = TestClock(now: 100)
        let app: StashApp

        init() throws {
            temp = try TemporaryStash()
            stash = try temp.open(passphrase: ManifestOnEveryWriteTests.passphrase)
            try stash.addPassword(PasswordEntry(name: "Alpha", userID: "a", password: "alpha-Secret-1"))
            try stash.addPassword(PasswordEntry(name: "Zulu", userID: "z", password: "zulu-Secret-2"))
            app = try StashApp.onMemoryScreen(stash, clock: clock)
            press()
        }

        deinit { temp.remove() }

        @discardableResult
        func press(_ events: InputEvent...) -> String {
            TestTerminal.press(events, on: app.loop, clock: clock)
            return app.screenText
        }

        /// Types `text` into the focused field, one key at a time.
        func type(_ text: String) {
            TestTerminal.press(text.map { .character($0) }, on: app.loop, clock: clock)
        }
    }

    /// `mystash show NAME` from a new process: what the user's next command finds.
    static func showFromAFreshProcess(_ name: String, in temp: TemporaryStash) throws -> ProcessResult {
        try ScriptRun.run(["show", name, "--db", temp.path, "--passphrase-fd", "3"], fd3: passphrase + "\n")
    }

    /// Unlocks the stash in a new in-process `Stash` (a new connection): nil when it unlocks, else what it refused.
    static func refusal(_ temp: TemporaryStash) throws -> [String]? {
        try temp.refusal(passphrase: passphrase)
    }

    @Test(.enabled(if: EndToEnd.binary != nil, "needs the built mystash"))
    func deleteAndUndoThroughTheAppsKeysLeaveAStashANewProcessUnlocks() throws {
        let a = try App()
        a.press(.tab, .end)
        #expect(a.app.screenText.contains("Zulu"))
        a.press(.character("d"))
        let deleted = a.press(.enter)
        #expect(deleted.contains("Deleted “Zulu” — u to undo"), "\(deleted)")
        let afterDelete = try Self.showFromAFreshProcess("Alpha", in: a.temp)
        #expect(afterDelete.status == 0, "after the delete: \(afterDelete.standardError)")
        #expect(afterDelete.standardOutput == "alpha-Secret-1\n")

        let undone = a.press(.character("u"))
        #expect(undone.contains("Undone: Deleted “Zulu”"), "\(undone)")
        let afterUndo = try Self.showFromAFreshProcess("Zulu", in: a.temp)
        #expect(afterUndo.status == 0, "after the undo: \(afterUndo.standardError)")
        #expect(afterUndo.standardOutput == "zulu-Secret-2\n")
    }

    @Test(.enabled(if: EndToEnd.binary != nil, "needs the built mystash"))
    func editSaveAndUndoThroughTheAppsKeysLeaveAStashANewProcessUnlocks() throws {
        let a = try App()
        a.press(.tab, .end, .enter)
        #expect(a.app.screenText.contains("Edit Password"))
        a.press(.tab, .tab, .control("u"))  // the password field, emptied
        a.type("new-Zulu-Passw0rd-9")
        let saved = a.press(.control("s"))
        #expect(saved.contains("Saved “Zulu”"), "\(saved)")
        let afterSave = try Self.showFromAFreshProcess("Zulu", in: a.temp)
        #expect(afterSave.status == 0, "after the save: \(afterSave.standardError)")
        #expect(afterSave.standardOutput == "new-Zulu-Passw0rd-9\n")

        let undone = a.press(.character("u"))
        #expect(undone.contains("Undone: Saved “Zulu”"), "\(undone)")
        let afterUndo = try Self.showFromAFreshProcess("Zulu", in: a.temp)
        #expect(afterUndo.status == 0, "after the undo: \(afterUndo.standardError)")
        #expect(afterUndo.standardOutput == "zulu-Secret-2\n")
    }

    @Test func redoThroughTheContextKeepsTheManifest() throws {
        let a = try App()
        a.press(.tab, .end, .character("d"), .enter, .character("u"))
        #expect(try a.stash.context.redo() != nil)
        #expect(try Self.refusal(a.temp) == nil)
        #expect(try a.stash.names(of: .passwords) == ["Alpha"])
        try a.stash.context.undo()
        #expect(try Self.refusal(a.temp) == nil)
        #expect(try a.stash.names(of: .passwords) == ["Alpha", "Zulu"])
    }

    @Test func aGenericSaveThroughTheContextKeepsTheManifest() throws {
        // Code that knows nothing of the manifest (a future screen): a plain context save.
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open(passphrase: Self.passphrase)
        let note = try stash.addNote(title: "Groceries", body: "milk")
        var record = try note.record(as: NoteRecord.self)
        record.title = "Shopping"
        record.revision += 1
        record.body = try stash.seal("milk, eggs", .body, of: record, vault: try stash.currentVault())
        try stash.context.update(note, with: record)
        try stash.context.save()
        let other = ObjectContext(store: stash.store)  // another context over the same store
        let fetched = try #require(try other.fetch(StashModel.note, orderBy: "id").first)
        other.delete(fetched)
        try other.save()
        #expect(try Self.refusal(temp) == nil)
        try other.undo()
        #expect(try Self.refusal(temp) == nil)
    }

    @Test func importAddAndPasswdLeaveAStashThatUnlocks() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open(passphrase: Self.passphrase)
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "bank-Secret-3"))
        #expect(try Self.refusal(temp) == nil)
        _ = try stash.importItems([
            .password(PasswordEntry(name: "Bank", userID: "me", password: "bank-Secret-4")),
            .note(title: "Plans", body: "none"),
        ])
        #expect(try Self.refusal(temp) == nil)
        try stash.changePassphrase(to: SecureBytes(utf8: Self.passphrase), parameters: .minimum)
        #expect(try Self.refusal(temp) == nil)
        try stash.addNote(title: "After passwd", body: "x")
        #expect(try Self.refusal(temp) == nil)
    }

    @Test func aLockedStashRefusesEveryContextWrite() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open(passphrase: Self.passphrase)
        let object = try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "bank-Secret-5"))
        stash.lock()
        stash.context.delete(object)
        #expect(throws: StashError.locked) { try stash.context.save() }
        stash.context.rollback()
        #expect(throws: StashError.locked) { try stash.context.undo() }
        #expect(try Self.refusal(temp) == nil)
    }
}
