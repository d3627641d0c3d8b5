import Foundation
import SQLiteStore
import TerminalUI
import Testing

@testable import MyStashKit

/// The app's screens, driven in-process on an in-memory screen (no terminal).
@Suite struct StashAppTests {
    /// An app on a fresh stash, 80×24, without animation.
    final class Harness {
        let temp: TemporaryStash
        let stash: Stash
        let screen = MemoryBackend(width: 80, height: 24)
        let clock = TestClock(now: 100)
        let app: StashApp

        /// `prepare` may fill (or damage) the stash file before the app opens it.
        init(prepare: (TemporaryStash) throws -> Void = { _ in }) throws {
            temp = try TemporaryStash()
            try prepare(temp)
            stash = try temp.open()
            app = try StashApp(stash: stash, backend: screen, clock: clock, animated: false)
            app.loop.draw()
        }

        deinit { temp.remove() }

        func send(_ events: InputEvent...) {
            for event in events { app.loop.dispatch(event) }
            app.loop.draw()
        }

        func type(_ text: String) {
            for character in text { app.loop.dispatch(.character(character)) }
            app.loop.draw()
        }

        var text: String { app.screenText }

        /// The screen's lines, trailing spaces trimmed.
        var lines: [String] { text.components(separatedBy: "\n") }

        func addNote(_ title: String, body: String = "") {
            send(.character("a"))
            type(title)
            if !body.isEmpty {
                send(.tab)
                type(body)
            }
            send(.control("s"))
        }

        /// The line of the list (between the tab bar and the status line) showing `needle`, if any.
        func line(containing needle: String) -> Int? {
            let lines = self.lines
            return lines.indices.first { $0 >= 2 && $0 < lines.count - 1 && lines[$0].contains(needle) }
        }
    }

    @Test func emptyListsInviteToAdd() throws {
        let h = try Harness()
        #expect(h.text.contains("No notes yet"))
        #expect(h.text.contains("1 Notes"))
        h.send(.tab)
        #expect(h.text.contains("No passwords yet"))
    }

    @Test func addedNotesAreSortedCaseInsensitivelyInLetterSections() throws {
        let h = try Harness()
        h.addNote("banana", body: "yellow\nfruit")
        h.addNote("Apple")
        h.addNote("apricot")
        h.addNote("42 things")
        let lines = h.lines
        let order = ["#", "42 things", "A ─", "Apple", "apricot", "B ─", "banana"].map { needle in
            lines.firstIndex { $0.contains(needle) } ?? -1
        }
        #expect(!order.contains(-1), "\(h.text)")
        #expect(order == order.sorted(), "\(h.text)")
        #expect(h.text.contains("yellow"))  // the body's first line is the detail
        #expect(h.text.contains("4 notes"))
        #expect(try h.stash.names(of: .notes) == ["42 things", "Apple", "apricot", "banana"])
    }

    @Test func renamedNoteMovesToItsNewSection() throws {
        let h = try Harness()
        h.addNote("Apple")
        h.addNote("Banana")
        // Select Apple and rename it to "Zucchini".
        h.send(.home, .character("e"))
        #expect(h.text.contains("Edit Note"))
        h.send(.control("u"))  // clear the title field
        h.type("Zucchini")
        h.send(.control("s"))
        let z = try #require(h.line(containing: "Z ─"), "\(h.text)")
        let zucchini = try #require(h.line(containing: "Zucchini"))
        let banana = try #require(h.line(containing: "Banana"))
        #expect(banana < z && z < zucchini)
        #expect(h.line(containing: "A ─") == nil)  // the emptied section is gone
        #expect(h.line(containing: "Apple") == nil)
        #expect(h.text.contains("Saved “Zucchini”"))
    }

    @Test func inlineDeleteAndUndoBringTheNoteBack() throws {
        let h = try Harness()
        h.addNote("Apple")
        h.addNote("Banana")
        h.send(.home, .character("d"))
        #expect(h.text.contains("Delete"))
        h.send(.enter)
        #expect(h.line(containing: "Apple") == nil)
        #expect(h.text.contains("Deleted “Apple” — u to undo"))
        h.send(.character("u"))
        #expect(h.line(containing: "Apple") != nil)
        #expect(h.text.contains("Undone: Deleted “Apple”"))
        #expect(try h.stash.names(of: .notes) == ["Apple", "Banana"])
    }

    @Test func escapeAfterEditingAsksBeforeDiscarding() throws {
        let h = try Harness()
        h.send(.character("a"))
        h.type("Draft")
        h.send(.escape)
        #expect(h.text.contains("Discard changes?"))
        h.send(.character("y"))
        #expect(h.text.contains("No notes yet"))
        #expect(try h.stash.names(of: .notes).isEmpty)
        // Without edits, Esc closes at once.
        h.send(.character("a"), .escape)
        #expect(h.text.contains("No notes yet"))
    }

    @Test func noteWithoutTitleIsNotSaved() throws {
        let h = try Harness()
        h.send(.character("a"), .control("s"))
        #expect(h.text.contains("A title is required"))
        #expect(try h.stash.names(of: .notes).isEmpty)
    }

