import FetchedResults
import Foundation
import SQLiteStore
import TerminalUI
import Testing

@testable import FailedBanksKit

/// failedbanks on the generic list screen: what the bank configuration adds
/// (the undo label from the context, search by name through the controller).
@Suite struct BankListScreenTests {
    @Test func undoSaysWhatTheContextUndidInItsOwnWords() throws {
        let h = try BrowserHarness()
        h.press(.down, .character("d"), .enter)
        #expect(h.browser.context.undoActionName == "Deleted The First National Bank of Lindsay")
        #expect(h.press(.character("u")).contains("Undone: Deleted The First National Bank of Lindsay"))
        #expect(h.browser.context.undoActionName == nil)
    }

    @Test func aPastedSearchIsOneSearchAndFindsNamesInAnyCase() throws {
        let h = try BrowserHarness()
        h.press(.character("/"))
        let before = h.browser.list.searchCount
        for character in "REPUBLIC" { h.browser.loop.dispatch(.character(character)) }
        h.browser.loop.draw()
        #expect(h.browser.list.searchCount == before + 1)
        #expect(h.selectedName == "Republic First Bank")
        #expect(h.text.contains("1 of 2"))
    }

    @Test func theHelpIsTheListScreensKeysInFailedbanksWords() throws {
        let bindings = BrowserKeys.bindings
        #expect(
            bindings.contains { $0.keys == "Tab/Shift-Tab  1 2 3" && $0.description == "switch tab: Date, Name, State" }
        )
        // failedbanks has a grid (v): Enter and Esc share one line, ←/→ move the column cursor there.
        #expect(bindings.contains { $0.keys == "Enter  Esc" && $0.description.hasPrefix("show the bank's details; ") })
        #expect(bindings.contains { $0.keys == "/" && $0.description.hasPrefix("search by name") })
    }
}
