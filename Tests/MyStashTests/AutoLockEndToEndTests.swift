import Foundation
import Testing
@testable import MyStashKit

/// `--lock-after` in a real terminal (tmux).
@Suite(.serialized) struct AutoLockEndToEndTests {
    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func theAppLocksWhenIdleAndThePassphraseUnlocks() throws {
        let session = try StashSession()
        defer { session.remove() }
        let stash = try Stash(path: session.database)
        try stash.setUp(passphrase: SecureBytes(utf8: "lock pass"), parameters: .minimum)
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "pw"))
        stash.lock()
        let (pane, _) = try session.launch(["--lock-after", "3", "--no-animation"])
        defer { pane.close() }
        try pane.waitFor("Master passphrase:")
        pane.type("lock pass"); pane.press("Enter")
        try pane.waitFor("No notes yet")   // the app has the terminal: keys reach it now
        pane.press("Tab")
        try pane.waitFor("Bank")
        let locked = try pane.waitFor("MyStash is locked")
        #expect(!locked.contains("Bank"))
        pane.type("lock pass"); pane.press("Enter")
        try pane.waitUntil("the list again") { $0.contains("Bank") && !$0.contains("MyStash is locked") }
    }
}
