import Foundation
import TestSupport
import Testing

@testable import MyStashKit

/// A new master passphrase zxcvbn scores below 3 is warned about on stderr on every path; `init`
/// refuses one below 2 unless `--allow-weak`, and the estimate is made from guarded memory.
@Suite struct WeakPassphraseTests {
    /// `mystash init` of a new stash in a folder of its own, the passphrase on descriptor 3.
    private func initialize(_ passphrase: String, _ extra: [String] = []) throws -> (ProcessResult, created: Bool) {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let result = try ScriptRun.run(
            ["init", "--db", temp.path, "--passphrase-fd", "3"] + extra,
            fd3: passphrase + "\n"
        )
        return (result, FileManager.default.fileExists(atPath: temp.path))
    }

    @Test func theExamplesScoreAsTheTestsSay() {
        #expect(PasswordStrength(estimating: "a").score == 0)
        #expect(PasswordStrength(estimating: "purple monkey").score == 1)
        #expect(PasswordStrength(estimating: "pass phrase").score == 2)
        #expect(PasswordStrength(estimating: "correct horse battery staple").score == 4)
    }

    @Test(.enabled(if: EndToEnd.binary != nil, "needs the built mystash"))
    func initFromADescriptorRefusesAOneCharacterPassphraseUnlessAllowWeak() throws {
        let (refused, created) = try initialize("a")
        #expect(refused.status == 65, "\(refused.standardError)")
        #expect(!created, "no stash is left behind")
        #expect(
            refused.standardError
                == "mystash: the passphrase on descriptor 3 is very weak (about 10^1 guesses): choose a stronger one"
                + " (several unrelated words), or add --allow-weak to use it anyway; no stash was created\n"
        )
        let (allowed, made) = try initialize("a", ["--allow-weak"])
        #expect(allowed.status == 0, "\(allowed.standardError)")
        #expect(made)
        #expect(allowed.standardError.contains("mystash: warning: this passphrase is very weak (about 10^1 guesses)"))
        let (weak, _) = try initialize("purple monkey")
        #expect(weak.status == 65, "score 1 is refused too: \(weak.standardError)")
    }

    @Test(.enabled(if: EndToEnd.binary != nil, "needs the built mystash"))
    func initFromADescriptorWarnsBelowThreeAndIsQuietAbove() throws {
        let (fair, created) = try initialize("pass phrase")
        #expect(fair.status == 0 && created, "\(fair.standardError)")
        #expect(fair.standardError.contains("mystash: warning: this passphrase is fair (about 10^8 guesses)"))
        let (strong, _) = try initialize("correct horse battery staple")
        #expect(strong.status == 0)
        #expect(!strong.standardError.contains("warning"), "\(strong.standardError)")
    }

    @Test func theTerminalDialogueOfInitRefusesAVeryWeakOneAndAsksAgain() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try Stash(path: temp.path)
        var inPipe: [Int32] = [0, 0]
        var outPipe: [Int32] = [0, 0]
        #expect(pipe(&inPipe) == 0 && pipe(&outPipe) == 0)
        let typed = Array("a\na\npass phrase\npass phrase\n".utf8)
        _ = typed.withUnsafeBytes { write(inPipe[1], $0.baseAddress, $0.count) }
        close(inPipe[1])
        var session = PassphraseSession(prompt: PassphrasePrompt(input: inPipe[0], output: outPipe[1]))
        session.refusesWeak = true
        let status = session.open(stash, parameters: .minimum)
        close(inPipe[0])
        close(outPipe[1])
        let shown = String(
            decoding: FileHandle(fileDescriptor: outPipe[0], closeOnDealloc: true).readDataToEndOfFile(),
            as: UTF8.self
        )
        #expect(status == 0)
        #expect(shown.contains("Warning: this passphrase is very weak"), "\(shown)")
        #expect(shown.contains("Too weak: choose a stronger one"), "\(shown)")
        #expect(shown.contains("Warning: this passphrase is fair"), "the second one is set, warned about")
        stash.lock()
        #expect(throws: VaultError.wrongPassphrase) { try stash.unlock(passphrase: SecureBytes(utf8: "a")) }
        try stash.unlock(passphrase: SecureBytes(utf8: "pass phrase"))
    }

    @Test func theEstimateFromGuardedMemoryIsTheSameAsFromAString() {
        for text in ["a", "pass phrase", "Tr0ub4dor&3", "correct horse battery staple", "ünïcødé pass"] {
            #expect(
                PasswordStrength(estimating: SecureBytes(utf8: text)).bits == PasswordStrength(estimating: text).bits
            )
        }
        #expect(PasswordStrength(estimating: SecureBytes(count: 0)).score == 0)
    }
}
