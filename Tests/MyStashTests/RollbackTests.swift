import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import MyStashKit

/// A whole stash file put back from an older copy of itself is noticed by the machine that saw
/// it later (`SeenStashes`, `$XDG_STATE_HOME/mystash/seen.json`), naming both generations, and
/// opened only when the person says so; key-derivation limits edited in the header are a header
/// changed behind mystash's back, not a wrong passphrase.
@Suite(.serialized) struct RollbackTests {
    static let passphrase = "rollback pass phrase"

    /// A stash made by the binary, with its own state folder (this machine's memory of it).
    final class Machine {
        let temp: TemporaryStash
        let state: String
        init() throws {
            temp = try TemporaryStash()
            state = temp.directory.appendingPathComponent("state").path
            let made = try run(["init"])
            #expect(made.status == 0, "\(made.standardError)")
        }
        deinit { temp.remove() }

        /// `mystash ARGUMENTS --db STASH --passphrase-fd 3` on this machine.
        func run(_ arguments: [String], stdin: String? = nil, stateHome: String? = nil) throws -> ProcessResult {
            try ScriptRun.run(
                arguments + ["--db", temp.path, "--passphrase-fd", "3"],
                stdin: stdin,
                fd3: RollbackTests.passphrase + "\n",
                extraEnvironment: ["XDG_STATE_HOME": stateHome ?? state]
            )
        }

        func add(_ name: String, _ password: String) throws {
            let added = try run(["add", name], stdin: password + "\n")
            #expect(added.status == 0, "\(added.standardError)")
        }

        /// A copy of the stash file (the binary left no -wal behind).
        func copy(to name: String) throws -> String {
            let copy = temp.directory.appendingPathComponent(name).path
            #expect(!FileManager.default.fileExists(atPath: temp.path + "-wal"))
            try FileManager.default.copyItem(atPath: temp.path, toPath: copy)
            return copy
        }

        func putBack(_ copy: String) throws {
            try FileManager.default.removeItem(atPath: temp.path)
            try FileManager.default.copyItem(atPath: copy, toPath: temp.path)
        }

        func generation() throws -> Int64 {
            try Database(path: temp.path).scalar("SELECT generation FROM vault_info").int64 ?? -1
        }
    }

    @Test(.enabled(if: EndToEnd.binary != nil, "needs the built mystash"))
    func aStashPutBackFromAnOlderCopyIsRefusedNamingBothGenerationsUntilAccepted() throws {
        let m = try Machine()
        try m.add("Bank", "old-pw")
        let older = try m.copy(to: "older.sqlite")
        let olderGeneration = try m.generation()
        try m.add("Mail", "mail-pw")
        let seenGeneration = try m.generation()
        #expect(seenGeneration > olderGeneration)
        try m.putBack(older)

        let refused = try m.run(["show", "Bank"])
        #expect(refused.status == 65, "\(refused.standardError)")
        #expect(refused.standardOutput == "")
        #expect(
            refused.standardError.hasPrefix(
                "mystash: the stash is at generation \(olderGeneration), but generation \(seenGeneration) was seen on this machine ("
            ),
            "\(refused.standardError)"
        )
        #expect(refused.standardError.contains("run again with --accept-rollback"))

        let accepted = try m.run(["show", "Bank", "--accept-rollback"])
        #expect(accepted.status == 0 && accepted.standardOutput == "old-pw\n", "\(accepted.standardError)")
        let afterwards = try m.run(["show", "Bank"])
        #expect(afterwards.status == 0, "the accepted generation is the one remembered: \(afterwards.standardError)")

