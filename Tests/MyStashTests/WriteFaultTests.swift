import FaultInjection
import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import MyStashKit

/// mystash's writes under every injected I/O failure (README: Reliability): adding an entry,
/// saving a note, deleting, undoing, importing, changing the passphrase (`passwd`) and
/// setting one up (`init`). A failure is reported, the stash unlocks afterwards (its manifest
/// agrees with its rows) and holds the old entries or the new ones exactly, and the same
/// action again completes. Sealed values carry fresh nonces, so what is compared is what the
/// stash holds once opened, not its bytes.
@Suite struct WriteFaultTests {
    static let passphrase = "correct horse"
    static let newPassphrase = "battery staple"

    /// A stash with two passwords and a note, locked.
    static func template() throws -> FileTemplate {
        try FileTemplate("stash.sqlite") { path in
            let stash = try Stash(path: path)
            try stash.setUp(passphrase: SecureBytes(utf8: passphrase), parameters: .minimum)
            try stash.addPassword(
                PasswordEntry(name: "Bank", userID: "me", password: "s3cret", url: "https://bank.example")
            )
            try stash.addPassword(PasswordEntry(name: "Mail", userID: "me@example.org", password: "hunter2"))
            try stash.addNote(title: "Groceries", body: "milk")
            stash.lock()
        }
    }

    /// What the stash at `path` holds, opened with either passphrase (a strict unlock: a
    /// manifest out of step with the rows fails it): which passphrase, every password entry's
    /// fields and every note, in order. "(no stash)" when there is none (no file, or no passphrase).
    static func contents(_ path: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else { return "(no stash)" }
        let stash = try Stash(path: path, readOnly: true)
        guard stash.hasPassphrase else { return "(no stash)" }
        defer { stash.lock() }
        var lines: [String] = []
        do {
            try stash.unlock(passphrase: SecureBytes(utf8: passphrase))
            lines.append("passphrase: old")
        } catch VaultError.wrongPassphrase {
            try stash.unlock(passphrase: SecureBytes(utf8: newPassphrase))
            lines.append("passphrase: new")
        }
        for object in try stash.context.fetch(StashModel.password, orderBy: "id") {
            let entry = try stash.entry(for: object)
            lines.append(
                [entry.name, entry.userID, entry.password, entry.url ?? "-", entry.notes ?? "-", entry.totp ?? "-"]
                    .joined(separator: " | ")
            )
        }
        for note in try stash.context.fetch(StashModel.note, orderBy: "id") {
            lines.append("note: \(note.string("title") ?? "") | \(try stash.noteBody(of: note))")
        }
        return lines.joined(separator: "\n")
    }

    /// The stash unlocked, as the app or a command has it.
    static func unlocked(_ path: String) throws -> Stash {
        let stash = try Stash(path: path)
        try stash.unlock(passphrase: SecureBytes(utf8: passphrase))
        return stash
    }

    func sweep(
        template: FileTemplate? = nil,
        open: @escaping (String) throws -> Stash = { try WriteFaultTests.unlocked($0) },
        _ operation: @escaping (Stash) throws -> Void
    ) throws {
        let outcome = try WriteUnderFaults<Stash>(
            template: try template ?? Self.template(),
            open: open,
            operation: operation,
            retry: operation,
            digest: Self.contents
        ).run()
        #expect(outcome.problems.isEmpty, "\(outcome)")
        #expect(outcome.summary.fired(.write) > 0 && outcome.failuresReported > 0, "\(outcome)")
    }

    @Test func addingAnEntryThatFailsAddsNothing() throws {
        try sweep { try $0.addPassword(PasswordEntry(name: "Shop", userID: "me", password: "pa55", notes: "loyalty")) }
    }

    @Test func savingANoteThatFailsKeepsTheOldOne() throws {
        try sweep { stash in
            let note = try #require(try stash.context.fetch(StashModel.note).first)
            try stash.updateNote(note, title: "Groceries", body: "milk, eggs, bread")
        }
    }

