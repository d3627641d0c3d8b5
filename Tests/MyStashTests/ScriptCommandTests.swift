import Foundation
import Testing

@testable import MyStashKit

/// `mystash show` and `mystash add` as scripts use them, with `--passphrase-fd`.
@Suite(.serialized, .enabled(if: EndToEnd.binary != nil, "needs the built mystash (swift build)"))
struct ScriptCommandTests {
    static let passphrase = "script pass phrase"

    private func makeStash(_ temp: TemporaryStash) throws {
        let stash = try temp.open(passphrase: Self.passphrase)
        try stash.addPassword(
            PasswordEntry(
                name: "Bank",
                userID: "me@example.com",
                password: "s3cret, with comma",
                url: "https://bank.example",
                notes: "pin 1234\nsecond line",
                totp: "otpauth://totp/Bank?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&digits=8"
            )
        )
        try stash.addNote(title: "Groceries", body: "milk")
        stash.lock()
    }

    @Test func showPrintsJustTheFieldAndANewline() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try makeStash(temp)
        let fd = ["--db", temp.path, "--passphrase-fd", "3"]
        let expected = [
            "password": "s3cret, with comma", "user": "me@example.com", "url": "https://bank.example",
            "notes": "pin 1234\nsecond line",
        ]
        for (field, value) in expected {
            let result = try ScriptRun.run(["show", "Bank", "--field", field] + fd, fd3: Self.passphrase + "\n")
            #expect(result.status == 0, "\(field): \(result.standardError)")
            #expect(result.standardOutput == value + "\n", "\(field)")
        }
        #expect(
            try ScriptRun.run(["show", "Bank"] + fd, fd3: Self.passphrase + "\n").standardOutput
                == "s3cret, with comma\n"
        )
        let totp = try ScriptRun.run(["show", "Bank", "--field", "totp"] + fd, fd3: Self.passphrase + "\n")
        let code = totp.standardOutput.trimmingCharacters(in: .newlines)
        let expectedCodes = try [Date().addingTimeInterval(-30), Date()].map {
            try TOTP(parsing: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ").with(digits: 8).code(at: $0)
        }
        #expect(
            totp.status == 0 && code.count == 8 && expectedCodes.contains(code),
            "\(totp.standardOutput) \(totp.standardError)"
        )
        #expect(
            try ScriptRun.run(["show", "Groceries", "--field", "notes"] + fd, fd3: Self.passphrase + "\n")
                .standardOutput
                == "milk\n"
        )
        // A note's text is never given out as a password (a note planted under a deleted entry's name).
        let asPassword = try ScriptRun.run(["show", "Groceries"] + fd, fd3: Self.passphrase + "\n")
        #expect(asPassword.status == 66 && asPassword.standardOutput == "", "\(asPassword.standardOutput)")
    }

    @Test func anUnknownNameIsAnErrorNamingIt() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try makeStash(temp)
        let result = try ScriptRun.run(
            ["show", "Nowhere", "--db", temp.path, "--passphrase-fd", "3"],
            fd3: Self.passphrase + "\n"
        )
        #expect(result.status == 66)
        #expect(result.standardOutput == "")
        #expect(result.standardError.contains("no entry named “Nowhere”"), "\(result.standardError)")
    }

    @Test func aWrongPassphrasePrintsNothingOnStdoutAndFails() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try makeStash(temp)
        let result = try ScriptRun.run(["show", "Bank", "--db", temp.path, "--passphrase-fd", "3"], fd3: "wrong\n")
        #expect(result.status == 77)
        #expect(result.standardOutput == "")
        #expect(result.standardError.contains("wrong passphrase"))
        let missing = try ScriptRun.run(["show", "Bank", "--db", temp.path, "--passphrase-fd", "999"])
        #expect(missing.status == 64 && missing.standardOutput == "")
    }

    @Test func addReadsThePasswordFromStdinAndRefusesADuplicate() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try makeStash(temp)
        let fd = ["--db", temp.path, "--passphrase-fd", "3"]
        let added = try ScriptRun.run(
            ["add", "Mail", "--user", "me", "--url", "https://mail.example"] + fd,
            stdin: "mail-pw ✓\nignored second line\n",
            fd3: Self.passphrase + "\n"
        )
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.standardOutput == "")
        #expect(try ScriptRun.run(["show", "Mail"] + fd, fd3: Self.passphrase + "\n").standardOutput == "mail-pw ✓\n")
        #expect(
            try ScriptRun.run(["show", "Mail", "--field", "url"] + fd, fd3: Self.passphrase + "\n").standardOutput
                == "https://mail.example\n"
        )
        let again = try ScriptRun.run(
            ["add", "Mail", "--user", "me"] + fd,
            stdin: "other\n",
            fd3: Self.passphrase + "\n"
        )
        #expect(again.status == 65)
        #expect(again.standardError.contains("exists already"))
        let generated = try ScriptRun.run(["add", "Shop", "--generate", "32"] + fd, fd3: Self.passphrase + "\n")
        #expect(generated.status == 0 && generated.standardOutput == "", "\(generated.standardError)")
        let shown = try ScriptRun.run(["show", "Shop"] + fd, fd3: Self.passphrase + "\n").standardOutput
        #expect(shown.count == 33 && shown.hasSuffix("\n"))
        let stash = try temp.open(passphrase: Self.passphrase)
        #expect(try stash.names(of: .passwords) == ["Bank", "Mail", "Shop"])
    }
}
