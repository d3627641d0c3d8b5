import Foundation
import Testing

@testable import MyStashKit

/// RFC 6238's test vectors (appendix B) and the ways a secret is written.
@Suite struct TOTPTests {
    static let seeds: [TOTP.Algorithm: String] = [
        .sha1: "12345678901234567890",
        .sha256: "12345678901234567890123456789012",
        .sha512: "1234567890123456789012345678901234567890123456789012345678901234",
    ]
    static let vectors: [(time: Double, sha1: String, sha256: String, sha512: String)] = [
        (59, "94287082", "46119246", "90693936"),
        (1_111_111_109, "07081804", "68084774", "25091201"),
        (1_111_111_111, "14050471", "67062674", "99943326"),
        (1_234_567_890, "89005924", "91819424", "93441116"),
        (2_000_000_000, "69279037", "90698825", "38618901"),
        (20_000_000_000, "65353130", "77737706", "47863826"),
    ]

    @Test(arguments: TOTP.Algorithm.allCases)
    func rfc6238TestVectors(algorithm: TOTP.Algorithm) throws {
        let totp = try TOTP(secret: Array(Self.seeds[algorithm]!.utf8), algorithm: algorithm, digits: 8, period: 30)
        for vector in Self.vectors {
            let expected = algorithm == .sha1 ? vector.sha1 : algorithm == .sha256 ? vector.sha256 : vector.sha512
            #expect(try totp.code(at: Date(timeIntervalSince1970: vector.time)) == expected, "T=\(vector.time)")
        }
    }

    @Test func base32SecretAndOtpauthURIGiveTheSameCodes() throws {
        // "12345678901234567890" in base32.
        let base32 = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
        let plain = try TOTP(parsing: base32.lowercased())
        #expect(plain.secret == Array("12345678901234567890".utf8))
        #expect(plain.digits == 6 && plain.period == 30 && plain.algorithm == .sha1)
        #expect(try plain.code(at: Date(timeIntervalSince1970: 59)) == "287082")
        let uri = try TOTP(
            parsing:
                "otpauth://totp/Example:alice@example.com?secret=\(base32)&issuer=Example&algorithm=SHA1&digits=8&period=30"
        )
        #expect(try uri.code(at: Date(timeIntervalSince1970: 1_111_111_109)) == "07081804")
        let sha512 = try TOTP(
            parsing: "otpauth://totp/x?secret=GEZD%20GNBVGY3TQOJQ&algorithm=sha512&digits=7&period=60"
        )
        #expect(sha512.algorithm == .sha512 && sha512.digits == 7 && sha512.period == 60)
        #expect(sha512.secondsLeft(at: Date(timeIntervalSince1970: 61)) == 59)
    }

    @Test func badSecretsAreRefusedWithAReason() throws {
        #expect(throws: TOTPError.invalidSecret("'1' is not a base32 character")) { try TOTP(parsing: "ABC1") }
        #expect(throws: TOTPError.unsupported("digits=9 (6 to 8 are supported)")) {
            try TOTP(parsing: "otpauth://totp/x?secret=GEZDGNBVGY3TQOJQ&digits=9")
        }
        #expect(throws: TOTPError.unsupported("otpauth type 'hotp' (only totp is supported)")) {
            try TOTP(parsing: "otpauth://hotp/x?secret=GEZDGNBV")
        }
        #expect(throws: TOTPError.invalidURI("no secret= parameter")) { try TOTP(parsing: "otpauth://totp/x") }
        #expect(throws: TOTPError.unsupported("algorithm=MD5")) {
            try TOTP(parsing: "otpauth://totp/x?secret=GEZDGNBVGY3TQOJQ&algorithm=MD5")
        }
    }
}

/// Parameters that would make the codes worthless, or ambiguous, are refused.
@Suite struct TOTPParameterTests {
    static let secret = "GEZDGNBVGY3TQOJQ"  // 10 bytes, the shortest accepted