    @Test func aDeleteThatFailsDeletesNothing() throws {
        try sweep { stash in
            try stash.delete(try #require(try stash.context.fetch(StashModel.password, where: "name = 'Mail'").first))
        }
    }

    @Test func anUndoThatFailsRestoresNothingAndCanBeTriedAgain() throws {
        try sweep(
            open: { path in
                let stash = try WriteFaultTests.unlocked(path)
                try stash.delete(
                    try #require(try stash.context.fetch(StashModel.password, where: "name = 'Mail'").first)
                )
                return stash
            },
            { stash in _ = try stash.undo() }
        )
    }

    @Test func anImportThatFailsImportsNothing() throws {
        try sweep { stash in
            _ = try stash.importItems([
                .password(PasswordEntry(name: "Bank", userID: "me", password: "n3w")),
                .password(PasswordEntry(name: "Forum", userID: "nick", password: "x")),
                .note(title: "Ideas", body: "a tool"),
            ])
        }
    }

    @Test func aPassphraseChangeThatFailsKeepsTheOldPassphrase() throws {
        try sweep {
            try $0.changePassphrase(to: SecureBytes(utf8: WriteFaultTests.newPassphrase), parameters: .minimum)
        }
    }

    /// `init`: the stash is made and its passphrase set, or there is none (a file without a
    /// passphrase is no stash: `init` sets it up).
    @Test func aSetUpThatFailsLeavesNoStash() throws {
        try sweep(template: try FileTemplate.absent("stash.sqlite"), open: { try Stash(path: $0) }) { stash in
            try stash.setUp(passphrase: SecureBytes(utf8: WriteFaultTests.passphrase), parameters: .minimum)
        }
    }

    /// The app's forms on a full disk: the form stays open and says why in words, what was
    /// typed is still in it, and Ctrl-S again saves it (a retry closed the form and wrote
    /// nothing: the context believed the failed save made).
    @Test func aFormWhoseSaveFailsStaysOpenAndCtrlSAgainSavesIt() throws {
        FaultInjection.install()
        let h = try StashAppTests.Harness()
        h.addNote("Groceries", body: "milk")
        h.send(.home, .character("e"))
        h.send(.tab)
        h.type(", eggs")
        let (_, report) = FaultInjection.inject(Fault(.write, .diskFull, n: 1), under: h.temp.directory.path) {
            h.send(.control("s"))
        }
        #expect(report.fired)
        #expect(h.text.contains("Edit Note") && h.text.contains("Not saved: the disk is full"), "\(h.text)")
        #expect(
            try Self.contents(h.temp.path).contains("note: Groceries | milk\n")
                || Self.contents(h.temp.path).hasSuffix("note: Groceries | milk")
        )
        h.send(.control("s"))
        #expect(!h.text.contains("Edit Note"), "\(h.text)")
        #expect(try Self.contents(h.temp.path).hasSuffix("note: Groceries | milk, eggs"))

        h.send(.tab, .character("a"))
        h.type("Bank")
        h.send(.tab)
        h.type("me")
        h.send(.tab)
        h.type("hunter2-secret")
        h.send(.control("s"))
        h.send(.enter)
        h.send(.tab, .tab)
        h.send(.control("u"))
        h.type("correct-horse-battery")
        let (_, second) = FaultInjection.inject(Fault(.write, .ioError, n: 1), under: h.temp.directory.path) {
            h.send(.control("s"))
        }
        #expect(second.fired)
        #expect(
            h.text.contains("Edit Password") && h.text.contains("Not saved: the file could not be written ("),
            "\(h.text)"
        )
        h.send(.control("s"))
        #expect(!h.text.contains("Edit Password"), "\(h.text)")
        #expect(try Self.contents(h.temp.path).contains("Bank | me | correct-horse-battery"))
    }
}
