import Foundation
import SQLiteStore
import TerminalUI
import Testing
@testable import MyStashKit

/// A clipboard that records what it was given.
final class RecordingClipboard: Clipboard {
    private(set) var copied: [String] = []
    private(set) var cleared: [String] = []
    func copy(_ text: String) { copied.append(text) }
    func clear(ifStillHolding text: String) { cleared.append(text) }
}

/// `c`, `C` and `t` copy without showing; the status line counts down to the clearing.
@Suite struct ClipboardTests {
    @Test func copyingThePasswordCountsDownAndClears() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me@example.com", password: "copy-Secret-77",
                                            totp: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"))
        let clipboard = RecordingClipboard()
        let clock = TestClock(now: 100)
        let app = try StashApp(stash: stash, screen: MemoryScreen(width: 80, height: 24), clock: clock, animated: false,
                               lockAfter: 0, clipboard: clipboard, clipSeconds: 45)
        app.send(.tab)
        app.send(.character("c"))
        app.loop.draw()
        #expect(clipboard.copied == ["copy-Secret-77"])
        #expect(app.screenText.contains("Copied the password of “Bank” — cleared in 45 s"), "\(app.screenText)")
        #expect(!app.screenText.contains("copy-Secret-77"))
        clock.advance(by: 10.2)
        app.browser.updateClipboardStatus(at: clock.now)
        app.loop.draw()
        #expect(app.screenText.contains("cleared in 35 s"))
        app.send(.character("C"))
        #expect(clipboard.copied.last == "me@example.com")
        app.send(.character("t"))
        #expect(clipboard.copied.last?.count == 6)
        clock.advance(by: 45)
        app.browser.updateClipboardStatus(at: clock.now)
        app.loop.draw()
        #expect(clipboard.cleared == [clipboard.copied.last!])
        #expect(app.screenText.contains("Clipboard cleared"))
    }
}

/// `mystash copy` through a system tool (a stand-in `xclip`) and its background clearer.
@Suite(.enabled(if: EndToEnd.binary != nil, "needs the built mystash (swift build)"))
struct CopyCommandTests {
    @Test func copyPutsTheFieldOnTheClipboardAndTheClearerEmptiesIt() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open(passphrase: "copy pass")
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "cli-copy-secret"))
        stash.lock()
        let bin = temp.directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let state = temp.directory.appendingPathComponent("clipboard.txt").path
        let xclip = bin.appendingPathComponent("xclip").path
        try """
            #!/bin/sh
            case "$*" in *-out*) cat \(EndToEnd.shellQuote(state)) 2>/dev/null ;; *) cat > \(EndToEnd.shellQuote(state)) ;; esac

            """.write(toFile: xclip, atomically: true, encoding: .utf8)
        chmod(xclip, 0o755)
        let environment = ["DISPLAY": ":99", "WAYLAND_DISPLAY": "", "PATH": bin.path + ":/usr/bin:/bin"]
        let result = try ScriptRun.run(["copy", "Bank", "--clip-seconds", "1", "--db", temp.path, "--passphrase-fd", "3"],
                                       fd3: "copy pass\n", extraEnvironment: environment)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "")
        #expect(result.error.contains("Copied the password of “Bank” — cleared in 1 s"))
        #expect(try String(contentsOfFile: state, encoding: .utf8) == "cli-copy-secret")
        // The background clearer empties it (poll with a generous deadline).
        let deadline = Date().addingTimeInterval(30)
        var content = "cli-copy-secret"
        while Date() < deadline {
            content = (try? String(contentsOfFile: state, encoding: .utf8)) ?? ""
            if content.isEmpty { break }
            usleep(50_000)
        }
        #expect(content.isEmpty)
    }
}

/// `c` in a real terminal: tmux (`set-clipboard on`) takes the OSC 52 sequence into its buffer.
@Suite(.serialized) struct ClipboardEndToEndTests {
    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func copyReachesTmuxThroughOSC52AndTheStatusCountsDown() throws {
        let session = try StashSession()
        defer { session.remove() }
        let stash = try Stash(path: session.database)
        try stash.setUp(passphrase: SecureBytes(utf8: "clip pass"), parameters: .minimum)
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "osc52-Secret-5"))
        stash.lock()
        let (pane, _) = try session.launch(["--no-animation", "--clip-seconds", "30"])
        defer { pane.close() }
        _ = try? EndToEnd.run(pane.tmux, ["-L", pane.socket, "set-option", "-g", "set-clipboard", "on"])
        try pane.waitFor("Master passphrase:")
        pane.type("clip pass"); pane.press("Enter")
        try pane.waitFor("No notes yet")   // the app has the terminal: keys reach it now
        pane.press("Tab")
        try pane.waitFor("Bank")
        pane.type("c")
        let screen = try pane.waitFor("Copied the password of “Bank” — cleared in")
        #expect(!screen.contains("osc52-Secret-5"))
        let deadline = Date().addingTimeInterval(10)
        var buffer = ""
        while Date() < deadline {
            buffer = (try? EndToEnd.run(pane.tmux, ["-L", pane.socket, "show-buffer"]).output) ?? ""
            if buffer == "osc52-Secret-5" { break }
            usleep(50_000)
        }
        #expect(buffer == "osc52-Secret-5")
        // The countdown moves on.
        try pane.waitUntil("the countdown") { screen in
            (20...28).contains { screen.contains("cleared in \($0) s") }
        }
    }
}
