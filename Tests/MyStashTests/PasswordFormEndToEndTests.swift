import Foundation
import TestSupport
import Testing

@testable import MyStashKit

/// The password form in a real terminal (tmux): the strength estimate as keys
/// arrive, the question before a very weak password is saved, and Ctrl-X c
/// copying through OSC 52 into tmux's buffer with the countdown in the form.
@Suite(.serialized) struct PasswordFormEndToEndTests {
    static let passphrase = "form pass"

    /// A stash set up with ``passphrase`` holding `entries`, locked again.
    private func makeStash(_ session: StashSession, _ entries: [PasswordEntry] = []) throws {
        let stash = try Stash(path: session.database)
        try stash.setUp(passphrase: SecureBytes(utf8: Self.passphrase), parameters: .minimum)
        for entry in entries { try stash.addPassword(entry) }
        stash.lock()
    }

    /// Unlocks the app in `pane` and shows the Passwords tab (then waits for `shown`).
    private func unlockToPasswords(_ pane: TmuxSession, showing shown: String) throws {
        try pane.waitFor("Master passphrase:")
        pane.type(Self.passphrase)
        pane.press("Enter")
        try pane.waitFor("No notes yet")  // the app has the terminal: keys reach it now
        pane.press("Tab")
        try pane.waitFor(shown)
    }

    /// The strength word shown on the password's row of the form.
    private func strengthWord(_ screen: String) -> String? {
        guard
            let line = screen.components(separatedBy: "\n").first(where: {
                $0.contains("Password") && $0.contains("guesses)")
            })
        else { return nil }
        return ["very weak", "weak", "fair", "very strong", "strong"].first { line.contains("\($0) (about 10^") }
    }

    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func theStrengthWordFollowsTheTypingAndAVeryWeakPasswordIsAskedAbout() throws {
        let session = try StashSession()
        defer { session.remove() }
        try makeStash(session)
        let (pane, run) = try session.launch(["--no-animation"])
        defer { pane.close() }
        try unlockToPasswords(pane, showing: "No passwords yet")
        pane.type("a")
        try pane.waitFor("New Password")
        pane.type("Mail")
        pane.press("Tab")
        pane.type("me@mail.example")
        pane.press("Tab")
        let passwordField = try pane.waitUntil("no estimate for an empty password") {
            self.strengthWord($0) == nil && $0.contains("Ctrl-G generates one")
        }
        #expect(!passwordField.contains("guesses)"))
        pane.type("pass")
        try pane.waitUntil("“very weak” as the first keys arrive") { self.strengthWord($0) == "very weak" }
        pane.type("Qx7#-Lm9!vK2@wZ")  // (a leading "-" would be a tmux option)
        let strong = try pane.waitUntil("“very strong” once the rest has arrived") {
            self.strengthWord($0) == "very strong"
        }
        #expect(!strong.contains("passQx7"), "the password stays masked")
        // Back to a very weak one: saving asks first, and saves nothing yet.
        pane.press("C-u")
        try pane.waitUntil("the field emptied") { self.strengthWord($0) == nil }
        pane.type("password")
        try pane.waitUntil("“very weak” again") { self.strengthWord($0) == "very weak" }
        pane.press("C-s")
        try pane.waitFor("Ctrl-S again saves it anyway")
        #expect(pane.capture().contains("New Password"))
        #expect(try session.list("passwords").standardOutput == "")
        pane.press("C-s")
        try pane.waitUntil("the saved entry in the list") {
            $0.contains("Added “Mail”") && !$0.contains("New Password")
        }
        #expect(try session.list("passwords").standardOutput == "Mail\n")
        pane.type("q")
        #expect(session.exitStatus(of: run) == 0)
    }

    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func ctrlXCInTheFormReachesTmuxThroughOSC52AndTheFormCountsDown() throws {
        let session = try StashSession()
        defer { session.remove() }
        try makeStash(
            session,
            [PasswordEntry(name: "Bank", userID: "me@bank.example", password: "form-osc52-Secret-6")]
        )
        let (pane, _) = try session.launch(["--no-animation", "--clip-seconds", "30"])
        defer { pane.close() }
        _ = try? ProcessRunner.runDetaching(pane.tmux, ["-L", pane.socket, "set-option", "-g", "set-clipboard", "on"])
        try unlockToPasswords(pane, showing: "me@bank.example")
        pane.press("Enter")
        try pane.waitFor("Edit Password")
        pane.press("C-x")
        try pane.waitFor("Ctrl-X: copy c password")
        pane.type("c")
        let screen = try pane.waitFor("Copied the password of “Bank” — cleared in")
        #expect(screen.contains("Edit Password"), "still in the form")
        #expect(!screen.contains("form-osc52-Secret-6"))
        try waitForBuffer(pane, "form-osc52-Secret-6")
        try pane.waitUntil("the countdown in the form") { screen in
            screen.contains("Edit Password") && (20...28).contains { screen.contains("cleared in \($0) s") }
        }
        // The user ID, as the form holds it.
        pane.press("C-x")
        pane.type("C")
        try pane.waitFor("Copied the user ID of “Bank”")
        try waitForBuffer(pane, "me@bank.example")
        // Nothing was typed into the fields: Esc leaves without asking.
        pane.press("Escape")
        try pane.waitUntil("the list again") { !$0.contains("Edit Password") && $0.contains("Bank") }
    }

    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func afterClipSecondsTheFormSaysTheClipboardWasCleared() throws {
        let session = try StashSession()
        defer { session.remove() }
        try makeStash(session, [PasswordEntry(name: "Bank", userID: "me@bank.example", password: "short-lived-7")])
        let (pane, _) = try session.launch(["--no-animation", "--clip-seconds", "2"])
        defer { pane.close() }
        try unlockToPasswords(pane, showing: "me@bank.example")
        pane.press("Enter")
        try pane.waitFor("Edit Password")
        pane.press("C-x")
        pane.type("c")
        try pane.waitFor("Copied the password of “Bank” — cleared in")
        // tmux ignores OSC 52's empty payload, so the clearing is seen in the app's status line.
        try pane.waitUntil("the clearing") { $0.contains("Clipboard cleared") && $0.contains("Edit Password") }
    }

