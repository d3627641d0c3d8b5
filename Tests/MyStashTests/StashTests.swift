import Foundation
import SQLiteStore
import Testing

@testable import MyStashKit

/// The stash's rules over a real SQLite file: secrets at rest, passphrases, identities.
@Suite struct StashTests {
    @Test func storeFileAndItsCompanionsHaveMode0600() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        try stash.addNote(title: "First", body: "body")
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "pw"))
        #expect(StashLocation.permissions(ofFile: temp.path) == 0o600)
        for suffix in ["-wal", "-shm"] {
            if let mode = StashLocation.permissions(ofFile: temp.path + suffix) {
                #expect(mode == 0o600, "\(suffix) has mode \(String(mode, radix: 8))")
            }
        }
    }

    @Test func passwordsRoundTripThroughTheStore() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        do {
            let stash = try temp.open()
            try stash.addPassword(
                PasswordEntry(
                    name: "Bank",
                    userID: "me@example.com",
                    password: "s3cret ✓",
                    url: "https://bank.example",
                    notes: "pin in the drawer"
                )
            )
            try stash.addPassword(PasswordEntry(name: "mail", userID: "me", password: "other"))
            stash.lock()
        }
        let stash = try temp.open()
        let objects = try stash.context.fetch(StashModel.password, orderBy: "name COLLATE NOCASE")
        #expect(
            try objects.map { try stash.entry(for: $0) } == [
                PasswordEntry(
                    name: "Bank",
                    userID: "me@example.com",
                    password: "s3cret ✓",
                    url: "https://bank.example",
                    notes: "pin in the drawer"
                ),
                PasswordEntry(name: "mail", userID: "me", password: "other"),
            ]
        )
    }

    @Test func storeFileContainsNoPlaintextPassword() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open(passphrase: "master-passphrase-42")
        let secrets = (1...8).map { "PlainSecret-\($0)-\(UUID().uuidString)" }
        for (i, secret) in secrets.enumerated() {
            try stash.addPassword(PasswordEntry(name: "Site \(i)", userID: "user\(i)", password: secret))
        }
        // Edit one, so that old versions of a row are in the WAL too.
        let first = try stash.context.fetch(StashModel.password, orderBy: "id", limit: 1)[0]
        try stash.updatePassword(
            first,
            with: PasswordEntry(name: "Site 0", userID: "user0", password: "Replaced-\(secrets[0])")
        )
        let files = temp.fileBytes()
        #expect(files[""] != nil)
        #expect(files["-wal"] != nil, "the test means to search the WAL as well")
        for (suffix, data) in files {
            for secret in secrets + ["Replaced-\(secrets[0])", "master-passphrase-42"] {
                #expect(
                    !data.containsBytes(Array(secret.utf8)),
                    "\(secret) found in \(suffix.isEmpty ? "the store" : suffix)"
                )
            }
        }
        // The names, which are not secret, are found: the search itself works.
        let all = files.values.reduce(Data(), +)
        #expect(all.containsBytes(Array("Site 3".utf8)))
    }

    @Test func wrongPassphraseIsRefusedAndTheStoreIsUntouched() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        do {
            let stash = try temp.open(passphrase: "right")
            try stash.addPassword(PasswordEntry(name: "Bank", password: "pw"))
        }
        let stash = try Stash(path: temp.path)
        let before = temp.fileBytes()
        let rowsBefore = try stash.store.database.query(
            "SELECT id, salt, verifier, ops_limit, mem_limit, algorithm, changed FROM vault_info UNION ALL SELECT id, uid, name, user_id, password, url, notes FROM password"
        )
        #expect(throws: VaultError.wrongPassphrase) { try stash.unlock(passphrase: SecureBytes(utf8: "wrong")) }
        #expect(throws: VaultError.wrongPassphrase) { try stash.unlock(passphrase: SecureBytes(utf8: "")) }
        #expect(!stash.isUnlocked)
        #expect(throws: StashError.locked) {
            try stash.revealPassword(of: try stash.context.fetch(StashModel.password)[0])
        }
        #expect(temp.fileBytes() == before)
        #expect(
            try stash.store.database.query(
                "SELECT id, salt, verifier, ops_limit, mem_limit, algorithm, changed FROM vault_info UNION ALL SELECT id, uid, name, user_id, password, url, notes FROM password"
            ) == rowsBefore
        )
        try stash.unlock(passphrase: SecureBytes(utf8: "right"))
        #expect(try stash.revealPassword(of: try stash.context.fetch(StashModel.password)[0]) == "pw")
    }

    @Test func ciphertextMovedToAnotherRowFailsToOpen() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        let a = try stash.addPassword(PasswordEntry(name: "A", password: "alpha"))
        let b = try stash.addPassword(PasswordEntry(name: "B", password: "beta"))
        // What an attacker with write access to the file could do: copy A's sealed bytes into B.
        try stash.store.database.run(
            "UPDATE password SET password = (SELECT password FROM password WHERE id = ?) WHERE id = ?",
            [.integer(a.objectID.rowID), .integer(b.objectID.rowID)]
        )
        let moved = try stash.context.fetch(StashModel.password, where: "id = ?", [.integer(b.objectID.rowID)])[0]
        #expect(throws: StashError.tampered(kind: "password entry", name: "B", fields: ["password"])) {
            try stash.revealPassword(of: moved)
        }
        #expect(try stash.revealPassword(of: a) == "alpha")
    }

    @Test func passphraseChangeKeepsEveryPasswordReadableWithTheNewPassphraseOnly() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let secrets = ["one": "1-secret", "two": "2-secret", "three": "3-secret"]
        do {
            let stash = try temp.open(passphrase: "old passphrase")
            for (name, secret) in secrets { try stash.addPassword(PasswordEntry(name: name, password: secret)) }
            let saltBefore = try stash.storedHeader()?.salt
            try stash.changePassphrase(to: SecureBytes(utf8: "new passphrase"))
            #expect(try stash.storedHeader()?.salt != saltBefore)
            // Still usable in the same process, through the new context.
            for object in try stash.context.fetch(StashModel.password) {
                #expect(try stash.revealPassword(of: object) == secrets[object.string("name")!])
            }
        }
        let stash = try Stash(path: temp.path)
        #expect(throws: VaultError.wrongPassphrase) {
            try stash.unlock(passphrase: SecureBytes(utf8: "old passphrase"))
        }
        try stash.unlock(passphrase: SecureBytes(utf8: "new passphrase"))
        let objects = try stash.context.fetch(StashModel.password)
        #expect(objects.count == 3)
        for object in objects {
            #expect(try stash.revealPassword(of: object) == secrets[object.string("name")!])
        }
    }

    @Test func passphraseChangedByAnotherProcessIsNoticedBeforeSealing() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let first = try temp.open(passphrase: "p1")
        try first.addPassword(PasswordEntry(name: "A", password: "a"))
        let second = try temp.open(passphrase: "p1")
        try second.changePassphrase(to: SecureBytes(utf8: "p2"))
        #expect(throws: StashError.passphraseChangedElsewhere) {
            try first.addPassword(PasswordEntry(name: "B", password: "b"))
        }
        #expect(!first.isUnlocked)
        #expect(try second.names(of: .passwords) == ["A"])
    }

    @Test func deletedPasswordComesBackReadableAfterUndo() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        let object = try stash.addPassword(PasswordEntry(name: "Bank", password: "pw"))
        let id = object.objectID
        try stash.delete(object)
        #expect(try stash.names(of: .passwords).isEmpty)
        #expect(try stash.undo())
        let back = try #require(try stash.context.object(with: id))
        #expect(try stash.revealPassword(of: back) == "pw")
    }

    @Test func settingUpTwiceIsRefusedAndUndoNeverTouchesTheVault() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        #expect(throws: StashError.alreadyInitialized) {
            try stash.setUp(passphrase: SecureBytes(utf8: "x"), parameters: .minimum)
        }
        #expect(try stash.undo() == false)
        #expect(stash.hasPassphrase)
    }

    @Test func emptyTitleOrNameIsRefused() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        #expect(throws: StashError.emptyField(entity: "Note", key: "title")) {
            try stash.addNote(title: "  ", body: "x")
        }
        #expect(throws: StashError.emptyField(entity: "Password", key: "name")) {
            try stash.addPassword(PasswordEntry(name: "", password: "x"))
        }
        #expect(!stash.context.hasChanges)
    }

    @Test func namesAreListedCaseInsensitivelyWithoutSecrets() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        for title in ["banana", "Apple", "cherry", "apricot"] { try stash.addNote(title: title, body: "") }
        #expect(try stash.names(of: .notes) == ["Apple", "apricot", "banana", "cherry"])
        stash.lock()
        // Read-only, no passphrase.
        let reader = try Stash(path: temp.path, readOnly: true)
        #expect(try reader.names(of: .notes) == ["Apple", "apricot", "banana", "cherry"])
        #expect(throws: StashError.noStore(path: temp.path + "x")) { try Stash(path: temp.path + "x", readOnly: true) }
    }

    @Test func sectionInitialAgreesBetweenSQLAndSwift() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        let titles = [
            "apple", "Apple", "zebra", "Z", "ärger", "Éclair", "élan", "1password", " space", "_under", "[x]",
            "@home", "😀 smile", "ß", "ıi", "ǅ", "x\u{301}", "\u{301}x", "\u{0}nul", "a", "M", "~", "`", "{",
        ]
        let derived = try #require(
            StashModel.model.entity(named: StashModel.note)?.derivedAttribute(named: "titleInitial")
        )
        for title in titles {
            let sql = try stash.store.database.scalar(
                "SELECT \(derived.expression(alias: nil)) FROM (SELECT ? AS title)",
                [.text(title)]
            )
            #expect(sql.string == StashModel.initial(of: title), "title \(title.debugDescription)")
        }
        #expect(StashModel.initial(of: "apple") == "A")
        #expect(StashModel.initial(of: "ärger") == "#")
        #expect(StashModel.initial(of: "") == "#")
        #expect(StashModel.initial(of: nil) == "#")
        // Through the model as the controller reads it.
        let note = try stash.addNote(title: "quince", body: "")
        #expect(note["titleInitial"] == .text("Q"))
    }
}

@Suite struct StashFileTests {
    @Test func anotherApplicationsDatabaseIsRefusedAndLeftAlone() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let db = try Database(path: temp.path)
        try db.execute("CREATE TABLE bank(id INTEGER PRIMARY KEY, name TEXT); PRAGMA application_id = 42;")
        chmod(temp.path, 0o644)
        let before = try Data(contentsOf: URL(fileURLWithPath: temp.path))
        #expect(throws: (any Error).self) { try Stash(path: temp.path) }
        #expect(StashLocation.permissions(ofFile: temp.path) == 0o644)
        #expect(try Data(contentsOf: URL(fileURLWithPath: temp.path)) == before)
    }

    @Test func namesAreListedInTheAppsOrderWithNonLettersFirst() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        for title in ["banana", "élan", "Apple", "_under", "42"] { try stash.addNote(title: title, body: "") }
        #expect(try stash.names(of: .notes) == ["42", "_under", "élan", "Apple", "banana"])
    }
}
