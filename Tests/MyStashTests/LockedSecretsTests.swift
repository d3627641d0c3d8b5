import Foundation
import TerminalUI
import TestSupport
import Testing

@testable import MyStashKit

#if canImport(Glibc)
import Glibc
#endif

/// While locked no open form holds plaintext, and unlocking gives the person their form back as they left it.
@Suite struct LockedFormTests {
    @Test func lockingEmptiesEveryOpenFormAndUnlockingGivesItsEditsBack() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open(passphrase: "lock me")
        try stash.addPassword(
            PasswordEntry(name: "Bank", userID: "me", password: "form-Secret-42", totp: "JBSWY3DPEHPK3PXP")
        )
        let clipboard = RecordingClipboard()
        let app = try ClipboardTests.app(stash, clipboard: clipboard, clock: TestClock(now: 100))
        app.send(.tab)
        app.send(.enter)
        app.send(.character("x"))  // an edit not saved: the name is “Bankx”
        let editor = try #require(app.loop.views.compactMap { $0 as? PasswordEditor }.first)
        #expect(editor.passwordField.text == "form-Secret-42")
        app.lock()
        #expect(app.isLocked)
        #expect(editor.form.values.values.allSatisfy { $0.isEmpty }, "\(editor.form.values)")
        #expect(editor.passwordField.text.isEmpty)
        for character in "lock me" { app.send(.character(character)) }
        app.send(.enter)
        #expect(!app.isLocked)
        #expect(editor.form.value(for: "name") == "Bankx")
        #expect(editor.passwordField.text == "form-Secret-42")
        #expect(editor.form.value(for: "totp") == "JBSWY3DPEHPK3PXP")
        #expect(editor.form.hasChanges, "the edit is still an edit: Esc asks before discarding it")
        app.send(.control("s"))
        #expect(try stash.names(of: .passwords) == ["Bankx"])
    }
}

/// The lock screen's line editor keeps no copy of the passphrase typed into it: this process's own
/// memory is searched, after unlocking, for the passphrase as contiguous bytes (no more copies than
/// before locking) and as the line editor's `[Character]` storage lays it out (none).
@Suite(.serialized) struct LockScreenEditorMemoryTests {
    /// The passphrase, each byte XOR 0x5A, so that the test holds no copy of it but where it is searched from.
    static let masked: [UInt8] = Array("Zq8-lockEditor-Probe-w3".utf8).map { $0 ^ 0x5A }

    /// Occurrences of the bytes in `needle` in this process's writable memory, outside `needle` itself.
    static func occurrences(of needle: SecureBytes) throws -> Int {
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        let fd = open("/proc/self/mem", O_RDONLY)
        guard fd >= 0 else { throw EndToEndError("cannot read /proc/self/mem") }
        defer { close(fd) }
        // The needle is read where it is (guarded memory), never copied into the heap searched.
        let needleStart = needle.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        let needleBytes = needle.withUnsafeMutableBytes {
            Data(bytesNoCopy: $0.baseAddress!, count: $0.count, deallocator: .none)
        }
        var count = 0
        for line in maps.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 2, parts[1].hasPrefix("rw") else { continue }
            let range = parts[0].split(separator: "-").compactMap { UInt64($0, radix: 16) }
            guard range.count == 2, range[1] - range[0] < 1 << 30 else { continue }
            var bytes = [UInt8](repeating: 0, count: Int(range[1] - range[0]))
            defer { Sodium.wipe(&bytes) }  // a copy of a searched region must not be found later
            let n = bytes.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress, $0.count, off_t(truncatingIfNeeded: range[0]))
            }
            guard n > 0 else { continue }
            // Searched in place: a copy of the region (a `Data`) would be freed unwiped and found later.
            count += bytes.withUnsafeBytes { region in
                needleBytes.withUnsafeBytes { wanted in
                    var found = 0
                    var at = 0
                    while at + wanted.count <= n {
                        if memcmp(region.baseAddress! + at, wanted.baseAddress!, wanted.count) == 0 {
                            if UInt(range[0]) + UInt(at) != needleStart { found += 1 }
                            at += wanted.count
                        } else {
                            at += 1
                        }
                    }
                    return found
                }
            }
        }
        return count
    }

    @Test(.enabled(if: FileManager.default.isReadableFile(atPath: "/proc/self/mem"), "needs /proc/self/mem"))
    func afterUnlockingTheTypedPassphraseIsNowhereInMemory() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        var plain = Self.masked.map { $0 ^ 0x5A }
        let passphrase = SecureBytes(wiping: &plain)
        let stash = try Stash(path: temp.path)
        try stash.setUp(passphrase: passphrase, parameters: .minimum)
        let app = try ClipboardTests.app(stash, clipboard: RecordingClipboard(), clock: TestClock(now: 100))
        let before = try Self.occurrences(of: passphrase)
        app.lock()
        for code in Self.masked { app.send(.character(Character(Unicode.Scalar(code ^ 0x5A)))) }
        app.send(.enter)
        #expect(!app.isLocked)
        // The needles: the bytes one after the other, and six characters as a [Character] holds them.
        let contiguous = passphrase
        var layout = [UInt8]()
        layout.reserveCapacity(6 * MemoryLayout<Character>.size)
        for code in Self.masked.prefix(6) {
            withUnsafeBytes(of: Character(Unicode.Scalar(code ^ 0x5A))) { layout += $0 }
        }
        let spaced = SecureBytes(wiping: &layout)
        let copies = try Self.occurrences(of: contiguous)
        // (Setting the passphrase up leaves its own copy, outside the lock screen: none may be added.)
        #expect(copies <= before, "the passphrase's bytes are in memory \(copies) times (\(before) before locking)")
        let characters = try Self.occurrences(of: spaced)
        #expect(characters == 0, "the line editor's characters of the passphrase are in memory \(characters) times")
    }
}