    /// Polls tmux's paste buffer (filled by OSC 52 with `set-clipboard on`) until it holds `text`.
    private func waitForBuffer(_ pane: TmuxSession, _ text: String) throws {
        let deadline = Date().addingTimeInterval(30)
        var buffer = ""
        while Date() < deadline {
            buffer =
                (try? ProcessRunner.runDetaching(pane.tmux, ["-L", pane.socket, "show-buffer"]).standardOutput) ?? ""
            if buffer == text { break }
            usleep(50_000)
        }
        #expect(buffer == text)
    }
}

/// `mystash export` on a terminal asks before writing the plaintext file (tmux).
@Suite(.serialized) struct ExportConfirmationEndToEndTests {
    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func exportAsksOnTheTerminalAndWritesOnlyAfterYes() throws {
        let session = try StashSession()
        defer { session.remove() }
        let stash = try Stash(path: session.database)
        try stash.setUp(passphrase: SecureBytes(utf8: "export pass"), parameters: .minimum)
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "exported-Secret-4"))
        stash.lock()
        let file = session.directory.appendingPathComponent("out.csv").path

        let (pane, run) = try session.launch(subcommand: ["export", file, "--format", "csv"])
        defer { pane.close() }
        try pane.waitUntil("the question") { screen in  // the long path wraps
            screen.replacingOccurrences(of: "\n", with: "").contains(
                "Write every password in plaintext to \(file)? [y/N]"
            )
        }
        pane.type("n")
        pane.press("Enter")
        #expect(session.exitStatus(of: run) == 77)
        #expect(session.file("stderr-\(run).txt").contains("nothing was exported"))
        #expect(!FileManager.default.fileExists(atPath: file))

        let (again, run2) = try session.launch(subcommand: ["export", file, "--format", "csv"])
        defer { again.close() }
        try again.waitFor("Write every password in plaintext")
        again.type("y")
        again.press("Enter")
        try again.waitFor("Master passphrase:")
        again.type("export pass")
        again.press("Enter")
        #expect(session.exitStatus(of: run2) == 0, "\(session.file("stderr-\(run2).txt"))")
        #expect(StashLocation.permissions(ofFile: file) == 0o600)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("exported-Secret-4"))
        #expect(!again.capture().contains("export pass"), "the passphrase is not echoed")
    }
}
