import Foundation
import SQLiteStore
import TerminalUI
import TestSupport
import Testing

@testable import MyStashKit

/// Two programs edit the same entry: a save of an entry another program saved since it was
/// loaded is refused, naming it, and the person chooses — reload and reapply only what they
/// changed, or overwrite; nothing is lost unseen.
@Suite(.serialized) struct EditConflictTests {
    static let passphrase = "correct horse"

    /// A second program on the same file: its own connection and context.
    static func otherProgram(_ temp: TemporaryStash) throws -> Stash {
        try temp.open(passphrase: passphrase)
    }

    static func bank(in stash: Stash) throws -> ManagedObject {
        try #require(try stash.passwordObjects(named: "Bank").first)
    }

    @Test func aSaveOfAnEntrySavedElsewhereSinceItWasLoadedIsRefusedNamingIt() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let a = try temp.open(passphrase: Self.passphrase)
        try a.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "old-pw", url: "https://old.example"))
        let object = try Self.bank(in: a)
        let loaded = LoadedEntry(entry: try a.entry(for: object), revision: object["revision"].int64 ?? 0)

        let b = try Self.otherProgram(temp)
        var theirs = loaded.entry
        theirs.password = "new-pw-from-B"
        try b.updatePassword(try Self.bank(in: b), with: theirs)

        var mine = loaded.entry
        mine.url = "https://new.example"
        #expect(throws: StashError.changedElsewhere(kind: "password entry", name: "Bank", deleted: false)) {
            try a.updatePassword(object, with: mine, loaded: loaded)
        }
        #expect(try b.entry(for: try Self.bank(in: b)).password == "new-pw-from-B", "nothing was written")
        #expect(
            StashError.changedElsewhere(kind: "password entry", name: "Bank", deleted: false).description
                == "the password entry “Bank” was changed by another program since you opened it; nothing was saved"
        )

        // Reload and reapply: B's password stays, A's URL goes in; only the URL changed.
        try a.updatePassword(object, with: mine, loaded: loaded, resolving: .reapply)
        let fresh = try Self.otherProgram(temp)
        let saved = try fresh.entry(for: try Self.bank(in: fresh))
        #expect(saved.password == "new-pw-from-B")
        #expect(saved.url == "https://new.example")
        #expect(
            saved.history.items.map(\.password) == ["old-pw"],
            "B's change recorded old-pw; A's reapply added nothing"
        )
        #expect(try temp.refusal() == nil)
    }

    @Test func overwritingWritesTheFormsValuesAndKeepsTheOtherPasswordInTheHistory() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let a = try temp.open(passphrase: Self.passphrase)
        try a.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "old-pw"))
        let object = try Self.bank(in: a)
        let loaded = LoadedEntry(entry: try a.entry(for: object), revision: object["revision"].int64 ?? 0)
        let b = try Self.otherProgram(temp)
        try b.updatePassword(try Self.bank(in: b), with: PasswordEntry(name: "Bank", userID: "me", password: "b-pw"))
        var mine = loaded.entry
        mine.userID = "me2"
        try a.updatePassword(object, with: mine, loaded: loaded, resolving: .overwrite)
        let fresh = try Self.otherProgram(temp)
        let saved = try fresh.entry(for: try Self.bank(in: fresh))
        #expect(saved.userID == "me2" && saved.password == "old-pw")
        #expect(saved.history.items.map(\.password) == ["b-pw", "old-pw"], "B's password is in the history, not lost")
    }

    @Test func anEntryDeletedElsewhereIsSaidSoAndANoteConflictsLikeAnEntry() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let a = try temp.open(passphrase: Self.passphrase)
        try a.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "pw"))
        let note = try a.addNote(title: "Plans", body: "a")
        let object = try Self.bank(in: a)
        let loaded = LoadedEntry(entry: try a.entry(for: object), revision: object["revision"].int64 ?? 0)
        let loadedNote = LoadedNote(title: "Plans", body: "a", revision: note["revision"].int64 ?? 0)
        let b = try Self.otherProgram(temp)
        try b.delete(try Self.bank(in: b))
        let theirNote = try #require(try b.context.fetch(StashModel.note).first)
        try b.updateNote(theirNote, title: "Plans", body: "b's text")
        #expect(throws: StashError.changedElsewhere(kind: "password entry", name: "Bank", deleted: true)) {
            try a.updatePassword(object, with: PasswordEntry(name: "Bank", userID: "me", password: "x"), loaded: loaded)
        }
        #expect(throws: StashError.changedElsewhere(kind: "note", name: "Plans", deleted: false)) {
            try a.updateNote(note, title: "Plans (renamed)", body: "a", loaded: loadedNote)
        }
        try a.updateNote(note, title: "Plans (renamed)", body: "a", loaded: loadedNote, resolving: .reapply)
        #expect(try b.fieldValue(.notes, ofEntryNamed: "Plans (renamed)", user: nil, at: Date()) == "b's text")
    }

    /// The app, an entry open in its form; another process (`mystash import`) saves a new
    /// password; the form changes only the URL and saves.
    @Test(.enabled(if: EndToEnd.binary != nil, "needs the built mystash"))
    func theAppSaysWhoseChangeItWasAndReappliesOnlyTheURL() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open(passphrase: Self.passphrase)
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "old-pw", url: "https://old.example"))
        let clock = TestClock(now: 100)
        let app = try StashApp.onMemoryScreen(stash, clock: clock)
        func press(_ events: InputEvent...) -> String {
            TestTerminal.press(events, on: app.loop, clock: clock)
            return app.screenText
        }
        _ = press(.tab, .home, .enter)
        #expect(app.screenText.contains("Edit Password"))

        let csv = temp.directory.appendingPathComponent("b.csv").path
        try "name,url,username,password,note\nBank,https://old.example,me,new-pw-from-B,\n"
            .write(toFile: csv, atomically: true, encoding: .utf8)
        let other = try ScriptRun.run(
            ["import", csv, "--db", temp.path, "--passphrase-fd", "3"],
            fd3: Self.passphrase + "\n"
        )
        #expect(other.status == 0 && other.standardOutput.contains("1 updated"), "\(other.standardOutput)")

        _ = press(.tab, .tab, .tab, .control("u"))
        TestTerminal.press("https://new.example".map { .character($0) }, on: app.loop, clock: clock)
        let refused = press(.control("s"))
        #expect(refused.contains("“Bank” was changed by another program"), "\(refused)")
        #expect(refused.contains("Reload it and reapply my changes (URL)"), "\(refused)")
        #expect(refused.contains("Overwrite it with this form"))
        let saved = press(.enter)
        #expect(!saved.contains("Edit Password"), "the form closed once saved: \(saved)")
        #expect(saved.contains("Saved “Bank”"), "\(saved)")

        let password = try ScriptRun.run(
            ["show", "Bank", "--db", temp.path, "--passphrase-fd", "3"],
            fd3: Self.passphrase + "\n"
        )
        #expect(password.standardOutput == "new-pw-from-B\n", "\(password.standardError)")
        let url = try ScriptRun.run(
            ["show", "Bank", "--field", "url", "--db", temp.path, "--passphrase-fd", "3"],
            fd3: Self.passphrase + "\n"
        )
        #expect(url.standardOutput == "https://new.example\n", "\(url.standardError)")
    }
}
