import Foundation
import Testing

@testable import MyStashKit

/// `mystash` in a real terminal (tmux): the whole life of a stash.
///
/// Needs the built executable (`swift build`; found beside the test bundle by
/// `BuiltProgram`, or `$MYSTASH_BIN`) and tmux; skipped with
/// a message otherwise. Uses `MYSTASH_KDF=min` (Argon2id's minimum cost, for
/// tests only) and a store in a temporary directory.
@Suite(.serialized) struct MyStashEndToEndTests {
    static let passphrase = "e2e pass phrase"
    static let secret = "pw-e2e-Secret-9"

    /// A stash set up with ``passphrase`` (fast key derivation) holding `passwords` (name, secret), locked again.
    static func makeStash(at path: String, passwords: [(String, String)]) throws {
        let stash = try Stash(path: path)
        try stash.setUp(passphrase: SecureBytes(utf8: passphrase), parameters: .minimum)
        for (name, secret) in passwords { try stash.addPassword(PasswordEntry(name: name, password: secret)) }
        stash.lock()
    }

    /// Lines of the list area (below the tab bar, above the status line).
    private func listLines(_ screen: String) -> [String] {
        var lines = screen.components(separatedBy: "\n")
        while lines.last == "" { lines.removeLast() }  // capture-pane ends with a newline
        guard lines.count > 3 else { return [] }
        return Array(lines[2..<(lines.count - 1)])
    }

