import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import MyStashKit

/// Every sealed value is bound to the entry a person knows (its name) and to
/// its own field: rows edited or swapped with `sqlite3` are refused as
/// tampering, never shown with another entry's secret.
@Suite struct EntryBindingTests {
    /// A stash with bankA (alice) and bankB (bob), locked and reopened so that nothing is cached.
    private func twoBanks(_ temp: TemporaryStash) throws {
        try temp.makeLocked(passwords: [
            PasswordEntry(name: "bankA", userID: "alice", password: "pw-of-A", url: "https://a.example"),
            PasswordEntry(name: "bankB", userID: "bob", password: "pw-of-B", url: "https://b.example"),
        ])
    }

    private func object(named name: String, in stash: Stash) throws -> ManagedObject {
        try #require(try stash.context.fetch(StashModel.password, where: "name = ?", [.text(name)]).first)
    }

    @Test func nameUserAndURLSwappedBetweenRowsAreRefusedAsTampering() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try twoBanks(temp)
        // What someone with write access to the file can do: swap what identifies the rows.
        let db = try Database(path: temp.path)
        try db.execute(
            """
            CREATE TEMP TABLE swap AS SELECT id, name, user_id, url FROM password;
            UPDATE password SET
              name = (SELECT name FROM swap WHERE swap.id != password.id),
              user_id = (SELECT user_id FROM swap WHERE swap.id != password.id),
              url = (SELECT url FROM swap WHERE swap.id != password.id);
            """
        )
        let refusal = try #require(try temp.refusal(), "a strict unlock refuses the swapped rows")
        #expect(refusal.contains("the password entry “bankA” was renamed to “bankB”"), "\(refusal)")
        #expect(refusal.contains("the password entry “bankB” was renamed to “bankA”"), "\(refusal)")
        let stash = try temp.acceptDamage()
        for name in ["bankA", "bankB"] {
            let row = try object(named: name, in: stash)
            var shown: String?
            do { shown = try stash.revealPassword(of: row) } catch {
                #expect("\(error)".contains("has been tampered with or damaged"), "\(error)")
                #expect("\(error)".contains("“\(name)”"), "\(error)")
            }
            #expect(shown == nil, "\(name) showed the password \(shown ?? "")")
            #expect(throws: (any Error).self) { try stash.entry(for: row) }
        }
    }

    @Test func aNameEditedBehindTheAppsBackIsRefused() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try twoBanks(temp)
        try Database(path: temp.path).execute("UPDATE password SET name = 'bankC' WHERE name = 'bankA'")
        #expect(try temp.refusal() == ["the password entry “bankA” was renamed to “bankC”"])
        let stash = try temp.acceptDamage()
        let row = try object(named: "bankC", in: stash)
        #expect(
            throws: StashError.tampered(
                kind: "password entry",
                name: "bankC",
                fields: ["user ID", "password", "URL", "notes", "TOTP secret", "password history"]
            )
        ) {
            try stash.entry(for: row)
        }
        #expect(stash.listDetail(of: row).contains("tampered"))
        #expect(try stash.entry(for: try object(named: "bankB", in: stash)).password == "pw-of-B")
    }

    @Test func aSealedValueMovedToAnotherFieldOfTheSameRowDoesNotOpen() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try twoBanks(temp)
        try Database(path: temp.path).execute("UPDATE password SET user_id = password WHERE name = 'bankA'")
        #expect(
            try temp.refusal() == [
                "the password entry “bankA” has a different user ID than it was saved with (rolled back or replaced?)"
            ]
        )
        let stash = try temp.acceptDamage()
        let reading = try stash.read(try object(named: "bankA", in: stash))
        #expect(reading.unreadable == [.userID])
        #expect(reading.entry.userID == "")
        #expect(reading.entry.password == "pw-of-A")
    }

    @Test func noteBodiesAreBoundToTheirNote() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        do {
            let stash = try temp.open()
            try stash.addNote(title: "Diary", body: "private thoughts")
            try stash.addNote(title: "Shopping", body: "milk")
            stash.lock()
        }
        try Database(path: temp.path).execute(
            "UPDATE note SET body = (SELECT body FROM note WHERE title = 'Diary') WHERE title = 'Shopping'"
        )
        #expect(try temp.refusal()?.first?.contains("the note “Shopping” has a different text") == true)
        let stash = try temp.acceptDamage()
        let notes = try stash.context.fetch(StashModel.note, orderBy: "title")
        #expect(try stash.noteBody(of: notes[0]) == "private thoughts")
        #expect(throws: StashError.tampered(kind: "note", name: "Shopping", fields: ["text"])) {
            try stash.noteBody(of: notes[1])
        }
        #expect(try stash.objectIDs(of: .notes, matching: "thoughts") == [notes[0].objectID])
    }

    @Test func associatedDataCannotBeForgedWithSeparatorsInANameOrUID() {
        let a = SealedField.password.associatedData(uid: "u", name: "x 8:password 1:n", revision: 1)
        let b = SealedField.password.associatedData(uid: "u 8:password 1:x", name: "n", revision: 1)
        #expect(a != b)
        #expect(
            SealedField.password.associatedData(uid: "u", name: "n", revision: 1)
                != SealedField.userID.associatedData(uid: "u", name: "n", revision: 1)
        )
        #expect(
            SealedField.body.associatedData(uid: "u", name: "n", revision: 1)
                != SealedField.notes.associatedData(uid: "u", name: "n", revision: 1)
        )
    }
}

