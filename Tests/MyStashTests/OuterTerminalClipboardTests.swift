import Foundation
import TestSupport
import Testing

@testable import MyStashKit

/// A tmux client attached from inside `script`: the pseudo-terminal plays the outer terminal,
/// and the typescript holds every byte that reached it — the OSC 52 sequences included.
final class RecordedTmuxClient {
    let pid: pid_t
    let typescript: String
    /// The write end of `script`'s stdin, held open and silent: at the end of its input `script`
    /// would type an end-of-file into the client, which tmux hands to the pane as a key.
    private let keyboard: Int32

    /// Attaches a client to `pane`'s session, as `TERM=xterm-256color` (tmux's `clipboard` feature).
    init(attachingTo pane: TmuxSession, typescript: String) throws {
        guard let script = ProcessRunner.which("script") else { throw EndToEndError("script is not installed") }
        self.typescript = typescript
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw EndToEndError("pipe failed") }
        keyboard = ends[1]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        ProcessRunner.closeInheritedDescriptors(&actions, from: 3)
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["TMUX"] = nil
        let attach = [pane.tmux, "-L", pane.socket, "attach-session", "-t", pane.target]
            .map(ProcessRunner.shellQuoted).joined(separator: " ")
        pid = try ProcessRunner.spawn(
            [script, "-q", "-f", "-c", attach, typescript],
            actions: &actions,
            environment: environment,
            newSession: true
        )
        Glibc.close(ends[0])
        let deadline = Date().addingTimeInterval(generousDeadline)
        while Date() < deadline {
            let clients = try? ProcessRunner.runDetaching(
                pane.tmux,
                ["-L", pane.socket, "list-clients", "-F", "#{client_tty}"]
            )
            if let clients, !clients.standardOutput.isEmpty { return }
            usleep(50_000)
        }
        close()
        throw EndToEndError("the tmux client did not attach")
    }

    /// Everything the outer terminal received so far.
    var received: String {
        String(decoding: FileManager.default.contents(atPath: typescript) ?? Data(), as: UTF8.self)
    }

    /// Waits until the terminal received `text`.
    func waitFor(_ text: String) -> Bool {
        let deadline = Date().addingTimeInterval(generousDeadline)
        while Date() < deadline {
            if received.contains(text) { return true }
            usleep(50_000)
        }
        return received.contains(text)
    }

    func close() {
        kill(pid, SIGTERM)
        _ = try? ProcessRunner.waitForExit(pid)
        Glibc.close(keyboard)
    }
}

/// Under tmux the copy's OSC 52 goes to the outer terminal (tmux's client) and is cleared
/// there again: `load-buffer -w` used to send it on while the clearer deleted only the tmux
/// buffer, so the system clipboard kept the password. The status line says where it cleared.
@Suite(.serialized) struct OuterTerminalClipboardTests {
    static let secret = "outer-Secret-7"
    static var setSequence: String { "\u{1B}]52;c;\(Data(secret.utf8).base64EncodedString())\u{07}" }
    static let clearSequence = "\u{1B}]52;c;\u{07}"

