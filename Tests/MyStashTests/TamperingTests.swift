import Foundation
import SQLiteStore
import Testing

@testable import MyStashKit

/// A stash file changed with `sqlite3` by someone without the passphrase is
/// refused at unlock, naming what changed, and nothing is re-sealed: the
/// header is authenticated (its format cannot be set back to "not sealed
/// yet"), and so is a manifest of every entry.
@Suite struct TamperingTests {
    /// A stash with Bank (alice) and Mail, and a note, locked again.
    private func bankAndMail(_ temp: TemporaryStash) throws {
        try temp.makeLocked(
            passwords: [
                PasswordEntry(name: "Bank", userID: "alice", password: "pw-bank", url: "https://bank.example"),
                PasswordEntry(name: "Mail", userID: "al", password: "pw-mail"),
            ],
            notes: [("Diary", "private")]
        )
    }

    /// A format-2 stash (the release before the authenticated format) with Bank (alice).
    private func secondVersionBank(_ temp: TemporaryStash) throws {
        try SecondVersionStash.make(
            at: temp.path,
            passphrase: "correct horse",
            notes: [],
            passwords: [PasswordEntry(name: "Bank", userID: "alice", password: "pw", url: "https://bank.example")]
        )
    }

    private func sqlite(_ temp: TemporaryStash, _ sql: String) throws {
        try Database(path: temp.path).execute(sql)
    }

