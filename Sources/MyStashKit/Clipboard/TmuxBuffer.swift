import Foundation

/// Under tmux, where a copy goes instead of an OSC 52 sequence to the pane: a
/// paste buffer of its own name (`tmux load-buffer -b NAME -`), deleted by name
/// when the time is up (`tmux delete-buffer -b NAME`).
///
/// OSC 52 through tmux is no good for secrets: tmux keeps the text in an
/// automatic buffer that an empty OSC 52 does not remove, and a blind clear
/// would hit whatever the person copied meanwhile. A named buffer is removed
/// exactly, leaves the person's own buffers alone, and its removal is checked.
/// Nor is `load-buffer -w`: tmux then sends the text on to the outer terminal's
/// clipboard, where deleting the buffer never clears it. The outer terminal is
/// reached by `SystemClipboard` itself, at the tty of the client tmux names
/// (``clientTerminal()``), and cleared there again.
///
///     let buffer = TmuxBuffer(environment: ProcessInfo.processInfo.environment)   // nil outside tmux
///     buffer?.load("s3cret")
///     buffer?.delete(ifHolding: "s3cret")   // .deleted
struct TmuxBuffer {
    /// The `tmux` executable; it reaches the pane's server through `$TMUX`.
    let executable: String
    /// The buffer's name (`mystash-<pid>-<random>`), handed to the clipboard clearer.
    let name: String

    /// What deleting the buffer found.
    enum Deletion: Equatable {
        /// It held the text and is gone (checked).
        case deleted
        /// There was no such buffer (nothing of ours in tmux).
        case absent
        /// It holds something else, or would not go: left as it is.
        case kept
    }

    /// The buffer of this process under tmux (`$TMUX` set and `tmux` on `PATH`), named `name`
    /// (a new name when nil); nil elsewhere.
    init?(environment: [String: String], name: String? = nil) {
        guard environment["TMUX"].map({ !$0.isEmpty }) == true,
            let executable = TmuxBuffer.which("tmux", path: environment["PATH"] ?? "/usr/bin:/bin")
        else { return nil }
        self.executable = executable
        self.name = name ?? TmuxBuffer.newName()
    }

    /// `mystash-<pid>-<8 random hex digits>`.
    static func newName() -> String {
        let random = Sodium.randomBytes(4).map { String(format: "%02x", $0) }.joined()
        return "mystash-\(getpid())-\(random)"
    }

    /// Whether `text` could be a buffer name of ours (the clearer's argument is checked).
    static func isValidName(_ text: String) -> Bool {
        text.hasPrefix("mystash-") && text.count <= 64
            && text.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "-" || CharacterSet.alphanumerics.contains($0)) }
    }

    /// Puts `text` in the buffer (only: not on the outer terminal's clipboard); true when tmux took it.
    @discardableResult
    func load(_ text: String) -> Bool {
        ChildProcess.run([executable, "load-buffer", "-b", name, "-"], input: Array(text.utf8)) != nil
    }

    /// The tty of the client tmux would send a clipboard to (the one `load-buffer -w` would
    /// use), when its terminal takes OSC 52 (tmux's `clipboard` feature) and `set-clipboard` is
    /// not `off`; nil otherwise (no client attached, a terminal without it, the person's choice).
    func clientTerminal() -> String? {
        guard
            let setting = ChildProcess.run(
                [executable, "show-options", "-gv", "set-clipboard"],
                input: [],
                captureOutput: true
            ),
            String(decoding: setting, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) != "off",
            let found = ChildProcess.run(
                [executable, "display-message", "-p", "#{client_tty}\t#{client_termfeatures}"],
                input: [],
                captureOutput: true
            )
        else { return nil }
        let fields = String(decoding: found, as: UTF8.self).trimmingCharacters(in: .newlines)
            .split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 2, TmuxBuffer.isValidTerminalPath(fields[0]),
            fields[1].split(separator: ",").contains("clipboard")
        else { return nil }
        return fields[0]
    }

    /// Whether tmux holds a buffer newer than this one (tmux lists the newest first): the person
    /// copied in tmux since, which went to the outer terminal's clipboard too. False when this
    /// one is gone (nothing tells then; the secret's clearing comes first).
    func hasNewerBuffer() -> Bool {
        guard
            let listed = ChildProcess.run(
                [executable, "list-buffers", "-F", "#{buffer_name}"],
                input: [],
                captureOutput: true
            )
        else { return false }
        let names = String(decoding: listed, as: UTF8.self).split(separator: "\n")
        guard let ours = names.firstIndex(where: { $0 == name }) else { return false }
        return ours > 0
    }

    /// Whether `text` names a terminal device (`/dev/pts/N`, `/dev/ttyN`): the clearer's argument is checked.
    static func isValidTerminalPath(_ text: String) -> Bool {
        let rest: Substring
        if text.hasPrefix("/dev/pts/") {
            rest = text.dropFirst("/dev/pts/".count)
        } else if text.hasPrefix("/dev/tty") {
            rest = text.dropFirst("/dev/tty".count)
        } else {
            return false
        }
        return !rest.isEmpty && rest.count <= 8 && rest.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// The buffer's contents, nil when there is no such buffer.
    func contents() -> [UInt8]? {
        ChildProcess.run([executable, "show-buffer", "-b", name], input: [], captureOutput: true)
    }

    /// Deletes the buffer if it still holds `text`, and checks that it is gone.
    func delete(ifHolding text: String) -> Deletion {
        guard let held = contents() else { return .absent }
        guard held == Array(text.utf8) else { return .kept }
        _ = ChildProcess.run([executable, "delete-buffer", "-b", name], input: [])
        return contents() == nil ? .deleted : .kept
    }

    private static func which(_ name: String, path: String) -> String? {
        path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
