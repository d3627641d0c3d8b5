import Foundation
import Testing

@testable import MyStashKit

/// Import from other managers' CSV exports, export, and backup.
@Suite struct ImportFormatTests {
    static let bitwarden = """
        folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp
        Banking,1,login,"Bank, Crédit Agricole","pin, 1234",,0,https://bank.example/login,jean@example.fr,"p,w ""quoted"" é",JBSWY3DPEHPK3PXP
        ,,note,Wi-Fi,"SSID: home
        key: ünïcode",,0,,,,
        ,,login,,,,0,,,,

        """
    static let keepassxc = """
        "Group","Title","Username","Password","URL","Notes","TOTP","Icon","Last Modified","Created"
        "Root","Mail, personal","me@example.com","kp-secret ✓","https://mail.example","two
        lines","otpauth://totp/Mail:me?secret=JBSWY3DPEHPK3PXP&issuer=Mail","0","2026-01-01T00:00:00Z","2026-01-01T00:00:00Z"

        """
    static let chrome = """
        name,url,username,password,note
        shop.example,https://shop.example/,buyer,"chrome,pw",ünï note

        """
    static let firefox = """
        "url","username","password","httpRealm","formActionOrigin","guid","timeCreated","timeLastUsed","timePasswordChanged"
        "https://accounts.example.org","fox","ff-pw ß","","https://accounts.example.org","{x}","1","2","3"

        """

    private func read(
        _ text: String,
        format: PasswordExportFormat? = nil
    ) throws -> (PasswordExportFormat, [ImportedItem], [Int]) {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let path = temp.directory.appendingPathComponent("export.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var reader = try PasswordExportReader(path: path, format: format)
        let items = reader.items()
        return (reader.format, items, reader.skippedLines)
    }

    @Test func bitwardenLoginsAndSecureNotes() throws {
        let (format, items, skipped) = try read(Self.bitwarden)
        #expect(format == .bitwarden)
        #expect(
            items == [
                .password(
                    PasswordEntry(
                        name: "Bank, Crédit Agricole",
                        userID: "jean@example.fr",
                        password: "p,w \"quoted\" é",
                        url: "https://bank.example/login",
                        notes: "pin, 1234",
                        totp: "JBSWY3DPEHPK3PXP"
                    )
                ),
                .note(title: "Wi-Fi", body: "SSID: home\nkey: ünïcode"),
            ]
        )
        #expect(skipped == [], "a row with nothing in it is not a skipped entry")
    }

    @Test func keepassxcChromeAndFirefox() throws {
        #expect(
            try read(Self.keepassxc).1 == [
                .password(
                    PasswordEntry(
                        name: "Mail, personal",
                        userID: "me@example.com",
                        password: "kp-secret ✓",
                        url: "https://mail.example",
                        notes: "two\nlines",
                        totp: "otpauth://totp/Mail:me?secret=JBSWY3DPEHPK3PXP&issuer=Mail"
                    )
                )
            ]
        )
        let chrome = try read(Self.chrome)
        #expect(chrome.0 == .chrome)
        #expect(
            chrome.1 == [
                .password(
                    PasswordEntry(
                        name: "shop.example",
                        userID: "buyer",
                        password: "chrome,pw",
                        url: "https://shop.example/",
                        notes: "ünï note"
                    )
                )
            ]
        )
        let firefox = try read(Self.firefox)
        #expect(firefox.0 == .firefox)
        #expect(
            firefox.1 == [
                .password(
                    PasswordEntry(
                        name: "accounts.example.org",
                        userID: "fox",
                        password: "ff-pw ß",
                        url: "https://accounts.example.org"
                    )
                )
            ]
        )
    }

    static let keepassxcNotesOnly = """
        "Group","Title","Username","Password","URL","Notes","TOTP","Icon","Last Modified","Created"
        "Root","Bank recovery codes","","","","1111-2222
        3333-4444","","0","2026-01-01T00:00:00Z","2026-01-01T00:00:00Z"
        "Root","Router","","","http://192.168.1.1","","","0","2026-01-01T00:00:00Z","2026-01-01T00:00:00Z"
        "Root","Just a name","","","","","","0","2026-01-01T00:00:00Z","2026-01-01T00:00:00Z"

        """
    static let bitwardenCardAndIdentity = """
        folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp
        ,,card,Visa,expires 12/29,"number: 4111 1111 1111 1111
        code: 123",0,,,,
        ,,identity,Passport,,"passport: X1234567",0,,,,
        ,,login,Mail,,"recovery: words words",0,https://mail.example,me,mail-pw,
        ,,login,,,,0,,,secret-without-a-name,

        """

    @Test func loginsWithOnlyNotesAndCardsAndIdentitiesBecomeNotesAndTheRestIsNamed() throws {
        var (_, items, _) = try read(Self.keepassxcNotesOnly)
        #expect(
            items == [
                .note(title: "Bank recovery codes", body: "1111-2222\n3333-4444"),
                .note(title: "Router", body: "URL: http://192.168.1.1"),
            ]
        )
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let path = temp.directory.appendingPathComponent("export.csv").path
        try Self.keepassxcNotesOnly.write(toFile: path, atomically: true, encoding: .utf8)
        var reader = try PasswordExportReader(path: path)
        _ = reader.items()
        #expect(
            reader.skipped == [
                SkippedRow(
                    line: 5,
                    name: "Just a name",
                    reason: "only a name: no password, user ID, URL, TOTP secret or notes"
                )
            ]
        )
        (_, items, _) = try read(Self.bitwardenCardAndIdentity)
        #expect(
            items == [
                .note(title: "Visa", body: "expires 12/29\n\nnumber: 4111 1111 1111 1111\ncode: 123"),
                .note(title: "Passport", body: "passport: X1234567"),
                .password(
                    PasswordEntry(
                        name: "Mail",
                        userID: "me",
                        password: "mail-pw",
                        url: "https://mail.example",
                        notes: "recovery: words words"
                    )
                ),
            ]
        )
        #expect(try read(Self.bitwardenCardAndIdentity).2 == [6])
    }

    @Test func anUnknownHeaderIsRefusedWithFileAndLine() throws {
        #expect(throws: ImportError.self) { try read("a,b,c\n1,2,3\n") }
        do { _ = try read("a,b,c\n1,2,3\n") } catch {
            #expect(
                "\(error)".hasSuffix(
                    "export.csv:1: unrecognised header (expected a CSV export of Bitwarden, KeePassXC, Chrome or Firefox)"
                )
            )
        }
    }

    @Test func importUpdatesByNameAndUserInsteadOfDuplicating() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "old"))
        let summary = try stash.importItems([
            .password(PasswordEntry(name: "Bank", userID: "me", password: "new")),
            .password(PasswordEntry(name: "Bank", userID: "other", password: "x")),
            .note(title: "N", body: "b"),
        ])
        #expect(summary == ImportSummary(added: 2, updated: 1, unchanged: 0))
        let again = try stash.importItems([.password(PasswordEntry(name: "Bank", userID: "me", password: "new"))])
        #expect(again == ImportSummary(added: 0, updated: 0, unchanged: 1))
        let bank = try stash.passwordObjects(named: "Bank", user: "me")
        #expect(bank.count == 1)
        let entry = try stash.entry(for: bank[0])
        #expect(entry.password == "new")
        #expect(entry.history.items.map(\.password) == ["old"])
    }
}