    @Test func theFlagSetBackWithPlantedPlaintextIsRefusedAndNothingIsSealed() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try bankAndMail(temp)
        try sqlite(
            temp,
            """
            UPDATE vault_info SET sealing = 1;
            UPDATE password SET url = 'https://evil.example', notes = 'planted' WHERE name = 'Bank';
            INSERT INTO password (uid, name, user_id, password, modified, revision)
              VALUES ('00ff', 'Planted', 'mallory', 'attacker-pw', '2026-01-01T00:00:00Z', 1);
            """
        )
        let before = temp.fileBytes()[""]
        let stash = try Stash(path: temp.path)
        #expect(throws: VaultError.headerChanged("its format was set back to 1")) {
            try stash.unlock(passphrase: SecureBytes(utf8: "correct horse"))
        }
        #expect(!stash.isUnlocked)
        #expect(
            try stash.store.database.scalar("SELECT url FROM password WHERE name = 'Bank'")
                == .text("https://evil.example")
        )
        #expect(try stash.store.database.scalar("SELECT sealing FROM vault_info") == .integer(1))
        #expect(temp.fileBytes()[""] == before, "nothing was written")
    }

    @Test func aFormatNumberRaisedBehindTheAppsBackIsAChangedHeaderNotANewerRelease() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try bankAndMail(temp)
        try sqlite(temp, "UPDATE vault_info SET sealing = 4")
        #expect(throws: VaultError.headerChanged("its format, salt or limits do not match their MAC")) {
            try Stash(path: temp.path).unlock(passphrase: SecureBytes(utf8: "correct horse"))
        }
    }

    @Test func aFormatTwoStashSetToFormatOneIsNotSealedUnlessThisRunUpgradedItFromTheFirstVersion() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try secondVersionBank(temp)
        try sqlite(temp, "UPDATE vault_info SET sealing = 1; UPDATE password SET url = 'https://evil.example'")
        let stash = try Stash(path: temp.path)
        #expect(throws: StashError.unsealedFormatNotFromFirstVersion) {
            try stash.unlock(passphrase: SecureBytes(utf8: "correct horse"))
        }
        #expect(try stash.store.database.scalar("SELECT url FROM password") == .text("https://evil.example"))
        #expect(try stash.store.database.scalar("SELECT sealing FROM vault_info") == .integer(1))
    }

    @Test func plaintextPlantedInAFormatTwoStashIsRefusedByItsMigration() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try secondVersionBank(temp)
        try sqlite(temp, "UPDATE password SET url = 'https://evil.example'")
        let stash = try Stash(path: temp.path)
        #expect(throws: StashError.tampered(kind: "password entry", name: "Bank", fields: ["URL"])) {
            try stash.unlock(passphrase: SecureBytes(utf8: "correct horse"))
        }
        #expect(try stash.store.database.scalar("SELECT sealing FROM vault_info") == .integer(2))
        #expect(try stash.store.database.scalar("SELECT url FROM password") == .text("https://evil.example"))
    }

    @Test func aFieldRolledBackFromABackupIsRefusedNamingTheField() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try bankAndMail(temp)
        let backup = temp.directory.appendingPathComponent("backup.sqlite").path
        try Stash(path: temp.path).backup(to: backup)
        do {
            let stash = try temp.open()
            let bank = try #require(try stash.passwordObjects(named: "Bank").first)
            var entry = try stash.entry(for: bank)
            entry.url = "https://new-bank.example"
            try stash.updatePassword(bank, with: entry)
            stash.lock()
        }
        let attach = "ATTACH '\(backup)' AS old;"
        // The URL alone: it no longer opens beside the newer fields (the revision is bound) and the manifest says so.
        try sqlite(
            temp,
            attach + "UPDATE password SET url = (SELECT url FROM old.password WHERE name = 'Bank') WHERE name = 'Bank'"
        )
        #expect(
            try temp.refusal() == [
                "the password entry “Bank” has a different URL than it was saved with (rolled back or replaced?)"
            ]
        )
        // The whole row, revision and all.
        try sqlite(
            temp,
            attach
                + """
                UPDATE password SET (user_id, password, url, notes, totp, history, revision) =
                  (SELECT user_id, password, url, notes, totp, history, revision FROM old.password WHERE name = 'Bank')
                WHERE name = 'Bank'
                """
        )
        let refusal = try #require(try temp.refusal())
        #expect(refusal.count == 2, "\(refusal)")
        #expect(refusal.first?.hasPrefix("the password entry “Bank” has a different user ID, password, URL") == true)
        #expect(refusal.last == "the password entry “Bank” is at revision 1, not 2")
    }

    @Test func aDeletedEntryAndAnAddedOneAreNamed() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try bankAndMail(temp)
        try sqlite(temp, "DELETE FROM password WHERE name = 'Mail'")
        #expect(try temp.refusal() == ["the password entry “Mail” was deleted"])
        try sqlite(
            temp,
            """
            DELETE FROM password WHERE name = 'Bank';
            INSERT INTO note (uid, title, body, created, modified, revision)
              VALUES ('00ee', 'Bank', 'attacker-pw', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 1);
            """
        )
        #expect(
            try temp.refusal() == [
                "the password entry “Bank” was deleted", "the password entry “Mail” was deleted",
                "a note “Bank” was added",
            ]
        )
    }

    @Test func aSaveRefusesToWriteOverAStashChangedWhileItWasOpen() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try bankAndMail(temp)
        let stash = try temp.open()
        try sqlite(temp, "DELETE FROM password WHERE name = 'Mail'")
        #expect(throws: StashError.changedBehindTheAppsBack(["the password entry “Mail” was deleted"])) {
            try stash.addNote(title: "New", body: "text")
        }
        #expect(try stash.store.database.scalar("SELECT count(*) FROM note") == .integer(1))
        stash.lock()
        #expect(try temp.refusal() == ["the password entry “Mail” was deleted"])
    }

    @Test func everySaveDeleteAndUndoKeepsTheManifestTrue() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try bankAndMail(temp)
        let stash = try temp.open()
        let generation = try stash.store.database.scalar("SELECT generation FROM vault_info").int64 ?? 0
        let mail = try #require(try stash.passwordObjects(named: "Mail").first)
        try stash.delete(mail)
        try stash.undo()
        _ = try stash.importItems([.note(title: "Imported", body: "x")])
        #expect(try stash.store.database.scalar("SELECT generation FROM vault_info").int64 == generation + 3)
        stash.lock()
        #expect(try temp.refusal() == nil)
    }
}

