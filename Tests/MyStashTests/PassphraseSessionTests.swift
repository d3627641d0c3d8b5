import CLIKit
import Foundation
import Testing

@testable import MyStashKit

/// The passphrase dialogue before the app starts, fed through pipes.
@Suite struct PassphraseSessionTests {
    /// Runs the session on `stash` with `input` typed; returns the status and what was shown.
    private func run(_ stash: Stash, typing input: String) throws -> (status: Int32, shown: String) {
        var inPipe: [Int32] = [0, 0]
        var outPipe: [Int32] = [0, 0]
        #expect(pipe(&inPipe) == 0 && pipe(&outPipe) == 0)
        let bytes = Array(input.utf8)
        _ = bytes.withUnsafeBytes { write(inPipe[1], $0.baseAddress, $0.count) }
        close(inPipe[1])
        let status = PassphraseSession(prompt: PassphrasePrompt(input: inPipe[0], output: outPipe[1]))
            .open(stash, parameters: .minimum)
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
}
