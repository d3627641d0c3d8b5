import Foundation
import TestSupport
import Testing

@testable import MyStashKit

/// Names, titles and values from a hostile export never reach a terminal or a pipe as escape
/// sequences: every line the commands print goes through the one control-character escaper.
@Suite(.serialized, .enabled(if: EndToEnd.binary != nil, "needs the built mystash (swift build)"))
struct EscapedOutputTests {
    static let passphrase = "escape pass"
    /// OSC 52 (sets the terminal's clipboard to "pwned"), BEL, then a screen clear.
    static let hostile = "evil\u{1B}]52;c;cHduZWQ=\u{07}x\u{1B}[2J"
    static let escaped = "evil\\u{1B}]52;c;cHduZWQ=\\u{7}x\\u{1B}[2J"

    private func makeStash(_ temp: TemporaryStash) throws {
        let stash = try temp.open(passphrase: Self.passphrase)
        try stash.addPassword(
            PasswordEntry(name: Self.hostile, userID: "me", password: "pw", url: "https://x.example/\u{1B}[2J")
        )
        try stash.addNote(title: "note\u{1B}]0;title\u{07}", body: "body")
        stash.lock()
    }

    @Test func listEscapesControlCharactersInNamesAndTitles() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try makeStash(temp)
        let passwords = try ScriptRun.run(["list", "passwords", "--db", temp.path])
        #expect(passwords.status == 0, "\(passwords.standardError)")
        #expect(passwords.standardOutput == Self.escaped + "\n")
        let notes = try ScriptRun.run(["list", "notes", "--db", temp.path])
        #expect(notes.standardOutput == "note\\u{1B}]0;title\\u{7}\n")
    }

    @Test func messagesNamingAnEntryEscapeItsName() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try makeStash(temp)
        let fd = ["--db", temp.path, "--passphrase-fd", "3"]
        let missing = try ScriptRun.run(["show", "gone\u{1B}[2J"] + fd, fd3: Self.passphrase + "\n")
        #expect(missing.status == 66)
        #expect(
            !missing.standardError.contains("\u{1B}") && missing.standardError.contains("gone\\u{1B}[2J"),
            "\(missing.standardError)"
        )
        let added = try ScriptRun.run(
            ["add", "new\u{1B}[2J", "--generate", "16"] + fd,
            fd3: Self.passphrase + "\n"
        )
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.standardError == "Added “new\\u{1B}[2J” with a generated 16-character password.\n")
        let usage = try ScriptRun.run(["show", "x", "--field", "pass\u{1B}[2J"] + fd, fd3: Self.passphrase + "\n")
        #expect(usage.status == 64)
        #expect(!usage.standardError.contains("\u{1B}"), "\(usage.standardError)")
    }

    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func onATerminalNeitherTheListNorAShownValueSetsTheClipboardOrClearsTheScreen() throws {
        let session = try StashSession()
        defer { session.remove() }
        let stash = try Stash(path: session.database)
        try stash.setUp(passphrase: SecureBytes(utf8: Self.passphrase), parameters: .minimum)
        try stash.addPassword(
            PasswordEntry(name: Self.hostile, password: "pw", url: "https://x.example/\u{1B}]52;c;cHduZWQ=\u{07}")
        )
        stash.lock()
        let (pane, run) = try session.launch(subcommand: ["list", "passwords"])
        defer { pane.close() }
        _ = try? ProcessRunner.runDetaching(pane.tmux, ["-L", pane.socket, "set-option", "-g", "set-clipboard", "on"])
        let screen = try pane.waitFor("EXITED")
        #expect(session.exitStatus(of: run) == 0)
        #expect(screen.contains(Self.escaped), "\(screen)")
        let buffers = try ProcessRunner.runDetaching(pane.tmux, ["-L", pane.socket, "list-buffers"]).standardOutput
        #expect(buffers.isEmpty, "a tmux buffer was set: \(buffers)")

        let (shown, showRun) = try session.launch(["--field", "url"], subcommand: ["show", Self.hostile])
        defer { shown.close() }
        _ = try? ProcessRunner.runDetaching(
            shown.tmux,
            ["-L", shown.socket, "set-option", "-g", "set-clipboard", "on"]
        )
        try shown.waitFor("Master passphrase:")
        shown.type(Self.passphrase)
        shown.press("Enter")
        let shownScreen = try shown.waitFor("EXITED")
        #expect(session.exitStatus(of: showRun) == 0, "\(session.file("stderr-\(showRun).txt"))")
        #expect(shownScreen.contains("https://x.example/\\u{1B}]52;c;cHduZWQ=\\u{7}"), "\(shownScreen)")
        #expect(shownScreen.contains("Master passphrase:"), "the screen was not cleared")
        let shownBuffers = try ProcessRunner.runDetaching(shown.tmux, ["-L", shown.socket, "list-buffers"])
            .standardOutput
        #expect(shownBuffers.isEmpty, "a tmux buffer was set: \(shownBuffers)")
    }

    @Test func toAPipeShowPrintsTheValueAsStored() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open(passphrase: Self.passphrase)
        try stash.addPassword(PasswordEntry(name: "Bank", password: "back\\slash"))
        stash.lock()
        let shown = try ScriptRun.run(
            ["show", "Bank", "--db", temp.path, "--passphrase-fd", "3"],
            fd3: Self.passphrase + "\n"
        )
        #expect(shown.standardOutput == "back\\slash\n")
    }
}
