import Testing

@testable import MyStashKit

/// The vault's cryptographic rules, without a store.
@Suite struct VaultTests {
    private func passphrase(_ text: String) -> SecureBytes { SecureBytes(utf8: text) }

    @Test func sealedPasswordOpensToTheSamePlaintext() throws {
        let (vault, _) = try Vault.create(passphrase: passphrase("open sesame"), parameters: .minimum)
        let sealed = try vault.seal("hunter2 ünïcødé 🔑", identity: "Password:1")
        #expect(sealed.count == Vault.nonceLength + Vault.blockSize + Vault.tagLength)
        #expect(try vault.openString(sealed, identity: "Password:1") == "hunter2 ünïcødé 🔑")
    }

    @Test func everySealUsesAFreshNonce() throws {
        let (vault, _) = try Vault.create(passphrase: passphrase("p"), parameters: .minimum)
        let a = try vault.seal("same", identity: "Password:1")
        let b = try vault.seal("same", identity: "Password:1")
        #expect(a != b)
        #expect(Array(a.prefix(Vault.nonceLength)) != Array(b.prefix(Vault.nonceLength)))
    }

    @Test func ciphertextBoundToAnotherRowDoesNotOpen() throws {
        let (vault, _) = try Vault.create(passphrase: passphrase("p"), parameters: .minimum)
        let sealed = try vault.seal("secret", identity: "Password:1")
        #expect(throws: VaultError.cannotOpen(identity: "Password:2")) {
            try vault.open(sealed, identity: "Password:2")
        }
    }

    @Test func tamperedCiphertextDoesNotOpen() throws {
        let (vault, _) = try Vault.create(passphrase: passphrase("p"), parameters: .minimum)
        var sealed = try vault.seal("secret", identity: "Password:1")
        sealed[sealed.count - 1] ^= 1
        #expect(throws: VaultError.self) { try vault.open(sealed, identity: "Password:1") }
        #expect(throws: VaultError.malformedCiphertext(identity: "Password:1", length: 3)) {
            try vault.open([1, 2, 3], identity: "Password:1")
        }
    }

    @Test func rightPassphraseUnlocksWithTheStoredHeader() throws {
        let (vault, header) = try Vault.create(passphrase: passphrase("correct horse"), parameters: .minimum)
        let sealed = try vault.seal("pw", identity: "Password:9")
        let again = try Vault.unlock(passphrase: passphrase("correct horse"), header: header)
        #expect(try again.openString(sealed, identity: "Password:9") == "pw")
    }

    @Test func wrongPassphraseIsRefusedByTheVerifier() throws {
        let (_, header) = try Vault.create(passphrase: passphrase("correct horse"), parameters: .minimum)
        #expect(throws: VaultError.wrongPassphrase) {
            try Vault.unlock(passphrase: passphrase("correct horsf"), header: header)
        }
        #expect(throws: VaultError.wrongPassphrase) {
            try Vault.unlock(passphrase: passphrase(""), header: header)
        }
    }

    @Test func emptyPassphraseCannotCreateAVault() {
        #expect(throws: VaultError.emptyPassphrase) {
            try Vault.create(passphrase: SecureBytes(utf8: ""), parameters: .minimum)
        }
    }

    @Test func eachVaultGetsItsOwnRandomSalt() throws {
        let (_, a) = try Vault.create(passphrase: passphrase("p"), parameters: .minimum)
        let (_, b) = try Vault.create(passphrase: passphrase("p"), parameters: .minimum)
        #expect(a.salt.count == Vault.saltLength)
        #expect(a.salt != b.salt)
        #expect(a.verifier != b.verifier)
    }

    @Test func closedVaultWipesItsKeyAndRefusesWork() throws {
        let (vault, _) = try Vault.create(passphrase: passphrase("p"), parameters: .minimum)
        let sealed = try vault.seal("x", identity: "Password:1")
        vault.close()
        #expect(vault.isClosed)
        #expect(throws: VaultError.closed) { try vault.open(sealed, identity: "Password:1") }
        #expect(throws: VaultError.closed) { try vault.seal("x", identity: "Password:1") }
    }

    @Test func hostileKDFParametersAreRefusedBeforeDerivation() throws {
        let (_, header) = try Vault.create(passphrase: passphrase("p"), parameters: .minimum)
        var hostile = header
        hostile.parameters.memLimit = 1 << 40
        #expect(throws: VaultError.self) { try Vault.unlock(passphrase: passphrase("p"), header: hostile) }
        hostile = header
        hostile.parameters.algorithm = 1  // Argon2i
        #expect(throws: VaultError.self) { try Vault.unlock(passphrase: passphrase("p"), header: hostile) }
    }

    @Test func secureBytesWipesTheSourceArray() {
        var typed = Array("secret".utf8)
        let bytes = SecureBytes(wiping: &typed)
        #expect(typed == [0, 0, 0, 0, 0, 0])
        #expect(bytes.withUnsafeBytes { Array($0) } == Array("secret".utf8))
        bytes.wipe()
        #expect(bytes.isWiped && bytes.count == 0)
    }

    @Test func aNewPassphraseGetsTheModerateCostAndTheTestSwitchOnlyInDebugBuilds() {
        #if DEBUG
        #expect(KDFParameters.forNewPassphrase(environment: ["MYSTASH_KDF": "min"]) == .minimum)
        #else
        #expect(KDFParameters.forNewPassphrase(environment: ["MYSTASH_KDF": "min"]) == .standard)
        #endif
        #expect(KDFParameters.forNewPassphrase(environment: [:]) == .standard)
        #expect(KDFParameters.standard == .moderate)
        #expect(KDFParameters.standard.memLimit >= 256 << 20 && KDFParameters.standard.opsLimit >= 3)
        #expect(KDFParameters.interactive.memLimit >= 64 << 20)
        #expect(KDFParameters.floor.memLimit >= 19 << 20 && KDFParameters.floor.opsLimit >= 2)
    }

    @Test func raisingTheCostNeverLowersEitherLimit() {
        let stored = KDFParameters(opsLimit: 4, memLimit: 64 << 20)
        let raised = stored.raised(toAtLeast: .minimum)
        #expect(raised == stored)
        #expect(stored.raised(toAtLeast: .moderate) == KDFParameters(opsLimit: 4, memLimit: 256 << 20))
        #expect(KDFParameters.minimum.isBelow(.interactive))
        #expect(!KDFParameters.moderate.isBelow(.interactive))
    }

    @Test func passwordsOfLengthsThreeAndNineSealToTheSameLength() throws {
        let (vault, _) = try Vault.create(passphrase: passphrase("p"), parameters: .minimum)
        let three = try vault.seal("abc", identity: "x")
        let nine = try vault.seal("abcdefghi", identity: "x")
        #expect(three.count == nine.count)
        #expect(try vault.seal("", identity: "x").count == three.count)
        #expect(try vault.seal(String(repeating: "a", count: 63), identity: "x").count == three.count)
        #expect(try vault.seal(String(repeating: "a", count: 64), identity: "x").count == three.count + Vault.blockSize)
        #expect(try vault.openString(nine, identity: "x") == "abcdefghi")
        #expect(try vault.openString(try vault.seal("", identity: "x"), identity: "x") == "")
        let history = try vault.seal("h", identity: "x", largeBlocks: true)
        #expect(history.count == Vault.nonceLength + 4 * Vault.blockSize + Vault.tagLength)
    }

    @Test func subkeysDifferFromEachOtherAndTheFormatTwoKey() throws {
        let (vault, _) = try Vault.create(passphrase: passphrase("p"), parameters: .minimum)
        let message = Array("m".utf8)
        let macs = try [Vault.Subkey.sealing, .header, .manifest, .verifier].map { try vault.mac(message, purpose: $0) }
        #expect(Set(macs).count == 4)
        let sealed = try vault.seal("secret", identity: "x")
        #expect(throws: VaultError.self) { try vault.openLegacy(sealed, identity: "x") }
    }

    @Test func aFormatThreeHeaderSetBackToAnOlderFormatIsRefusedAsChanged() throws {
        let (_, header) = try Vault.create(passphrase: passphrase("p"), parameters: .minimum)
        var downgraded = header
        downgraded.format = 1
        #expect(throws: VaultError.headerChanged("its format was set back to 1")) {
            try Vault.unlock(passphrase: passphrase("p"), header: downgraded)
        }
        #expect(throws: VaultError.wrongPassphrase) {
            try Vault.unlock(passphrase: passphrase("q"), header: downgraded)
        }
    }

    @Test func generatedPasswordsAreLongDistinctAndFromTheAlphabet() {
        let generator = PasswordGenerator()
        var seen = Set<String>()
        for _ in 0..<200 {
            let password = generator.generate()
            #expect(password.count == 20)
            #expect(password.allSatisfy { PasswordGenerator.defaultAlphabet.contains($0) })
            seen.insert(password)
        }
        #expect(seen.count == 200)
        #expect(!PasswordGenerator.defaultAlphabet.contains("0") && !PasswordGenerator.defaultAlphabet.contains("l"))
    }

    @Test func generatorTakesCharacterClassesAndAvoidsLookAlikesOnRequest() {
        let digits = PasswordGenerator(classes: [.digits]).generate(length: 12)
        #expect(digits.count == 12 && digits.allSatisfy { "23456789".contains($0) })
        for _ in 0..<100 {
            let password = PasswordGenerator(classes: [.lower, .upper, .digits, .symbols]).generate(length: 8)
            #expect(
                password.contains { $0.isLowercase } && password.contains { $0.isUppercase }
                    && password.contains { $0.isNumber } && password.contains { "!#%+-=?@_*".contains($0) },
                "\(password)"
            )
            #expect(!password.contains { "0O1lI".contains($0) })
        }
        let any = (0..<200).map { _ in
            PasswordGenerator(classes: [.digits], avoidingLookAlikes: false).generate(length: 20)
        }.joined()
        #expect(any.contains("0") && any.contains("1"))
        #expect(PasswordGenerator.CharacterClass.parse("lud") == [.lower, .upper, .digits])
        #expect(PasswordGenerator.CharacterClass.parse("x") == nil)
    }
}
