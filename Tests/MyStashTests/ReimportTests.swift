import Foundation
import Testing

@testable import MyStashKit

/// An import matches its items against an index of the stash made once (`ImportIndex`): the
/// same entries as the lookups it replaced, so a re-import of an export the stash holds finds
/// every entry unchanged. (Its speed is a benchmark row, `bench --only stash`, not a test.)
@Suite struct ReimportTests {
    @Test func reimportingTheStashsOwnExportFindsEveryEntryUnchanged() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        var items: [ImportedItem] = []
        for i in 0..<300 {
            items.append(.password(PasswordEntry(name: "site \(i % 100)", userID: "user\(i)", password: "pw\(i)")))
        }
        items.append(.note(title: "Plans", body: "none"))
        #expect(try stash.importItems(items) == ImportSummary(added: 301, updated: 0, unchanged: 0))
        #expect(try stash.importItems(items) == ImportSummary(added: 0, updated: 0, unchanged: 301))
        let file = temp.directory.appendingPathComponent("export.csv").path
        try Stash.writePrivateFile(try stash.exportCSV(), to: file)
        var reader = try PasswordExportReader(path: file, format: nil)
        #expect(try stash.importItems(reader.items()) == ImportSummary(added: 0, updated: 0, unchanged: 301))
        #expect(try temp.refusal() == nil)
    }

    @Test func itemsMatchByNameAndUserIDByteForByteAndUpdateTheOldestEntry() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        try stash.addPassword(PasswordEntry(name: "Caf\u{E9}", userID: "me", password: "precomposed"))
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "first"))
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "second"))
        try stash.addNote(title: "Plans", body: "old")
        let summary = try stash.importItems([
            .password(PasswordEntry(name: "Cafe\u{301}", userID: "me", password: "decomposed")),
            .password(PasswordEntry(name: "Bank", userID: "me", password: "third")),
            .password(PasswordEntry(name: "Bank", userID: "you", password: "yours")),
            .note(title: "Plans", body: "new"),
        ])
        #expect(summary == ImportSummary(added: 2, updated: 2, unchanged: 0))
        let banks = try stash.passwordObjects(named: "Bank").map { try stash.entry(for: $0).password }
        #expect(banks == ["third", "second", "yours"], "the oldest Bank of user me was updated")
        #expect(try stash.passwordObjects(named: "Caf\u{E9}").count == 1, "a decomposed é is another name, as in SQL")
        #expect(try stash.fieldValue(.notes, ofEntryNamed: "Plans", user: nil, at: Date()) == "new")
    }
}
