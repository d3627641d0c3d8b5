import Foundation
import TerminalUI
import TestSupport
import Testing

@testable import MyStashKit

/// A temporary directory holding one stash file, removed by `remove()`.
final class TemporaryStash {
    let directory: URL
    var path: String { directory.appendingPathComponent("stash.sqlite").path }

    init() throws {
        directory = TemporaryDirectory.create("mystash-test")
    }

    /// Opens the stash and sets (or unlocks with) `passphrase`, with the minimum KDF cost.
    func open(passphrase: String = "correct horse") throws -> Stash {
        let stash = try Stash(path: path)
        if stash.hasPassphrase {
            try stash.unlock(passphrase: SecureBytes(utf8: passphrase))
        } else {
            try stash.setUp(passphrase: SecureBytes(utf8: passphrase), parameters: .minimum)
        }
        return stash
    }

    /// Makes the stash with `passwords` and `notes` (title, body) and locks it again, its WAL
    /// checkpointed into the file: what a test that edits the file with `sqlite3` starts from.
    func makeLocked(passwords: [PasswordEntry], notes: [(String, String)] = []) throws {
        let stash = try open()
        for entry in passwords { try stash.addPassword(entry) }
        for (title, body) in notes { try stash.addNote(title: title, body: body) }
        stash.lock()
        _ = try stash.store.database.query("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Unlocks a stash changed behind its back the way `mystash passwd --skip-damaged`
    /// does (to the same passphrase, after the person agreed), so that its damaged entries
    /// are in the manifest as they are: what a test of their handling starts from.
    @discardableResult
    func acceptDamage(passphrase: String = "correct horse") throws -> Stash {
        let stash = try Stash(path: path)
        _ = try stash.unlock(passphrase: SecureBytes(utf8: passphrase), toleratingChanges: true)
        try stash.changePassphrase(to: SecureBytes(utf8: passphrase), parameters: .minimum, skippingDamaged: true)
        return stash
    }

    /// What a strict unlock says when the stash was changed behind its back (nil when it unlocks).
    /// A refusal writes nothing: the store and its WAL are as they were.
    func refusal(passphrase: String = "correct horse") throws -> [String]? {
        let before = fileBytes().filter { $0.key != "-shm" && !$0.value.isEmpty }
        let stash = try Stash(path: path)
        do { try stash.unlock(passphrase: SecureBytes(utf8: passphrase)) } catch StashError.changedBehindTheAppsBack(
            let findings
        ) {
            #expect(
                fileBytes().filter { $0.key != "-shm" && !$0.value.isEmpty } == before,
                "a refused unlock wrote nothing"
            )
            return findings
        }
        stash.lock()
        return nil
    }

    /// The bytes of the store and its `-wal` / `-shm` companions that exist.
    func fileBytes() -> [String: Data] {
        var result: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm", "-journal"] {
            if let data = FileManager.default.contents(atPath: path + suffix) { result[suffix] = data }
        }
        return result
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// SQL that damages one sealed column on disk: its 31st byte is replaced by one that surely
/// differs (0x01 where it was 0x00, else 0x00). Setting it to 0x00 outright left about one
/// sealed value in 256 intact, since the nonce and ciphertext are random.
///
///     try Database(path: path).execute(flippingOneByte(of: "password", where: "name = 'Bank'"))
func flippingOneByte(of column: String, in table: String = "password", where condition: String = "1") -> String {
    let replacement = "CASE WHEN substr(\(column), 31, 1) = X'00' THEN X'01' ELSE X'00' END"
    return "UPDATE \(table) SET \(column) = CAST(substr(\(column), 1, 30) || \(replacement) || "
        + "substr(\(column), 32) AS BLOB) WHERE \(condition)"
}

extension Data {
    /// Whether `needle` occurs anywhere in these bytes.
    func containsBytes(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, count >= needle.count else { return false }
        return range(of: Data(needle)) != nil
    }
}

extension StashApp {
    /// The app over `stash` as the screen tests drive it: an 80×24 memory screen, `clock`, no
    /// animation, never locking, copies recorded (``RecordingClipboard``).
    static func onMemoryScreen(_ stash: Stash, clock: TestClock = TestClock(now: 1)) throws -> StashApp {
        try StashApp(
            stash: stash,
            backend: MemoryBackend(width: 80, height: 24),
            clock: clock,
            animated: false,
            lockAfter: 0,
            clipboard: RecordingClipboard()
        )
    }
}