    private func row(_ screen: String, _ text: String) -> Int? {
        listLines(screen).firstIndex { $0.contains(text) }
    }

    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func fullLifeOfAStash() throws {
        let session = try StashSession()
        defer { session.remove() }

        // First run: the passphrase is set (asked twice; a mismatch asks again).
        let (pane, run) = try session.launch()
        defer { pane.close() }
        try pane.waitFor("New master passphrase:")
        pane.type(Self.passphrase)
        pane.press("Enter")
        try pane.waitFor("Repeat the passphrase:")
        pane.type("something else")
        pane.press("Enter")
        try pane.waitFor("do not match")
        try pane.waitUntil("the second prompt") { $0.components(separatedBy: "New master passphrase:").count == 3 }
        pane.type(Self.passphrase)
        pane.press("Enter")
        try pane.waitUntil("the repeat prompt again") {
            $0.components(separatedBy: "Repeat the passphrase:").count == 3
        }
        pane.type(Self.passphrase)
        pane.press("Enter")
        try pane.waitFor("No notes yet")
        #expect(!pane.capture().contains(Self.passphrase))

        // Two notes and a password.
        pane.type("a")
        try pane.waitFor("New Note")
        pane.type("Apple crumble")
        pane.press("Tab")
        pane.type("butter, flour")
        pane.press("C-s")
        try pane.waitFor("Added “Apple crumble”")
        pane.type("a")
        try pane.waitFor("New Note")
        pane.type("Banana bread")
        pane.press("C-s")
        try pane.waitFor("Added “Banana bread”")
        pane.press("Tab")
        try pane.waitFor("No passwords yet")
        pane.type("a")
        try pane.waitFor("New Password")
        pane.type("Bank")
        pane.press("Tab")
        pane.type("me@example.com")
        pane.press("Tab")
        pane.type(Self.secret)
        let masked = try pane.waitFor(String(repeating: "•", count: Self.secret.count))
        #expect(!masked.contains(Self.secret))
        pane.press("C-s")
        let passwords = try pane.waitUntil("the new password row") { screen in
            screen.contains("Added “Bank”") && self.listLines(screen).contains { $0.contains("me@example.com") }
        }
        #expect(!passwords.contains(Self.secret))

        // Rename a note so it moves from the A section to a new Z section.
        pane.press("Tab")
        var screen = try pane.waitUntil("both notes") { $0.contains("Apple crumble") && $0.contains("Banana bread") }
        #expect(row(screen, "A ─") != nil && row(screen, "B ─") != nil)
        pane.type("g")
        pane.type("e")
        try pane.waitFor("Edit Note")
        pane.press("C-u")
        pane.type("Zesty crumble")
        pane.press("C-s")
        screen = try pane.waitUntil("the renamed note in its Z section") { screen in
            guard let b = self.row(screen, "Banana bread"), let z = self.row(screen, "Z ─"),
                let zesty = self.row(screen, "Zesty crumble")
            else { return false }
            return b < z && z < zesty && self.row(screen, "A ─") == nil && !screen.contains("Apple crumble")
        }
        #expect(screen.contains("Saved “Zesty crumble”"))

        // Delete with the inline button, then undo.
        pane.type("g")
        pane.type("d")
        try pane.waitUntil("the inline Delete button") { screen in
            self.listLines(screen).contains { $0.contains("Banana bread") && $0.contains("Delete") }
        }
        pane.press("Enter")
        try pane.waitUntil("Banana bread gone") {
            self.row($0, "Banana bread") == nil && $0.contains("Deleted “Banana bread”")
        }
        pane.type("u")
        try pane.waitUntil("Banana bread back") { self.row($0, "Banana bread") != nil && $0.contains("Undone") }

        // Quit: status 0, the terminal given back as it was.
        pane.type("q")
        #expect(session.exitStatus(of: run) == 0)
        let stty = session.file("stty-\(run).txt")
        #expect(stty.contains(" echo ") || stty.contains(" echo\n"), "\(stty)")
        #expect(stty.contains(" icanon"), "\(stty)")
        #expect(stty.contains(" ixon"), "flow control restored: \(stty)")
        pane.close()

        // At rest: mode 0600, no plaintext password, no passphrase.
        #expect(StashLocation.permissions(ofFile: session.database) == 0o600)
        for (suffix, data) in session.storeBytes() {
            #expect(data.range(of: Data(Self.secret.utf8)) == nil, "password found in store\(suffix)")
            #expect(data.range(of: Data(Self.passphrase.utf8)) == nil, "passphrase found in store\(suffix)")
            #expect(StashLocation.permissions(ofFile: session.database + suffix) == 0o600)
        }

        // Scripts: names only, no passphrase needed.
        let notes = try session.list("notes")
        #expect(notes.status == 0 && notes.standardOutput == "Banana bread\nZesty crumble\n")
        let names = try session.list("passwords")
        #expect(names.status == 0 && names.standardOutput == "Bank\n")
        #expect(!names.standardOutput.contains(Self.secret) && !names.standardOutput.contains("me@example.com"))

        // Second run: a wrong passphrase is refused, the right one opens everything.
        let (again, run2) = try session.launch()
        defer { again.close() }
        try again.waitFor("Master passphrase:")
        again.type("not the passphrase")
        again.press("Enter")
        try again.waitFor("Wrong passphrase; 2 tries left")
        again.type(Self.passphrase)
        again.press("Enter")
        screen = try again.waitUntil("the notes") { $0.contains("Banana bread") && $0.contains("Zesty crumble") }
        #expect(screen.contains("2 notes"))
        again.press("Tab")
        try again.waitFor("Bank")
        again.press("Enter")
        try again.waitFor("Edit Password")
        #expect(!again.capture().contains(Self.secret))
        again.press("C-r")
        try again.waitFor(Self.secret)  // decrypted with the key from the passphrase
        again.press("Escape")
        try again.waitUntil("the list again") { !$0.contains("Edit Password") && !$0.contains(Self.secret) }
        again.type("q")
        #expect(session.exitStatus(of: run2) == 0)
    }

    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func threeWrongPassphrasesAreRefusedAndTheStoreIsUntouched() throws {
        let session = try StashSession()
        defer { session.remove() }
        try Self.makeStash(at: session.database, passwords: [("Bank", Self.secret)])
        let before = session.storeBytes()
        let (pane, run) = try session.launch()
        defer { pane.close() }
        for attempt in 1...3 {
            try pane.waitUntil("prompt \(attempt)") {
                $0.components(separatedBy: "Master passphrase:").count == attempt + 1
            }
            pane.type("wrong \(attempt)")
            pane.press("Enter")
        }
        #expect(session.exitStatus(of: run) == 77)  // EX_NOPERM
        #expect(session.file("stderr-\(run).txt").contains("wrong passphrase 3 times"))
        #expect(pane.capture().contains("Wrong passphrase."))
        #expect(session.storeBytes() == before)
        let stty = session.file("stty-\(run).txt")
        #expect(stty.contains(" echo"), "echo restored after the prompt: \(stty)")
    }

    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func passwdChangesThePassphraseAndKeepsPasswordsReadable() throws {
        let session = try StashSession()
        defer { session.remove() }
        try Self.makeStash(at: session.database, passwords: [("Bank", Self.secret), ("Mail", "mail-secret")])
        let (pane, run) = try session.launch(subcommand: ["passwd"])
        defer { pane.close() }
        try pane.waitFor("Master passphrase:")
        pane.type(Self.passphrase)
        pane.press("Enter")
        try pane.waitFor("New master passphrase:")
        pane.type("brand new phrase")
        pane.press("Enter")
        try pane.waitFor("Repeat the passphrase:")
        pane.type("brand new phrase")
        pane.press("Enter")
        try pane.waitFor("Passphrase changed.")
        #expect(session.exitStatus(of: run) == 0)

        let stash = try Stash(path: session.database)
        #expect(throws: VaultError.wrongPassphrase) { try stash.unlock(passphrase: SecureBytes(utf8: Self.passphrase)) }
        try stash.unlock(passphrase: SecureBytes(utf8: "brand new phrase"))
        let secrets = try stash.context.fetch(StashModel.password, orderBy: "name").map {
            try stash.revealPassword(of: $0)
        }
        #expect(secrets == [Self.secret, "mail-secret"])
    }
}
