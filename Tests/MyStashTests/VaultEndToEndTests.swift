import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import MyStashKit

/// The vault's defences through the built `mystash`: a tampered file is
/// refused by the script commands, `passwd` never lowers the cost and can
/// skip damaged entries, a weak stash is offered a stronger cost.
@Suite(.serialized) struct VaultEndToEndTests {
    static let passphrase = "vault e2e pass phrase"

    private static func makeStash(at path: String, parameters: KDFParameters = .minimum) throws {
        let stash = try Stash(path: path)
        try stash.setUp(passphrase: SecureBytes(utf8: passphrase), parameters: parameters)
        try stash.addPassword(
            PasswordEntry(name: "Bank", userID: "alice", password: "pw-bank", url: "https://bank.example")
        )
        try stash.addPassword(PasswordEntry(name: "Mail", password: "pw-mail"))
        stash.lock()
        _ = try stash.store.database.query("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    private static func parameters(at path: String) throws -> [StoreValue] {
        try #require(try Database(path: path).query("SELECT ops_limit, mem_limit, salt FROM vault_info").first)
    }

    @Test(.enabled(if: EndToEnd.binary != nil, "needs the built mystash (swift build)"))
    func showRefusesAStashWhoseFlagWasSetBackWithAPlantedURL() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try Self.makeStash(at: temp.path)
        try Database(path: temp.path).execute(
            "UPDATE vault_info SET sealing = 1; UPDATE password SET url = 'https://evil.example' WHERE name = 'Bank'"
        )
        let before = temp.fileBytes()[""]
        let result = try ScriptRun.run(
            ["show", "Bank", "--field", "url", "--db", temp.path, "--passphrase-fd", "3"],
            fd3: Self.passphrase + "\n"
        )
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardOutput == "")
        #expect(result.standardError.contains("header was changed behind mystash's back"), "\(result.standardError)")
        #expect(temp.fileBytes()[""] == before, "nothing was re-sealed")
        // A deleted entry is named the same way.
        try Database(path: temp.path).execute(
            "UPDATE vault_info SET sealing = 3; DELETE FROM password WHERE name = 'Mail'"
        )
        let deleted = try ScriptRun.run(
            ["show", "Bank", "--db", temp.path, "--passphrase-fd", "3"],
            fd3: Self.passphrase + "\n"
        )
        #expect(deleted.status == 65 && deleted.standardOutput == "")
        #expect(deleted.standardError.contains("the password entry “Mail” was deleted"), "\(deleted.standardError)")
    }

    /// Types the current passphrase, then `new` twice, into `mystash passwd`.
    private func changePassphrase(_ pane: TmuxSession, to new: String) throws {
        try pane.waitFor("Master passphrase:")
        pane.type(Self.passphrase)
        pane.press("Enter")
        try pane.waitFor("New master passphrase:", timeout: 30)
        pane.type(new)
        pane.press("Enter")
        try pane.waitFor("Repeat the passphrase:")
        pane.type(new)
        pane.press("Enter")
    }

    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func passwdWithTheTestCostLeavesADefaultCostStashAtItsCost() throws {
        let session = try StashSession()
        defer { session.remove() }
        try Self.makeStash(at: session.database, parameters: .standard)
        let before = try Self.parameters(at: session.database)
        let (pane, run) = try session.launch(subcommand: ["passwd"])  // MYSTASH_KDF=min in its environment
        defer { pane.close() }
        try changePassphrase(pane, to: "another long pass phrase")
        try pane.waitFor("Passphrase changed.", timeout: 60)
        #expect(session.exitStatus(of: run) == 0)
        let after = try Self.parameters(at: session.database)
        #expect(Array(after.prefix(2)) == Array(before.prefix(2)), "the cost stayed: \(before) → \(after)")
        #expect(after[2] != before[2], "a new salt")
        #expect(
            Array(after.prefix(2)) == [
                .integer(Int64(KDFParameters.standard.opsLimit)), .integer(Int64(KDFParameters.standard.memLimit)),
            ]
        )
    }

    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func passwdSkipDamagedReSealsWhatOpensAndNamesTheRestAfterAsking() throws {
        let session = try StashSession()
        defer { session.remove() }
        try Self.makeStash(at: session.database)
        try Database(path: session.database).execute(
            flippingOneByte(of: "url", where: "name = 'Bank'")
        )
        // Without the option, nothing changes and the message says what was found.
        let (plain, plainRun) = try session.launch(subcommand: ["passwd"])
        try plain.waitFor("Master passphrase:")
        plain.type(Self.passphrase)
        plain.press("Enter")
        #expect(session.exitStatus(of: plainRun) == 65)
        #expect(session.file("stderr-\(plainRun).txt").contains("the password entry “Bank” has a different URL"))
        plain.close()

        let (pane, run) = try session.launch(subcommand: ["passwd", "--skip-damaged"])
        defer { pane.close() }
        try pane.waitFor("Master passphrase:")
        pane.type(Self.passphrase)
        pane.press("Enter")
        try pane.waitFor("Re-seal everything else under the new passphrase? [y/N]")
        let screen = pane.capture()
        #expect(screen.contains("the password entry “Bank” has a different URL"), "\(screen)")
        #expect(screen.contains("the password entry “Bank” (URL)"), "\(screen)")
        pane.type("y")
        pane.press("Enter")
        try pane.waitFor("New master passphrase:")
        pane.type("the new pass phrase")
        pane.press("Enter")
        try pane.waitFor("Repeat the passphrase:")
        pane.type("the new pass phrase")
        pane.press("Enter")
        try pane.waitFor("Left as they were (unreadable): the password entry “Bank” (URL).")
        #expect(session.exitStatus(of: run) == 0)

        let stash = try Stash(path: session.database)
        try stash.unlock(passphrase: SecureBytes(utf8: "the new pass phrase"))
        let objects = try stash.context.fetch(StashModel.password, orderBy: "name")
        let bank = try stash.read(objects[0])
        #expect(bank.unreadable == [.url])
        #expect(bank.entry.password == "pw-bank")
        #expect(try stash.revealPassword(of: objects[1]) == "pw-mail")
    }

    @Test(.enabled(if: EndToEnd.unavailableReason == nil, "needs the built mystash and tmux"))
    func aStashBelowTheInteractiveCostIsOfferedAnUpgradeAtUnlock() throws {
        let session = try StashSession()
        defer { session.remove() }
        try Self.makeStash(at: session.database)
        var environment = StashSession.environment
        environment["MYSTASH_KDF"] = nil
        let (pane, run) = try session.launch(subcommand: ["passwd"], environment: environment)
        defer { pane.close() }
        try pane.waitFor("Master passphrase:")
        pane.type(Self.passphrase)
        pane.press("Enter")
        let offer = try pane.waitFor("[y/N]").replacingOccurrences(of: "\n", with: "")
        #expect(offer.contains("(Argon2id(ops: 1, mem: 8 KiB)) is below Argon2id's interactive level"), "\(offer)")
        pane.type("y")
        pane.press("Enter")
        try pane.waitFor("Raised to", timeout: 60)
        try pane.waitFor("New master passphrase:", timeout: 30)
        pane.press("C-d")
        _ = session.exitStatus(of: run, timeout: 60)
        let after = try Self.parameters(at: session.database)
        #expect(
            Array(after.prefix(2)) == [
                .integer(Int64(KDFParameters.standard.opsLimit)), .integer(Int64(KDFParameters.standard.memLimit)),
            ]
        )
        let stash = try Stash(path: session.database)
        try stash.unlock(passphrase: SecureBytes(utf8: Self.passphrase))
        #expect(
            try stash.revealPassword(of: try stash.context.fetch(StashModel.password, orderBy: "name")[0]) == "pw-bank"
        )
    }
}