    @Test func aPeriodOutsideOneToThreeHundredSecondsIsRefused() throws {
        #expect(throws: TOTPError.unsupported("period=9223372036854775807 (1 to 300 seconds are supported)")) {
            try TOTP(parsing: "otpauth://totp/x?secret=\(Self.secret)&period=9223372036854775807")
        }
        #expect(throws: TOTPError.unsupported("period=301 (1 to 300 seconds are supported)")) {
            try TOTP(parsing: "otpauth://totp/x?secret=\(Self.secret)&period=301")
        }
        #expect(throws: TOTPError.unsupported("period=0 (1 to 300 seconds are supported)")) {
            try TOTP(secret: Array("1234567890".utf8), period: 0)
        }
        #expect(try TOTP(parsing: "otpauth://totp/x?secret=\(Self.secret)&period=300").period == 300)
        #expect(try TOTP(parsing: "otpauth://totp/x?secret=\(Self.secret)&period=1").period == 1)
    }

    @Test func aSecretShorterThanTenBytesIsRefused() throws {
        #expect(throws: TOTPError.invalidSecret("it is 1 byte long; at least 10 (16 base32 characters) are needed")) {
            try TOTP(parsing: "GE")
        }
        #expect(throws: TOTPError.invalidSecret("it is 9 bytes long; at least 10 (16 base32 characters) are needed")) {
            try TOTP(secret: Array("123456789".utf8))
        }
        #expect(try TOTP(parsing: Self.secret).secret.count == 10)
    }

    @Test func aParameterGivenTwiceIsRefused() throws {
        #expect(throws: TOTPError.invalidURI("secret= is given more than once")) {
            try TOTP(parsing: "otpauth://totp/x?secret=\(Self.secret)&secret=JBSWY3DPEHPK3PXP")
        }
        #expect(throws: TOTPError.invalidURI("digits= is given more than once")) {
            try TOTP(parsing: "otpauth://totp/x?secret=\(Self.secret)&digits=6&DIGITS=8")
        }
    }

    @Test(.enabled(if: EndToEnd.binary != nil, "needs the built mystash (swift build)"))
    func showRefusesADegenerateSecretWithTheReason() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open(passphrase: "totp pass")
        try stash.addPassword(
            PasswordEntry(
                name: "Forever",
                password: "pw",
                totp: "otpauth://totp/x?secret=\(Self.secret)&period=9223372036854775807"
            )
        )
        try stash.addPassword(PasswordEntry(name: "Short", password: "pw", totp: "GE"))
        stash.lock()
        let fd = ["--db", temp.path, "--passphrase-fd", "3"]
        let forever = try ScriptRun.run(["show", "Forever", "--field", "totp"] + fd, fd3: "totp pass\n")
        #expect(forever.status == 65 && forever.standardOutput == "", "\(forever.standardOutput)")
        #expect(
            forever.standardError.contains("period=9223372036854775807 (1 to 300 seconds are supported)"),
            "\(forever.standardError)"
        )
        let short = try ScriptRun.run(["show", "Short", "--field", "totp"] + fd, fd3: "totp pass\n")
        #expect(short.status == 65 && short.standardOutput == "", "\(short.standardOutput)")
        #expect(short.standardError.contains("it is 1 byte long"), "\(short.standardError)")
    }
}

/// An entry's TOTP secret is sealed; the list shows its current code and the seconds left.
@Suite struct TOTPEntryTests {
    @Test func theListShowsTheCurrentCodeWithTheSecondsLeft() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        let object = try stash.addPassword(
            PasswordEntry(
                name: "GitHub",
                userID: "me",
                password: "pw",
                totp: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
            )
        )
        #expect(stash.listDetail(of: object, at: Date(timeIntervalSince1970: 59)) == "me · 287082 (1 s)")
        #expect(stash.listDetail(of: object, at: Date(timeIntervalSince1970: 60)).hasSuffix("(30 s)"))
        #expect(
            try stash.fieldValue(.totp, ofEntryNamed: "GitHub", user: nil, at: Date(timeIntervalSince1970: 59))
                == "287082"
        )
    }

    @Test func theFormRefusesATOTPSecretThatIsNotUsable() throws {
        let temp = try TemporaryStash()
        defer { temp.remove() }
        let stash = try temp.open()
        let editor = PasswordEditor(stash: stash, object: nil)
        for character in "Mail" { _ = editor.handle(.character(character)) }
        for _ in 0..<4 { _ = editor.handle(.tab) }
        for character in "not base32!" { _ = editor.handle(.character(character)) }
        _ = editor.handle(.control("s"))
        #expect(
            editor.form.errorMessage?.contains("invalid TOTP secret") == true,
            "\(editor.form.errorMessage ?? "nil")"
        )
        #expect(try stash.names(of: .passwords).isEmpty)
    }
}
