import Foundation
import Testing

@testable import MyStashKit

/// `--lock-after` in a real terminal (tmux).
///
/// Nothing here depends on how fast the test runs beside the app's clock: the app may lock
/// 3 s after it starts (or after the unlock) before the test has looked at the screen, so
/// what the unlocked app showed is read from the pane's recorded output (everything it drew),
/// not from a capture that might come after the lock, and no key is needed before the lock
/// (the note is on the first tab) — a key sent late would land on the lock screen.
@Suite(.serialized) struct AutoLockEndToEndTests {
    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func theAppLocksWhenIdleAndThePassphraseUnlocks() throws {
        let session = try StashSession()
        defer { session.remove() }
        let stash = try Stash(path: session.database)
        try stash.setUp(passphrase: SecureBytes(utf8: "lock pass"), parameters: .minimum)
        try stash.addNote(title: "Bank", body: "the safe's combination")
        stash.lock()
        let (pane, _) = try session.launch(["--lock-after", "3", "--no-animation"])
        defer { pane.close() }
        let record = session.directory.appendingPathComponent("pane-output.txt").path
        try pane.recordOutput(to: record)
        try pane.waitFor("Master passphrase:")
        pane.type("lock pass")
        pane.press("Enter")
        try pane.waitForRecordedOutput("Bank", in: record)  // the unlocked app listed the note
        let locked = try pane.waitFor("MyStash is locked")
        #expect(!locked.contains("Bank"))
        let beforeUnlock = pane.recordedOutputSize(record)
        pane.type("lock pass")
        pane.press("Enter")
        try pane.waitForRecordedOutput("Bank", in: record, after: beforeUnlock)  // the list again
    }
}