/// Only titles and names are plaintext at rest; first-version
/// stashes are re-sealed on their first unlock, in one transaction.
@Suite struct SealedAtRestTests {
    @Test func theStoreAndItsWALHoldNoSecretButTheNames() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open(passphrase: "master-passphrase-42")
        let marker = UUID().uuidString
        let secrets = [
            "Pw-\(marker)", "User-\(marker)", "https://url-\(marker).example", "Notes-\(marker)",
            "JBSWY3DPEHPK3PXP\(marker.prefix(4))", "Body-\(marker)", "Old-\(marker)",
        ]
        try stash.addPassword(
            PasswordEntry(
                name: "Site-\(marker)",
                userID: secrets[1],
                password: secrets[6],
                url: secrets[2],
                notes: secrets[3],
                totp: secrets[4]
            )
        )
        try stash.addNote(title: "Title-\(marker)", body: secrets[5])
        let object = try #require(try stash.context.fetch(StashModel.password).first)
        var entry = try stash.entry(for: object)
        entry.password = secrets[0]
        try stash.updatePassword(object, with: entry)  // the old password goes into the (sealed) history
        #expect(try stash.entry(for: object).history.items.map(\.password) == [secrets[6]])
        let files = temp.fileBytes()
        #expect(files["-wal"] != nil, "the test means to search the WAL as well")
        for (suffix, data) in files {
            for secret in secrets + ["master-passphrase-42"] {
                #expect(
                    !data.containsBytes(Array(secret.utf8)),
                    "\(secret) found in \(suffix.isEmpty ? "the store" : suffix)"
                )
            }
        }
        let all = files.values.reduce(Data(), +)
        #expect(all.containsBytes(Array("Site-\(marker)".utf8)))
        #expect(all.containsBytes(Array("Title-\(marker)".utf8)))
    }

    @Test func aFirstVersionStashIsResealedOnItsFirstUnlock() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let passwords = [
            PasswordEntry(
                name: "bankA",
                userID: "V1UserAlice",
                password: "V1SecretAlpha",
                url: "https://v1url-a.example",
                notes: "V1NotesPin 1234"
            ),
            PasswordEntry(name: "bankB", userID: "V1UserBob", password: "V1SecretBeta"),
        ]
        try FirstVersionStash.make(
            at: temp.path,
            passphrase: "fixture passphrase",
            notes: [("Groceries", "V1NoteBody milk and eggs"), ("Empty", "")],
            passwords: passwords
        )
        let plaintexts = ["V1UserAlice", "https://v1url-a.example", "V1NotesPin", "V1UserBob", "V1NoteBody"]
        #expect(temp.fileBytes()[""]!.containsBytes(Array("V1UserAlice".utf8)), "the fixture is version 1")

        // Opening migrates the schema only; the names are listed without a passphrase.
        do {
            let stash = try Stash(path: temp.path)
            #expect(try stash.names(of: .passwords) == ["bankA", "bankB"])
            #expect(throws: VaultError.wrongPassphrase) { try stash.unlock(passphrase: SecureBytes(utf8: "wrong")) }
        }
        let stash = try temp.open(passphrase: "fixture passphrase")
        let objects = try stash.context.fetch(StashModel.password, orderBy: "name")
        #expect(try objects.map { try stash.entry(for: $0) } == passwords)
        let notes = try stash.context.fetch(StashModel.note, orderBy: "title")
        #expect(try notes.map { try stash.noteBody(of: $0) } == ["", "V1NoteBody milk and eggs"])
        for (suffix, data) in temp.fileBytes() {
            for text in plaintexts {
                #expect(
                    !data.containsBytes(Array(text.utf8)),
                    "\(text) still in \(suffix.isEmpty ? "the store" : suffix)"
                )
            }
        }
        let sealing = try stash.store.database.scalar("SELECT sealing FROM vault_info")
        #expect(sealing == .integer(3))
        // One transaction: every row changed in it, none left behind in plaintext.
        #expect(
            try stash.store.database.scalar(
                "SELECT count(*) FROM password WHERE typeof(user_id) != 'blob' OR typeof(url) != 'blob'"
            ) == .integer(0)
        )
        stash.lock()
        // The next unlock has nothing to do and everything still opens.
        let again = try temp.open(passphrase: "fixture passphrase")
        #expect(
            try again.revealPassword(of: try again.context.fetch(StashModel.password, orderBy: "name")[1])
                == "V1SecretBeta"
        )
    }

    @Test func aDamagedFirstVersionPasswordStaysUnreadableAndTheRestMigrates() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try FirstVersionStash.make(
            at: temp.path,
            passphrase: "p",
            notes: [],
            passwords: [
                PasswordEntry(name: "A", userID: "ua", password: "pa"),
                PasswordEntry(name: "B", userID: "ub", password: "pb"),
            ]
        )
        try Database(path: temp.path).execute("UPDATE password SET password = zeroblob(48) WHERE name = 'A'")
        let stash = try temp.open(passphrase: "p")
        let objects = try stash.context.fetch(StashModel.password, orderBy: "name")
        let reading = try stash.read(objects[0])
        #expect(reading.unreadable == [.password])
        #expect(reading.entry.userID == "ua")
        #expect(try stash.entry(for: objects[1]).password == "pb")
    }
}

