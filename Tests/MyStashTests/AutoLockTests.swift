import Foundation
import SQLiteStore
import TerminalUI
import Testing

@testable import MyStashKit

/// `--lock-after` and `L`: the key is wiped and only the unlock prompt shows;
/// the right passphrase returns to the same place.
@Suite struct AutoLockTests {
    final class Harness {
        let temp: TemporaryStash
        let stash: Stash
        let clock = TestClock(now: 100)
        let app: StashApp

        init(lockAfter: Double) throws {
            temp = try TemporaryStash()
            stash = try temp.open(passphrase: "right one")
            try stash.addPassword(PasswordEntry(name: "Bank", userID: "me@example.com", password: "pw"))
            app = try StashApp(
                stash: stash,
                backend: MemoryBackend(width: 80, height: 24),
                clock: clock,
                animated: false,
                lockAfter: lockAfter
            )
            app.loop.draw()
        }

        deinit { temp.remove() }

        func send(_ events: InputEvent...) {
            for event in events { app.send(event) }
            app.loop.draw()
        }

        func type(_ text: String) { for character in text { send(.character(character)) } }

        func idle(_ seconds: Double) {
            clock.advance(by: seconds)
            app.lockIfIdle(now: clock.now)
            app.loop.draw()
        }
    }

    @Test func idleForLockAfterSecondsLocksAndTheRightPassphraseReturnsToTheSamePlace() throws {
        let h = try Harness(lockAfter: 60)
        h.send(.tab, .enter)
        #expect(h.app.screenText.contains("Edit Password"))
        h.idle(59)
        #expect(!h.app.isLocked)
        h.idle(1)
        #expect(h.app.isLocked)
        #expect(!h.stash.isUnlocked)
        let locked = h.app.screenText
        #expect(locked.contains("MyStash is locked") && locked.contains("Master passphrase:"))
        #expect(!locked.contains("Bank") && !locked.contains("me@example.com"), "\(locked)")
        h.type("wrong")
        h.send(.enter)
        #expect(h.app.screenText.contains("Wrong passphrase"))
        #expect(h.app.isLocked)
        h.type("right one")
        h.send(.enter)
        #expect(!h.app.isLocked && h.stash.isUnlocked)
        #expect(h.app.screenText.contains("Edit Password") && h.app.screenText.contains("Bank"))
    }

    @Test func keysKeepTheAppUnlockedAndZeroNeverLocks() throws {
        let h = try Harness(lockAfter: 60)
        h.idle(50)
        h.send(.character("j"))
        h.idle(50)
        #expect(!h.app.isLocked)
        let never = try Harness(lockAfter: 0)
        never.idle(100_000)
        #expect(!never.app.isLocked)
    }

    @Test func capitalLLocksAtOnce() throws {
        let h = try Harness(lockAfter: 0)
        h.send(.character("L"))
        #expect(h.app.isLocked && !h.stash.isUnlocked)
        #expect(!h.app.screenText.contains("Bank"))
    }
}