/// The passphrase typed at the lock screen is nowhere in the app's memory once it has unlocked.
@Suite(.serialized) struct LockScreenMemoryTests {
    static let passphrase = "heap-Probe-passphrase-7319"

    /// The pid of the program the pane's shell runs (the shell's one child).
    static func appPID(_ pane: TmuxSession) -> pid_t? {
        let shell =
            (try? ProcessRunner.runDetaching(pane.tmux, ["-L", pane.socket, "list-panes", "-F", "#{pane_pid}"])
            .standardOutput)
            .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard let shell else { return nil }
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let fields = stat.split(separator: ")").last?.split(separator: " "),
                fields.count > 2, pid_t(fields[2]) == shell
            else { continue }
            return pid
        }
        return nil
    }

    /// Whether `needle` is in any writable private mapping of `pid` (its heap, anonymous memory, stacks).
    static func memory(of pid: pid_t, contains needle: [UInt8]) throws -> Bool {
        let maps = try String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)
        let fd = open("/proc/\(pid)/mem", O_RDONLY)
        guard fd >= 0 else { throw EndToEndError("cannot read /proc/\(pid)/mem") }
        defer { close(fd) }
        for line in maps.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 2, parts[1].hasPrefix("rw") else { continue }
            let range = parts[0].split(separator: "-").compactMap { UInt64($0, radix: 16) }
            guard range.count == 2 else { continue }
            var bytes = [UInt8](repeating: 0, count: Int(range[1] - range[0]))
            let n = bytes.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress, $0.count, off_t(truncatingIfNeeded: range[0]))
            }
            guard n > 0 else { continue }
            if Data(bytes[0..<n]).containsBytes(needle) { return true }
        }
        return false
    }

    static var canReadOtherProcessesMemory: Bool { getuid() == 0 }

    @Test(
        .enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"),
        .enabled(if: canReadOtherProcessesMemory, "reading a non-dumpable process's memory needs root")
    )
    func aPassphraseTypedAtTheLockScreenIsNotLeftInTheHeap() throws {
        let session = try StashSession()
        defer { session.remove() }
        let stash = try Stash(path: session.database)
        try stash.setUp(passphrase: SecureBytes(utf8: Self.passphrase), parameters: .minimum)
        try stash.addPassword(PasswordEntry(name: "Bank", password: "pw"))
        stash.lock()
        let (pane, _) = try session.launch(["--no-animation"])
        defer { pane.close() }
        try pane.waitFor("Master passphrase:")
        pane.type(Self.passphrase)
        pane.press("Enter")
        try pane.waitFor("No notes yet")
        pane.type("L")
        try pane.waitFor("MyStash is locked")
        pane.type(Self.passphrase)
        pane.press("Enter")
        try pane.waitFor("No notes yet")
        let pid = try #require(Self.appPID(pane), "the app's pid")
        // The search sees the app's memory: the store's path (a name it keeps) is found.
        #expect(try Self.memory(of: pid, contains: Array(session.database.utf8)), "the app's memory cannot be read")
        #expect(
            !(try Self.memory(of: pid, contains: Array(Self.passphrase.utf8))),
            "the passphrase is in the app's memory"
        )
    }
}