/// Stashes made by the releases before the authenticated format still open,
/// migrated at the first unlock with the right passphrase.
@Suite struct FormatMigrationTests {
    @Test func aFormatTwoStashOpensAndIsMigratedToTheAuthenticatedFormat() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        var history = PasswordHistory()
        history.record("older-pw", replacedAt: "2026-01-01T00:00:00Z")
        let entries = [
            PasswordEntry(name: "Bank", userID: "alice", password: "pw", url: "https://bank.example", history: history),
            PasswordEntry(name: "Mail", userID: "al", password: "mail-pw", totp: "JBSWY3DPEHPK3PXP"),
        ]
        try SecondVersionStash.make(
            at: temp.path,
            passphrase: "correct horse",
            notes: [("Diary", "private")],
            passwords: entries
        )
        #expect(throws: VaultError.wrongPassphrase) {
            try Stash(path: temp.path).unlock(passphrase: SecureBytes(utf8: "wrong"))
        }
        let stash = try temp.open()
        #expect(try stash.store.database.scalar("SELECT sealing FROM vault_info") == .integer(3))
        let objects = try stash.context.fetch(StashModel.password, orderBy: "name")
        #expect(try objects.map { try stash.entry(for: $0) } == entries)
        #expect(try stash.noteBody(of: try stash.context.fetch(StashModel.note)[0]) == "private")
        let lengths = try stash.store.database.query("SELECT length(password), length(user_id) FROM password")
        #expect(lengths.allSatisfy { $0[0] == $0[1] }, "padded: \(lengths)")
        stash.lock()
        #expect(try temp.refusal() == nil)
    }

    @Test func aFirstVersionFileIsLeftAsItWasUntilTheRightPassphrase() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try FirstVersionStash.make(
            at: temp.path,
            passphrase: "p",
            notes: [("Groceries", "milk")],
            passwords: [PasswordEntry(name: "Bank", userID: "ua", password: "pa")]
        )
        let before = temp.fileBytes()[""]
        do {
            let stash = try Stash(path: temp.path)
            #expect(try stash.names(of: .passwords) == ["Bank"])
            #expect(throws: VaultError.wrongPassphrase) { try stash.unlock(passphrase: SecureBytes(utf8: "q")) }
        }
        #expect(temp.fileBytes()[""] == before, "a run that did not unlock changed nothing")
        let stash = try temp.open(passphrase: "p")
        #expect(try stash.entry(for: try stash.context.fetch(StashModel.password)[0]).userID == "ua")
    }

    @Test func twoPasswordsOfLengthsThreeAndNineHaveCiphertextsOfTheSameLength() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        try stash.addPassword(PasswordEntry(name: "A", password: "abc"))
        try stash.addPassword(PasswordEntry(name: "B", password: "abcdefghi"))
        let lengths = try stash.store.database.query("SELECT length(password) FROM password ORDER BY name")
        #expect(lengths.count == 2 && lengths[0] == lengths[1], "\(lengths)")
    }
}

/// The manifest's own encoding: any name round-trips, and a change is told in words.
@Suite struct StashManifestTests {
    @Test func namesWithSpacesColonsAndLineBreaksRoundTrip() throws {
        let hashes = [StashManifest.hash(.blob([1, 2])), StashManifest.hash(.null)]
        let entry = StashManifest.Entry(kind: .notes, uid: "u 1:x", name: "a b\n3:c", revision: 7, hashes: hashes)
        let other = StashManifest.Entry(kind: .passwords, uid: "v", name: "", revision: 1, hashes: [])
        let manifest = StashManifest(entries: ["notes u 1:x": entry, "passwords v": other])
        #expect(try StashManifest(decoding: manifest.encoded) == manifest)
        #expect(throws: StashError.self) { try StashManifest(decoding: Array("not a manifest\n".utf8)) }
        #expect(StashManifest.hash(.text("x")) != StashManifest.hash(.blob(Array("x".utf8))), "the type counts")
    }
}
