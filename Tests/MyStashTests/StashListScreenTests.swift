import Foundation
import SQLiteStore
import TerminalUI
import Testing

@testable import MyStashKit

/// mystash on the generic list screen: what it configures (labels of the
/// forms' saves in the context's undo stack, a selection per tab).
@Suite struct StashListScreenTests {
    @Test func undoOfAnAddAndAnEditSaysWhatTheContextUndid() throws {
        let h = try StashAppTests.Harness()
        h.addNote("Groceries")
        #expect(h.stash.context.undoActionName == "Added “Groceries”")
        h.send(.character("e"))
        h.send(.end)
        h.type(" list")
        h.send(.control("s"))
        #expect(h.text.contains("Saved “Groceries list”"))
        h.send(.character("u"))
        #expect(h.text.contains("Undone: Saved “Groceries list”"))
        #expect(h.line(containing: "Groceries") != nil)
        h.send(.character("u"))
        #expect(h.text.contains("Undone: Added “Groceries”"))
        #expect(h.text.contains("No notes yet"))
    }

    @Test func theFirstFrameAlreadyHasTheCounts() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        _ = try stash.addNote(title: "Banana bread", body: "")
        let reopened = try temp.open()
        let screen = MemoryBackend(width: 80, height: 24)
        let app = try StashApp(stash: reopened, backend: screen, clock: TestClock(now: 100), animated: false)
        #expect(!app.browser.list.isLoading)
        app.loop.draw()
        #expect(screen.presentCount == 1)
        #expect(app.screenText.contains("1 note") && app.screenText.contains("Banana bread"))
    }

    @Test func eachTabGetsItsSelectionBack() throws {
        let h = try StashAppTests.Harness()
        for title in ["Alpha", "Beta", "Gamma"] { h.addNote(title) }
        h.send(.home, .down)
        #expect(h.app.browser.currentTab.selectedObject?.string("title") == "Beta")
        h.send(.character("2"))
        #expect(h.app.browser.currentTab.selectedObject == nil)
        h.send(.character("1"))
        #expect(h.app.browser.currentTab.selectedObject?.string("title") == "Beta")
    }
}

/// `/` on the Passwords tab finds user IDs and URLs, which are sealed in the file (the search runs in memory).
@Suite struct SealedFieldSearchTests {
    @Test func slashFindsAnEntryByItsUserIDOrURLButNeverByItsPassword() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        try stash.addPassword(
            PasswordEntry(name: "Alpha", userID: "anna", password: "pw-zebra", url: "https://alpha.example")
        )
        try stash.addPassword(
            PasswordEntry(name: "Beta", userID: "bert@mail.example", password: "pw-1", url: "https://quux.example")
        )
        try stash.addPassword(PasswordEntry(name: "Gamma", userID: "gus", password: "pw-2"))
        let passwords = try stash.context.fetch(StashModel.password, orderBy: "name")
        #expect(try stash.objectIDs(of: .passwords, matching: "BERT@") == [passwords[1].objectID])
        #expect(try stash.objectIDs(of: .passwords, matching: "quux") == [passwords[1].objectID])
        #expect(try stash.objectIDs(of: .passwords, matching: "zebra").isEmpty)
        let app = try StashApp.onMemoryScreen(stash)
        app.send(.tab)
        app.send(.character("/"))
        for character in "quux" { app.send(.character(character)) }
        app.send(.enter)
        #expect(app.browser.currentTab.selectedObject?.string("name") == "Beta")
    }
}
