import Foundation
import SQLiteStore
import Testing

@testable import MyStashKit

/// The manifest cannot be gone around with a second row of an entry: an older revision put
/// back (from a backup) beside the current one, under the same uid, with its unique index
/// dropped. Duplicate uids, a row count other than the manifest's and a missing unique index
/// are each refused at unlock, and no save writes a manifest over them.
@Suite struct DuplicateEntryTests {
    private func sqlite(_ temp: TemporaryStash, _ sql: String) throws {
        try Database(path: temp.path).execute(sql)
    }

    /// A stash with Bank at revision 2 (password "new-pw") whose revision-1 row (password
    /// "old-pw") was saved aside, as a backup holds it: returns that row's SQL values.
    private func bankWithAnOlderRevisionAside(_ temp: TemporaryStash) throws -> String {
        let stash = try temp.open()
        let bank = try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "old-pw"))
        try stash.addPassword(PasswordEntry(name: "Mail", userID: "me", password: "mail-pw"))
        let columns = "uid, name, user_id, password, url, notes, totp, history, modified, revision"
        let old = try stash.store.database.query(
            "SELECT quote(\(columns.replacingOccurrences(of: ", ", with: "), quote("))) FROM password WHERE name = 'Bank'"
        )[0]
        .map { $0.string ?? "NULL" }.joined(separator: ", ")
        try stash.updatePassword(bank, with: PasswordEntry(name: "Bank", userID: "me", password: "new-pw"))
        stash.lock()
        _ = try stash.store.database.query("PRAGMA wal_checkpoint(TRUNCATE)")
        return "INSERT INTO password (id, \(columns)) VALUES (-1, \(old))"
    }

    @Test func anOlderRevisionPutBackBesideTheEntryUnderItsUIDIsRefused() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let insertOld = try bankWithAnOlderRevisionAside(temp)
        try sqlite(temp, "DROP INDEX password_unique_uid; " + insertOld)
        let findings = try #require(try temp.refusal(), "the stash unlocked with two rows of Bank")
        #expect(findings.contains("the unique index on the password entries' uid is missing (dropped?)"), "\(findings)")
        // With the index put back as a plain one (the name alone), the duplicate and the count still tell.
        try sqlite(temp, "CREATE INDEX password_unique_uid ON password(uid)")
        let again = try #require(try temp.refusal())
        #expect(again.contains("the unique index on the password entries' uid is missing (dropped?)"), "\(again)")
    }

    @Test func duplicateUIDsAreNamedAndAnAddedRowIsCounted() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let insertOld = try bankWithAnOlderRevisionAside(temp)
        // Reading the rows finds the two, whatever the indexes say.
        try sqlite(temp, "DROP INDEX password_unique_uid; " + insertOld)
        let stash = try Stash(path: temp.path)
        #expect(
            throws: StashError.changedBehindTheAppsBack([
                "the password entry “Bank” is in the stash 2 times (one uid, several rows: an older copy put back beside it?)"
            ])
        ) { try StashManifest.read(from: stash.store.database) }
        // The stash as it was, and then a row planted under a uid of its own.
        try sqlite(temp, "DELETE FROM password WHERE id = -1; CREATE UNIQUE INDEX password_unique_uid ON password(uid)")
        #expect(try temp.refusal() == nil, "the stash as it was unlocks again")
        try sqlite(
            temp,
            "INSERT INTO password (uid, name, user_id, password, modified, revision) VALUES ('x', 'Planted', NULL, NULL, '2024-01-01', 1)"
        )
        #expect(try temp.refusal() == ["a password entry “Planted” was added"])
    }

    @Test func noWriteBlessesADuplicateNotEvenPasswdSkippingDamaged() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let insertOld = try bankWithAnOlderRevisionAside(temp)
        try sqlite(temp, "DROP INDEX password_unique_uid; " + insertOld)
        let stash = try Stash(path: temp.path)
        let findings = try stash.unlock(passphrase: SecureBytes(utf8: "correct horse"), toleratingChanges: true)
        #expect(!findings.isEmpty)
        #expect(throws: StashError.self) {
            try stash.changePassphrase(
                to: SecureBytes(utf8: "correct horse"),
                parameters: .minimum,
                skippingDamaged: true
            )
        }
        #expect(throws: StashError.self) { try stash.addNote(title: "x", body: "y") }
        stash.lock()
        #expect(try temp.refusal() != nil, "still refused: nothing wrote a manifest over the two rows")
        #expect(
            try Database(path: temp.path).scalar("SELECT count(*) FROM password WHERE name = 'Bank'") == .integer(2)
        )
    }
}