/// The import, export and backup commands through the built binary.
@Suite(.serialized, .enabled(if: EndToEnd.binary != nil, "needs the built mystash (swift build)"))
struct TransferCommandTests {
    static let passphrase = "transfer pass phrase"

    @Test func importPrintsTheSummaryAndThePlaintextReminder() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try temp.open(passphrase: Self.passphrase).lock()
        let file = temp.directory.appendingPathComponent("bitwarden.csv").path
        try ImportFormatTests.bitwarden.write(toFile: file, atomically: true, encoding: .utf8)
        let fd = ["--db", temp.path, "--passphrase-fd", "3"]
        let result = try ScriptRun.run(["import", file] + fd, fd3: Self.passphrase + "\n")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput.contains("(bitwarden): 2 added, 0 updated, 0 unchanged, 0 skipped."),
            "\(result.standardOutput)"
        )
        #expect(result.standardOutput.contains("plaintext: delete it once you no longer need it (shred -u"))
        let totp = try ScriptRun.run(
            ["show", "Bank, Crédit Agricole", "--field", "totp"] + fd,
            fd3: Self.passphrase + "\n"
        )
        #expect(totp.status == 0 && totp.standardOutput.count == 7, "\(totp.standardOutput) \(totp.standardError)")
        let again = try ScriptRun.run(["import", file] + fd, fd3: Self.passphrase + "\n")
        #expect(again.standardOutput.contains("0 added, 0 updated, 2 unchanged, 0 skipped."), "\(again.standardOutput)")
    }

    @Test func importNamesEachSkippedRowAndThenNeverAdvisesDeletingTheExport() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        try temp.open(passphrase: Self.passphrase).lock()
        let fd = ["--db", temp.path, "--passphrase-fd", "3"]
        let keepass = temp.directory.appendingPathComponent("keepassxc.csv").path
        try ImportFormatTests.keepassxcNotesOnly.write(toFile: keepass, atomically: true, encoding: .utf8)
        let kept = try ScriptRun.run(["import", keepass] + fd, fd3: Self.passphrase + "\n")
        #expect(kept.status == 0, "\(kept.standardError)")
        #expect(kept.standardOutput.contains("2 added, 0 updated, 0 unchanged, 1 skipped."), "\(kept.standardOutput)")
        #expect(
            kept.standardError.contains(
                "\(keepass):5: skipped “Just a name”: only a name: no password, user ID, URL, TOTP secret or notes"
            ),
            "\(kept.standardError)"
        )
        #expect(
            !kept.standardOutput.contains("shred") && !kept.standardOutput.contains("delete it once"),
            "\(kept.standardOutput)"
        )
        #expect(kept.standardOutput.contains("1 entry in it was not imported"), "\(kept.standardOutput)")
        let codes = try ScriptRun.run(
            ["show", "Bank recovery codes", "--field", "notes"] + fd,
            fd3: Self.passphrase + "\n"
        )
        #expect(codes.standardOutput == "1111-2222\n3333-4444\n", "\(codes.standardError)")
        #expect(
            try ScriptRun.run(["list", "notes", "--db", temp.path]).standardOutput == "Bank recovery codes\nRouter\n"
        )

        let bitwarden = temp.directory.appendingPathComponent("bitwarden.csv").path
        try ImportFormatTests.bitwardenCardAndIdentity.write(toFile: bitwarden, atomically: true, encoding: .utf8)
        let cards = try ScriptRun.run(["import", bitwarden] + fd, fd3: Self.passphrase + "\n")
        #expect(cards.standardOutput.contains("3 added, 0 updated, 0 unchanged, 1 skipped."), "\(cards.standardOutput)")
        #expect(
            cards.standardError.contains("\(bitwarden):6: skipped: no name (and no URL to name it by)"),
            "\(cards.standardError)"
        )
        #expect(!cards.standardOutput.contains("shred"))
        let visa = try ScriptRun.run(["show", "Visa", "--field", "notes"] + fd, fd3: Self.passphrase + "\n")
        #expect(visa.standardOutput.contains("number: 4111 1111 1111 1111"), "\(visa.standardError)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit")))
    func anExportThatCannotBeWrittenWholeLeavesNoPlaintextBehind() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open(passphrase: Self.passphrase)
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me", password: "s3cret, ok"))
        try stash.addNote(title: "Long", body: String(repeating: "plaintext that must not stay on disk ", count: 4000))
        stash.lock()
        let before = try FileManager.default.contentsOfDirectory(atPath: temp.directory.path).sorted()
        let file = temp.directory.appendingPathComponent("out.csv").path
        // Files may not grow past 64 KiB (a full disk, for the export): the 150 KB export fails part-way.
        let failed = try ScriptRun.run(
            ["export", file, "--format", "csv", "--yes", "--db", temp.path, "--passphrase-fd", "3"],
            fd3: Self.passphrase + "\n",
            wrapper: ["/usr/bin/prlimit", "--fsize=65536", "--"]
        )
        #expect(failed.status != 0, "\(failed.standardOutput) \(failed.standardError)")
        #expect(!FileManager.default.fileExists(atPath: file), "a partial export was left at \(file)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.directory.path).sorted() == before)
    }

    @Test func exportIsPrivateNeverOverwritesAndNeedsYesOffATerminal() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open(passphrase: Self.passphrase)
        try stash.addPassword(
            PasswordEntry(name: "Bank", userID: "me", password: "s3cret, ok", totp: "JBSWY3DPEHPK3PXP")
        )
        try stash.addNote(title: "Diary", body: "dear diary")
        stash.lock()
        let file = temp.directory.appendingPathComponent("out.csv").path
        let fd = ["--db", temp.path, "--passphrase-fd", "3"]
        let refused = try ScriptRun.run(["export", file, "--format", "csv"] + fd, fd3: Self.passphrase + "\n")
        #expect(refused.status == 64 && !FileManager.default.fileExists(atPath: file), "\(refused.standardError)")
        let written = try ScriptRun.run(["export", file, "--format", "csv", "--yes"] + fd, fd3: Self.passphrase + "\n")
        #expect(written.status == 0, "\(written.standardError)")
        #expect(StashLocation.permissions(ofFile: file) == 0o600)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("\"s3cret, ok\"") && text.contains("dear diary"))
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let again = try ScriptRun.run(["export", file, "--format", "csv", "--yes"] + fd, fd3: Self.passphrase + "\n")
        #expect(again.status == 73 && again.standardError.contains("not overwritten"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
        // The export reads back (as Bitwarden's format) into another stash.
        let other = try TemporaryStash()
        defer { other.remove() }
        let copy = try other.open(passphrase: "p")
        var reader = try PasswordExportReader(path: file)
        #expect(try copy.importItems(reader.items()) == ImportSummary(added: 2, updated: 0, unchanged: 0))
        #expect(try copy.entry(for: try copy.passwordObjects(named: "Bank")[0]).totp == "JBSWY3DPEHPK3PXP")
    }

    @Test func backupIsAnEncryptedCopyThatOpensWithTheSamePassphrase() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open(passphrase: Self.passphrase)
        try stash.addPassword(PasswordEntry(name: "Bank", userID: "me-backup-user", password: "backup-secret"))
        let file = temp.directory.appendingPathComponent("backup.sqlite").path
        let result = try ScriptRun.run(["backup", file, "--db", temp.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(StashLocation.permissions(ofFile: file) == 0o600)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(!bytes.containsBytes(Array("backup-secret".utf8)) && !bytes.containsBytes(Array("me-backup-user".utf8)))
        let shown = try ScriptRun.run(
            ["show", "Bank", "--db", file, "--passphrase-fd", "3"],
            fd3: Self.passphrase + "\n"
        )
        #expect(shown.standardOutput == "backup-secret\n", "\(shown.standardError)")
        let again = try ScriptRun.run(["backup", file, "--db", temp.path])
        #expect(again.status == 73)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == bytes)
    }
}
