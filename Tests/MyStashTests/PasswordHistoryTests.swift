import Foundation
import TerminalUI
import Testing

@testable import MyStashKit

/// Changing a password keeps the old one with its date; `h` shows them, masked until Ctrl-R.
@Suite struct PasswordHistoryTests {
    @Test func hShowsThePreviousPasswordsWithTheirDates() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        let object = try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "first-Old-1"))
        var entry = try stash.entry(for: object)
        entry.password = "second-Old-2"
        try stash.updatePassword(object, with: entry)
        entry = try stash.entry(for: object)
        entry.password = "current-3"
        try stash.updatePassword(object, with: entry)
        let history = try stash.entry(for: object).history
        #expect(history.items.map(\.password) == ["second-Old-2", "first-Old-1"])
        #expect(try PasswordHistory(encoded: history.encoded) == history)
        let app = try StashApp.onMemoryScreen(stash)
        app.send(.tab)
        app.send(.character("h"))
        app.loop.draw()
        #expect(app.screenText.contains("Password history of “Bank”"))
        #expect(app.screenText.contains("replaced \(String(history.items[0].replaced.prefix(10)))"))
        #expect(!app.screenText.contains("second-Old-2"))
        app.send(.control("r"))
        app.loop.draw()
        #expect(app.screenText.contains("second-Old-2") && app.screenText.contains("first-Old-1"))
        app.send(.escape)
        app.loop.draw()
        #expect(!app.screenText.contains("second-Old-2"))
        #expect(!app.screenText.contains("Password history"))
    }
}

/// The history from inside the form: Ctrl-X h (a letter alone types into the fields).
@Suite struct FormPasswordHistoryTests {
    @Test func ctrlXHShowsTheHistoryOverTheFormMaskedUntilCtrlR() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        let object = try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "first-Old-1"))
        var entry = try stash.entry(for: object)
        entry.password = "current-2"
        try stash.updatePassword(object, with: entry)
        let replaced = try #require(try stash.entry(for: object).history.items.first?.replaced)
        let app = try StashApp.onMemoryScreen(stash)
        app.send(.tab)
        app.send(.enter)
        app.send(.control("x"))
        app.send(.character("h"))
        app.loop.draw()
        #expect(app.screenText.contains("Password history of “Bank”"), "\(app.screenText)")
        #expect(app.screenText.contains("replaced \(String(replaced.prefix(10)))"))
        #expect(!app.screenText.contains("first-Old-1"))
        app.send(.control("r"))
        app.loop.draw()
        #expect(app.screenText.contains("first-Old-1"))
        #expect(!app.screenText.contains("current-2"), "the current password stays masked")
        app.send(.escape)
        app.loop.draw()
        #expect(app.screenText.contains("Edit Password"), "back in the form: \(app.screenText)")
        #expect(!app.screenText.contains("first-Old-1") && !app.screenText.contains("Password history"))
        #expect(!app.screenText.contains("Bankh"), "the h was a command, not typed")
        // A new entry has no history yet.
        app.send(.escape)
        app.send(.character("a"))
        app.send(.control("x"))
        app.send(.character("h"))
        app.loop.draw()
        #expect(app.screenText.contains("No previous passwords"), "\(app.screenText)")
    }
}