        // The state file is private.
        #expect(StashLocation.permissions(ofFile: m.state + "/mystash/seen.json") == 0o600)
        #expect(StashLocation.permissions(ofFile: m.state + "/mystash") == 0o700)
    }

    @Test(.enabled(if: EndToEnd.binary != nil, "needs the built mystash"))
    func anotherCopyAtTheSameGenerationIsRefusedToo() throws {
        let m = try Machine()
        try m.add("Bank", "pw-1")
        let fork = try m.copy(to: "fork.sqlite")
        try m.add("Mail", "pw-2")
        // The copy changed somewhere this machine did not see (another state folder), to the same generation.
        let elsewhere = try ScriptRun.run(
            ["add", "Other", "--db", fork, "--passphrase-fd", "3"],
            stdin: "pw-3\n",
            fd3: Self.passphrase + "\n",
            extraEnvironment: ["XDG_STATE_HOME": m.temp.directory.appendingPathComponent("elsewhere").path]
        )
        #expect(elsewhere.status == 0, "\(elsewhere.standardError)")
        let generation = try m.generation()
        try m.putBack(fork)
        #expect(try m.generation() == generation)
        let refused = try m.run(["show", "Bank"])
        #expect(refused.status == 65)
        #expect(
            refused.standardError.contains(
                "the stash is at generation \(generation), as when last seen on this machine"
            ),
            "\(refused.standardError)"
        )
        #expect(refused.standardError.contains("but its contents differ"))
    }

    @Test func theTerminalDialogueAsksBeforeOpeningARolledBackStash() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let seen = SeenStashes(path: temp.directory.appendingPathComponent("state/seen.json").path)
        do {
            let stash = try Stash(path: temp.path)
            stash.seen = seen
            try stash.setUp(passphrase: SecureBytes(utf8: Self.passphrase), parameters: .minimum)
            try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "pw"))
            stash.lock()
        }
        let older = temp.directory.appendingPathComponent("older.sqlite").path
        try Database(path: temp.path).execute("VACUUM INTO '\(older)'")
        do {
            let stash = try Stash(path: temp.path)
            stash.seen = seen
            try stash.unlock(passphrase: SecureBytes(utf8: Self.passphrase))
            try stash.addNote(title: "later", body: "x")
            stash.lock()
        }
        try FileManager.default.removeItem(atPath: temp.path)
        try FileManager.default.copyItem(atPath: older, toPath: temp.path)

        func session(typing input: String) throws -> (Int32, String, Stash) {
            let stash = try Stash(path: temp.path)
            stash.seen = seen
            var inPipe: [Int32] = [0, 0]
            var outPipe: [Int32] = [0, 0]
            #expect(pipe(&inPipe) == 0 && pipe(&outPipe) == 0)
            _ = Array(input.utf8).withUnsafeBytes { write(inPipe[1], $0.baseAddress, $0.count) }
            close(inPipe[1])
            let status = PassphraseSession(prompt: PassphrasePrompt(input: inPipe[0], output: outPipe[1]))
                .open(stash, parameters: .minimum)
            close(inPipe[0])
            close(outPipe[1])
            let shown = FileHandle(fileDescriptor: outPipe[0], closeOnDealloc: true).readDataToEndOfFile()
            return (status, String(decoding: shown, as: UTF8.self), stash)
        }
        let (declined, asked, locked) = try session(typing: Self.passphrase + "\nn\n")
        #expect(declined == 65)
        #expect(asked.contains("Warning: the stash is at generation 2, but generation 3 was seen"), "\(asked)")
        #expect(asked.contains("Open it anyway (generation 2 becomes the one remembered here)? [y/N]"))
        #expect(!locked.isUnlocked)
        let (opened, _, stash) = try session(typing: Self.passphrase + "\ny\n")
        #expect(opened == 0)
        #expect(stash.isUnlocked)
        try stash.addNote(title: "after the rollback", body: "y")  // the accepted generation is the one remembered
    }

    @Test func noSaveIsMadeOverAStashThisMachineSawAtALaterGeneration() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open(passphrase: Self.passphrase)
        let seen = SeenStashes(path: temp.directory.appendingPathComponent("state/seen.json").path)
        stash.seen = seen
        try stash.addNote(title: "one", body: "x")
        let vault = try stash.currentVault()
        let generation = try #require(try stash.verifiedManifestState(vault: vault)?.generation)
        // Another process of this machine saw it later than the file now is (the file was put back under the app).
        try seen.remember(
            salt: vault.header.salt,
            parameters: vault.header.parameters,
            generation: generation + 3,
            manifestMAC: [1, 2, 3],
            path: temp.path
        )
        #expect(throws: StashError.self) { try stash.addNote(title: "two", body: "y") }
        #expect(try stash.names(of: .notes) == ["one"])
    }

    @Test(.enabled(if: EndToEnd.binary != nil, "needs the built mystash"))
    func keyDerivationLimitsEditedInTheHeaderAreSaidToBeTamperingNotAWrongPassphrase() throws {
        let m = try Machine()
        try m.add("Bank", "pw")
        let db = try Database(path: m.temp.path)
        let ops = try db.scalar("SELECT ops_limit FROM vault_info").int64 ?? 0
        let mem = try db.scalar("SELECT mem_limit FROM vault_info").int64 ?? 0
        try db.execute("UPDATE vault_info SET ops_limit = \(ops + 1)")
        let cheap = try m.run(["show", "Bank"])
        #expect(cheap.status == 65, "\(cheap.standardError)")
        #expect(
            cheap.standardError.contains(
                "the stash's header was changed behind mystash's back (its key-derivation limits were changed from Argon2id(ops: \(ops),"
            ),
            "\(cheap.standardError)"
        )
        #expect(!cheap.standardError.contains("wrong passphrase"))
        // Huge limits are refused before a key is derived (1 GiB, 16 passes would take a while).
        try db.execute("UPDATE vault_info SET ops_limit = 16, mem_limit = \(1 << 30)")
        let started = Date()
        let huge = try m.run(["show", "Bank"])
        #expect(huge.status == 65 && huge.standardError.contains("its key-derivation limits were changed"))
        #expect(Date().timeIntervalSince(started) < 60, "no key was derived with them")
        // A machine that never saw the stash cannot tell the edit from a wrong passphrase.
        try db.execute("UPDATE vault_info SET ops_limit = \(ops + 1), mem_limit = \(mem)")
        let elsewhere = try m.run(["show", "Bank"], stateHome: m.temp.directory.appendingPathComponent("new").path)
        #expect(
            elsewhere.status == 77 && elsewhere.standardError.contains("wrong passphrase"),
            "\(elsewhere.standardError)"
        )
    }
}
