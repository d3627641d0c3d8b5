import Foundation
import Testing

@testable import MyStashKit

/// `mystash init` makes a stash without the full-screen app; the commands that need one say to run it.
@Suite(.serialized, .enabled(if: EndToEnd.binary != nil, "needs the built mystash (swift build)"))
struct InitCommandTests {
    static let passphrase = "init pass phrase"

    @Test func initFromADescriptorMakesAStashThatAddImportAndShowUse() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let path = temp.directory.appendingPathComponent("new/folder/stash.sqlite").path
        let made = try ScriptRun.run(["init", "--db", path, "--passphrase-fd", "3"], fd3: Self.passphrase + "\n")
        #expect(made.status == 0, "\(made.standardError)")
        #expect(made.standardError == "Created a stash at \(path).\n")
        #expect(made.standardOutput == "")
        #expect(StashLocation.permissions(ofFile: path) == 0o600)
        let fd = ["--db", path, "--passphrase-fd", "3"]
        let added = try ScriptRun.run(
            ["add", "Bank", "--user", "me"] + fd,
            stdin: "s3cret\n",
            fd3: Self.passphrase + "\n"
        )
        #expect(added.status == 0, "\(added.standardError)")
        let file = temp.directory.appendingPathComponent("chrome.csv").path
        try "name,url,username,password,note\nshop.example,https://shop.example/,buyer,pw,\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try ScriptRun.run(["import", file] + fd, fd3: Self.passphrase + "\n")
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(try ScriptRun.run(["show", "Bank"] + fd, fd3: Self.passphrase + "\n").standardOutput == "s3cret\n")
        #expect(try ScriptRun.run(["list", "passwords", "--db", path]).standardOutput == "Bank\nshop.example\n")
        let wrong = try ScriptRun.run(["show", "Bank"] + fd, fd3: "not it\n")
        #expect(wrong.status == 77)
    }

    @Test func initNeverTouchesAnExistingStashOrAFileThatIsNotOne() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open(passphrase: Self.passphrase)
        try stash.addPassword(PasswordEntry(name: "Bank", password: "kept"))
        stash.lock()
        let before = temp.fileBytes()
        let again = try ScriptRun.run(["init", "--db", temp.path, "--passphrase-fd", "3"], fd3: "other\n")
        #expect(again.status == 73)
        #expect(
            again.standardError.contains("a stash exists already at \(temp.path) (nothing was changed)"),
            "\(again.standardError)"
        )
        // (SQLite's shared-memory index, -shm, is rewritten by any reader.)
        #expect(temp.fileBytes().filter { $0.key != "-shm" } == before.filter { $0.key != "-shm" })
        let other = temp.directory.appendingPathComponent("notes.txt").path
        try "my own notes\n".write(toFile: other, atomically: true, encoding: .utf8)
        let foreign = try ScriptRun.run(["init", "--db", other, "--passphrase-fd", "3"], fd3: "p\n")
        #expect(foreign.status == 73)
        #expect(foreign.standardError.contains("exists and is not a stash"), "\(foreign.standardError)")
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "my own notes\n")
    }

    @Test func initWithNoPassphraseLeavesNoFileBehind() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let empty = try ScriptRun.run(["init", "--db", temp.path, "--passphrase-fd", "3"], fd3: "\n")
        #expect(empty.status == 65)
        #expect(empty.standardError.contains("is empty (no stash was created)"), "\(empty.standardError)")
        let none = try ScriptRun.run(["init", "--db", temp.path, "--passphrase-fd", "3"], fd3: "")
        #expect(none.status == 77)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.directory.path).isEmpty)
    }

    @Test func importAddAndShowOnANewPathSayToRunInit() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let file = temp.directory.appendingPathComponent("chrome.csv").path
        try "name,url,username,password,note\nshop.example,https://shop.example/,buyer,pw,\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let fd = ["--db", temp.path, "--passphrase-fd", "3"]
        for arguments in [["import", file], ["add", "Bank", "--generate", "20"], ["show", "Bank"]] {
            let result = try ScriptRun.run(arguments + fd, fd3: Self.passphrase + "\n")
            #expect(result.status == 66, "\(arguments)")
            #expect(
                result.standardError.contains(
                    "no stash at \(temp.path) (run 'mystash init --db \(temp.path)' to create one)"
                ),
                "\(result.standardError)"
            )
        }
        #expect(!FileManager.default.fileExists(atPath: temp.path))
    }

    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func onATerminalInitAsksThePassphraseTwice() throws {
        let session = try StashSession()
        defer { session.remove() }
        let (pane, run) = try session.launch(subcommand: ["init"])
        defer { pane.close() }
        try pane.waitFor("New master passphrase:")
        pane.type(Self.passphrase)
        pane.press("Enter")
        try pane.waitFor("Repeat the passphrase:")
        pane.type(Self.passphrase)
        pane.press("Enter")
        try pane.waitFor("EXITED")
        #expect(session.exitStatus(of: run) == 0, "\(session.file("stderr-\(run).txt"))")
        #expect(session.file("stderr-\(run).txt").contains("Created a stash at \(session.database)."))
        #expect(!pane.capture().contains(Self.passphrase))
        let shown = try ScriptRun.run(
            ["add", "Bank", "--generate", "12", "--db", session.database, "--passphrase-fd", "3"],
            fd3: Self.passphrase + "\n"
        )
        #expect(shown.status == 0, "\(shown.standardError)")
    }
}

/// A passphrase longer than ``PassphrasePrompt/maximumLength`` bytes is refused, however long the input.
@Suite(.serialized, .enabled(if: EndToEnd.binary != nil, "needs the built mystash (swift build)"))
struct PassphraseLimitTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/timeout"), "needs timeout(1)"))
    func anEndlessDescriptorIsRefusedAtTheLimitNotReadForever() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try temp.open(passphrase: "short").lock()
        for command in [["show", "Bank"], ["init"]] {
            let path = command == ["init"] ? temp.directory.appendingPathComponent("new.sqlite").path : temp.path
            let result = try ScriptRun.run(
                command + ["--db", path, "--passphrase-fd", "3"],
                fd3Path: "/dev/zero",
                wrapper: ["/usr/bin/timeout", "-s", "KILL", "60"]
            )
            #expect(result.status == 65, "\(command): \(result.status) \(result.standardError)")
            #expect(
                result.standardError.contains(
                    "the passphrase on descriptor 3 is longer than 1024 bytes (the limit); it was refused"
                ),
                "\(result.standardError)"
            )
        }
        #expect(!FileManager.default.fileExists(atPath: temp.directory.appendingPathComponent("new.sqlite").path))
    }

    @Test func aPassphraseOfExactlyTheLimitWorksAndOneByteMoreIsRefused() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let longest = String(repeating: "p", count: PassphrasePrompt.maximumLength)
        let stash = try temp.open(passphrase: longest)
        try stash.addPassword(PasswordEntry(name: "Bank", password: "at-the-limit"))
        stash.lock()
        let fd = ["--db", temp.path, "--passphrase-fd", "3"]
        let shown = try ScriptRun.run(["show", "Bank"] + fd, fd3: longest + "\n")
        #expect(shown.standardOutput == "at-the-limit\n", "\(shown.standardError)")
        let refused = try ScriptRun.run(["show", "Bank"] + fd, fd3: longest + "p\n")
        #expect(refused.status == 65 && refused.standardOutput == "", "\(refused.standardError)")
    }
}