/// Saving an entry whose password cannot be decrypted keeps the old
/// ciphertext unless a new password was typed.
@Suite struct UnreadableFieldTests {
    @Test func fixingTheURLOfAnEntryWithADamagedPasswordKeepsTheOldCiphertext() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try temp.open().addPassword(PasswordEntry(name: "Bank", userID: "me", password: "pw", url: "http://wrong"))
        // One byte of the sealed password flipped on disk.
        try Database(path: temp.path).execute(
            flippingOneByte(of: "password")
        )
        let stash = try temp.acceptDamage()
        let object = try #require(try stash.context.fetch(StashModel.password).first)
        let damaged = try stash.store.database.scalar("SELECT password FROM password")
        let reading = try stash.read(object)
        #expect(reading.unreadable == [.password])
        var entry = reading.entry
        entry.url = "https://right.example"
        let update = try stash.updatePassword(object, with: entry)
        #expect(update == EntryUpdate(changed: true, keptUnreadable: [.password]))
        #expect(try stash.store.database.scalar("SELECT password FROM password") == damaged)
        #expect(try stash.read(object).entry.url == "https://right.example")
        // A newly typed password replaces it.
        entry.password = "new-pw"
        #expect(try stash.updatePassword(object, with: entry).keptUnreadable == [])
        #expect(try stash.revealPassword(of: object) == "new-pw")
    }
}

/// `mystash list` keeps working on a first-version stash (it needs no passphrase).
@Suite struct FirstVersionListTests {
    @Test(.enabled(if: EndToEnd.binary != nil, "needs the built mystash"))
    func listPrintsTheNamesOfAFirstVersionStash() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try FirstVersionStash.make(
            at: temp.path,
            passphrase: "p",
            notes: [("Groceries", "milk")],
            passwords: [PasswordEntry(name: "bankA", userID: "ua", password: "pa")]
        )
        let result = try ProcessRunner.runDetaching(EndToEnd.binary!, ["list", "passwords", "--db", temp.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "bankA\n")
    }
}