    private static func makeStash(_ session: StashSession) throws {
        let stash = try Stash(path: session.database)
        try stash.setUp(passphrase: SecureBytes(utf8: "tmux pass"), parameters: .minimum)
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: secret))
        stash.lock()
    }

    /// ``makeStash(_:)``'s stash opened by `mystash subcommand --clip-seconds 3 extra` in a pane
    /// whose outer terminal is recorded (``RecordedTmuxClient``), its passphrase typed.
    private static func launchWithOuterTerminal(
        _ session: StashSession,
        _ extra: [String] = [],
        subcommand: [String] = []
    ) throws -> (pane: TmuxSession, run: Int, client: RecordedTmuxClient) {
        try makeStash(session)
        let (pane, run) = try session.launch(extra + ["--clip-seconds", "3"], subcommand: subcommand)
        let client = try RecordedTmuxClient(
            attachingTo: pane,
            typescript: session.directory.appendingPathComponent("typescript").path
        )
        try pane.waitFor("Master passphrase:")
        pane.type("tmux pass")
        pane.press("Enter")
        return (pane, run, client)
    }

    @Test(
        .enabled(
            if: EndToEnd.unavailableReason == nil && ProcessRunner.which("script") != nil,
            "needs mystash, tmux, script"
        )
    )
    func theAppsCopyReachesTheOuterTerminalAndIsClearedThereWithTheStatusSayingWhere() throws {
        let session = try StashSession()
        defer { session.remove() }
        let (pane, _, client) = try Self.launchWithOuterTerminal(session, ["--no-animation"])
        defer { pane.close() }
        defer { client.close() }
        try pane.waitFor("No notes yet")
        pane.press("Tab")
        try pane.waitFor("Bank")
        pane.type("c")
        try pane.waitFor("Copied the password of “Bank”")
        #expect(client.waitFor(Self.setSequence), "the outer terminal never received the copy")
        try pane.waitFor("Clipboard: tmux buffer cleared; clear sent to terminal (unconfirmed)")
        #expect(client.waitFor(Self.clearSequence), "the outer terminal was never told to clear")
        let received = client.received
        let set = try #require(received.range(of: Self.setSequence))
        let cleared = try #require(received.range(of: Self.clearSequence, range: set.upperBound..<received.endIndex))
        #expect(set.upperBound <= cleared.lowerBound)
        #expect(!TmuxClipboardTests.buffers(pane).values.contains(Self.secret))
    }

    @Test(
        .enabled(
            if: EndToEnd.unavailableReason == nil && ProcessRunner.which("script") != nil,
            "needs mystash, tmux, script"
        )
    )
    func theCopyCommandsClearerClearsTheOuterTerminalToo() throws {
        let session = try StashSession()
        defer { session.remove() }
        let (pane, run, client) = try Self.launchWithOuterTerminal(session, subcommand: ["copy", "Bank"])
        defer { pane.close() }
        defer { client.close() }
        try pane.waitFor("EXITED")
        #expect(session.exitStatus(of: run) == 0, "\(session.file("stderr-\(run).txt"))")
        #expect(
            session.file("stderr-\(run).txt").contains("(through OSC 52: the terminal cannot confirm the clearing)"),
            "\(session.file("stderr-\(run).txt"))"
        )
        #expect(client.waitFor(Self.setSequence), "the outer terminal never received the copy")
        #expect(client.waitFor(Self.clearSequence), "the clearer never cleared the outer terminal")
        #expect(
            !TmuxClipboardTests.buffers(pane).values.contains(Self.secret),
            "deleted before the terminal was cleared"
        )
    }

    @Test(
        .enabled(
            if: EndToEnd.unavailableReason == nil && ProcessRunner.which("script") != nil,
            "needs mystash, tmux, script"
        )
    )
    func aCopyMadeInTmuxSinceLeavesTheOuterTerminalAlone() throws {
        let session = try StashSession()
        defer { session.remove() }
        let (pane, run, client) = try Self.launchWithOuterTerminal(session, subcommand: ["copy", "Bank"])
        defer { pane.close() }
        defer { client.close() }
        try pane.waitFor("EXITED")
        #expect(session.exitStatus(of: run) == 0, "\(session.file("stderr-\(run).txt"))")
        #expect(client.waitFor(Self.setSequence))
        let ours = try #require(TmuxClipboardTests.buffers(pane).first { $0.value == Self.secret }?.key)
        // The person copies in tmux meanwhile (with set-clipboard, that copy is the terminal's clipboard now).
        _ = try ProcessRunner.runDetaching(pane.tmux, ["-L", pane.socket, "set-buffer", "my own clip"])
        // The clearer (its buffer's name in its arguments) has done all it does once it has exited.
        let deadline = Date().addingTimeInterval(generousDeadline)
        while Self.processRuns(withArgument: ours), Date() < deadline { usleep(100_000) }
        #expect(!Self.processRuns(withArgument: ours), "the clearer did not finish")
        #expect(!TmuxClipboardTests.buffers(pane).values.contains(Self.secret), "the copy's buffer was deleted")
        #expect(TmuxClipboardTests.buffers(pane).values.contains("my own clip"))
        #expect(!client.received.contains(Self.clearSequence), "the person's own copy was cleared from the terminal")
    }

    /// Whether a process has `argument` among its arguments (`/proc/*/cmdline`).
    static func processRuns(withArgument argument: String) -> Bool {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return pids.contains { pid in
            guard pid.allSatisfy(\.isNumber), let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")
            else { return false }
            return line.split(separator: 0).contains { Data($0) == Data(argument.utf8) }
        }
    }

    @Test func thePlacesAreSaidOneByOneWhenTheyDiffer() {
        #expect(ClipboardClearing(outcomes: [.tmuxBuffer: .cleared]).message == "Clipboard cleared")
        #expect(
            ClipboardClearing(outcomes: [.tmuxBuffer: .cleared, .terminal: .sent]).message
                == "Clipboard: tmux buffer cleared; clear sent to terminal (unconfirmed)"
        )
        #expect(
            ClipboardClearing(outcomes: [.terminal: .replaced, .tmuxBuffer: .cleared, .tool: .cleared]).message
                == "Clipboard: tmux buffer cleared; terminal left alone (holds something else); system clipboard cleared"
        )
        #expect(TmuxBuffer.isValidTerminalPath("/dev/pts/12") && TmuxBuffer.isValidTerminalPath("/dev/tty3"))
        #expect(!TmuxBuffer.isValidTerminalPath("/etc/passwd") && !TmuxBuffer.isValidTerminalPath("/dev/pts/../x"))
    }
}
