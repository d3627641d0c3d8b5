import CLIKit
import Foundation
import Testing

@testable import MyStashKit

/// The passphrase dialogue before the app starts, fed through pipes.
@Suite struct PassphraseSessionTests {
    /// Runs the session on `stash` with `input` typed; returns the status and what was shown.
    private func run(
        _ stash: Stash,
        typing input: String,
        environment: [String: String] = ["MYSTASH_KDF": "min"]
    ) throws -> (status: Int32, shown: String) {
        var inPipe: [Int32] = [0, 0]
        var outPipe: [Int32] = [0, 0]
        #expect(pipe(&inPipe) == 0 && pipe(&outPipe) == 0)
        let bytes = Array(input.utf8)
        _ = bytes.withUnsafeBytes { write(inPipe[1], $0.baseAddress, $0.count) }
        close(inPipe[1])
        var session = PassphraseSession(prompt: PassphrasePrompt(input: inPipe[0], output: outPipe[1]))
        session.environment = environment
        let status = session.open(stash, parameters: .minimum)
        close(inPipe[0])
        close(outPipe[1])
        let shown = FileHandle(fileDescriptor: outPipe[0], closeOnDealloc: true).readDataToEndOfFile()
        return (status, String(decoding: shown, as: UTF8.self))
    }

    @Test func firstRunRefusesEmptyAndMismatchedPassphrasesThenSetsOne() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try Stash(path: temp.path)
        let (status, shown) = try run(stash, typing: "\nabc\nabd\nabc\nabc\n")
        #expect(status == ExitStatus.ok)
        #expect(shown.contains("must not be empty"))
        #expect(shown.contains("do not match"))
        #expect(!shown.contains("abc"))
        #expect(stash.isUnlocked && stash.hasPassphrase)
    }

    @Test func laterRunsGiveThreeTriesAndSayHowManyAreLeft() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        _ = try temp.open(passphrase: "right")
        let stash = try Stash(path: temp.path)
        let (status, shown) = try run(stash, typing: "wrong\nright\n")
        #expect(status == ExitStatus.ok)
        #expect(shown.contains("Wrong passphrase; 2 tries left."))
        let refused = try Stash(path: temp.path)
        #expect(try run(refused, typing: "a\nb\nc\nright\n").status == ExitStatus.noPermission)
        #expect(!refused.isUnlocked)
    }

    @Test func endOfInputCancelsWithoutSettingAPassphrase() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try Stash(path: temp.path)
        #expect(try run(stash, typing: "").status == ExitStatus.noPermission)
        #expect(!stash.hasPassphrase)
    }

    @Test func aWeakNewPassphraseIsWarnedAboutAndAStrongOneIsNot() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let (status, shown) = try run(try Stash(path: temp.path), typing: "a\na\n")
        #expect(status == ExitStatus.ok)
        #expect(shown.contains("Warning: this passphrase is very weak"), "\(shown)")
        let strong = try TemporaryStash()
        defer { strong.remove() }
        let (_, quiet) = try run(
            try Stash(path: strong.path),
            typing: "vivid-Ostrich-47-quantum-Lantern\nvivid-Ostrich-47-quantum-Lantern\n"
        )
        #expect(!quiet.contains("Warning"), "\(quiet)")
    }

    @Test func aStashBelowTheInteractiveCostIsOfferedAnUpgradeThatCanBeDeclined() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        _ = try temp.open(passphrase: "right")
        let stash = try Stash(path: temp.path)
        let (status, shown) = try run(stash, typing: "right\nn\n", environment: [:])
        #expect(status == ExitStatus.ok)
        #expect(shown.contains("is below Argon2id's interactive level"), "\(shown)")
        #expect(shown.contains("Kept as it is."))
        #expect(stash.vault?.header.parameters == .minimum)
        // The tests' switch (debug builds only) keeps the question away.
        let again = try Stash(path: temp.path)
        #expect(!(try run(again, typing: "right\n").shown.contains("interactive level")))
    }
}