    @Test func passwordIsMaskedRevealedOnlyOnRequestAndNeverListed() throws {
        let h = try Harness()
        h.send(.tab, .character("a"))
        #expect(h.text.contains("New Password"))
        h.type("Bank")
        h.send(.tab)
        h.type("me@example.com")
        h.send(.tab)
        h.type("hunter2-secret")
        #expect(!h.text.contains("hunter2-secret"))
        #expect(h.text.contains("••••••••••••••"))
        h.send(.control("r"))
        #expect(h.text.contains("hunter2-secret"))
        h.send(.control("r"))
        #expect(!h.text.contains("hunter2-secret"))
        h.send(.control("s"))
        #expect(h.text.contains("Bank"))
        #expect(h.text.contains("me@example.com"))
        #expect(!h.text.contains("hunter2-secret"))
        // Editing shows the decrypted password masked, and Ctrl-R reveals it.
        h.send(.enter)
        #expect(h.text.contains("Edit Password"))
        #expect(!h.text.contains("hunter2-secret"))
        h.send(.control("r"))
        #expect(h.text.contains("hunter2-secret"))
        h.send(.escape)
        #expect(!h.text.contains("hunter2-secret"))
        let object = try h.stash.context.fetch(StashModel.password)[0]
        #expect(try h.stash.revealPassword(of: object) == "hunter2-secret")
    }

    @Test func generateKeyFillsAStrongPassword() throws {
        let h = try Harness()
        h.send(.tab, .character("a"))
        h.type("Mail")
        h.send(.control("g"))
        #expect(h.text.contains(String(repeating: "•", count: 20)))
        h.send(.control("s"))
        let object = try h.stash.context.fetch(StashModel.password)[0]
        let generated = try h.stash.revealPassword(of: object)
        #expect(generated.count == 20)
        #expect(generated.allSatisfy { PasswordGenerator.defaultAlphabet.contains($0) })
    }

    @Test func searchSelectsMatchesAndCycles() throws {
        let h = try Harness()
        for title in ["Alpha", "Beta", "Gamma", "Alphabet"] { h.addNote(title) }
        h.send(.home, .character("/"))
        h.type("alp")
        #expect(h.text.contains("1 of 2"))
        h.send(.enter)
        let tab = h.app.browser.currentTab
        #expect(tab.selectedObject?.string("title") == "Alpha")
        h.send(.character("n"))
        #expect(tab.selectedObject?.string("title") == "Alphabet")
        h.send(.character("n"))
        #expect(tab.selectedObject?.string("title") == "Alpha")
        h.send(.character("N"))
        #expect(tab.selectedObject?.string("title") == "Alphabet")
    }

    @Test func letterIndexIsShownOnTheRight() throws {
        let h = try Harness()
        for title in ["Apple", "Mango", "Zebra"] { h.addNote(title) }
        let rightColumn = h.lines.compactMap { $0.count >= 80 ? String($0.last!) : nil }
        #expect(rightColumn.contains("A") && rightColumn.contains("M") && rightColumn.contains("Z"), "\(h.text)")
    }

    @Test func questionMarkShowsTheKeysAndAnyKeyClosesThem() throws {
        let h = try Harness()
        h.send(.character("?"))
        #expect(h.text.contains("generate a strong password"))
        #expect(h.text.contains("reveal the password"))
        h.send(.escape)
        #expect(!h.text.contains("generate a strong password"))
    }

    @Test func tabsKeepTheirOwnListsAndCounts() throws {
        let h = try Harness()
        h.addNote("Only note")
        h.send(.character("2"))
        #expect(h.text.contains("0 passwords"))
        #expect(h.line(containing: "Only note") == nil)
        h.send(.character("1"))
        #expect(h.text.contains("1 note"))
        #expect(h.line(containing: "Only note") != nil)
    }

    @Test func savingAnEntryWhosePasswordCannotBeDecryptedKeepsItAndSaysSo() throws {
        let h = try Harness { temp in
            try temp.open().addPassword(PasswordEntry(name: "Bank", userID: "me", password: "pw", url: "http://wrong"))
            try Database(path: temp.path).execute(
                flippingOneByte(of: "password")
            )
            try temp.acceptDamage().lock()
        }
        let damaged = try h.stash.store.database.scalar("SELECT password FROM password")
        h.send(.tab, .enter)
        #expect(h.text.contains("Edit Password"))
        #expect(h.text.contains("tampered with or damaged"), "\(h.text)")
        h.send(.tab, .tab, .tab)  // to the URL
        h.send(.control("u"))
        h.type("https://right.example")
        h.send(.control("s"))
        #expect(h.text.contains("Kept the unreadable password as it was; saved “Bank”"), "\(h.text)")
        #expect(try h.stash.store.database.scalar("SELECT password FROM password") == damaged)
        let object = try h.stash.context.fetch(StashModel.password)[0]
        #expect(try h.stash.read(object).entry.url == "https://right.example")
    }

    @Test func aRevealedPasswordIsDroppedWhenItsFormCloses() throws {
        let h = try Harness { temp in
            try temp.open().addPassword(PasswordEntry(name: "Bank", userID: "me", password: "hunter2-secret"))
        }
        h.send(.tab, .enter, .tab, .tab, .control("r"))
        let editor = try #require(h.app.loop.topView as? PasswordEditor)
        #expect(editor.passwordField.text == "hunter2-secret")
        h.send(.escape)
        #expect(editor.passwordField.text.isEmpty)
        #expect(!editor.passwordField.isRevealed)
    }
}
