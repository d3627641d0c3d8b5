import CSodium

/// The unlocked key of a password store: seals and opens secrets.
///
/// The key is derived from the master passphrase with Argon2id
/// (`crypto_pwhash`) and lives in guarded memory (`SecureBytes`) until `close()`
/// or deinitialisation wipes it. Each `seal` draws a fresh random 24-byte nonce
/// and encrypts with XChaCha20-Poly1305 (`crypto_aead_xchacha20poly1305_ietf`),
/// binding the ciphertext to the row it belongs to through the associated data:
/// a sealed value copied to another row does not open.
///
///     var typed = Array("correct horse battery staple".utf8)
///     let passphrase = SecureBytes(wiping: &typed)
///     let (vault, header) = try Vault.create(passphrase: passphrase, parameters: .interactive)
///     let sealed = try vault.seal(Array("hunter2".utf8), identity: "Password:7")
///     let opened = try vault.open(sealed, identity: "Password:7")   // "hunter2"
///     vault.close()                                                  // key wiped
public final class Vault {
    /// Length of the derived key (`crypto_aead_xchacha20poly1305_ietf_KEYBYTES`).
    public static var keyLength: Int { Int(crypto_aead_xchacha20poly1305_ietf_keybytes()) }
    /// Length of the nonce stored in front of each ciphertext.
    public static var nonceLength: Int { Int(crypto_aead_xchacha20poly1305_ietf_npubbytes()) }
    /// Length of the authentication tag appended to each ciphertext.
    public static var tagLength: Int { Int(crypto_aead_xchacha20poly1305_ietf_abytes()) }
    /// Length of the salt (`crypto_pwhash_SALTBYTES`).
    public static var saltLength: Int { Int(crypto_pwhash_saltbytes()) }
    /// Length of the verifier.
    public static let verifierLength = 32
    /// The fixed message the verifier authenticates.
    public static let verifierLabel = Array("mystash vault verifier v1".utf8)

    private let key: SecureBytes
    /// The header this key matches (salt, limits, verifier).
    public let header: VaultHeader

    private init(key: SecureBytes, header: VaultHeader) {
        self.key = key
        self.header = header
    }

    /// Makes a new vault for `passphrase` with a fresh random salt.
    ///
    /// Returns the vault and the header to persist. Throws `emptyPassphrase`
    /// for an empty passphrase.
    public static func create(passphrase: SecureBytes, parameters: KDFParameters) throws -> (Vault, VaultHeader) {
        try Sodium.ensureInitialized()
        try parameters.validate()
        guard passphrase.count > 0 else { throw VaultError.emptyPassphrase }
        let salt = Sodium.randomBytes(saltLength)
        let key = try deriveKey(passphrase: passphrase, salt: salt, parameters: parameters)
        let header = VaultHeader(salt: salt, parameters: parameters, verifier: verifier(for: key))
        return (Vault(key: key, header: header), header)
    }

    /// Derives the key for `passphrase` under a stored header and checks it
    /// against the verifier.
    ///
    /// Throws `wrongPassphrase` when it does not match; nothing is written anywhere.
    public static func unlock(passphrase: SecureBytes, header: VaultHeader) throws -> Vault {
        try Sodium.ensureInitialized()
        try header.parameters.validate()
        guard header.salt.count == saltLength, header.verifier.count == verifierLength else {
            throw VaultError.unsupportedParameters("salt or verifier of the wrong length")
        }
        guard passphrase.count > 0 else { throw VaultError.wrongPassphrase }
        let key = try deriveKey(passphrase: passphrase, salt: header.salt, parameters: header.parameters)
        let expected = verifier(for: key)
        let same = expected.withUnsafeBytes { a in
            header.verifier.withUnsafeBytes { b in sodium_memcmp(a.baseAddress!, b.baseAddress!, verifierLength) }
        }
        guard same == 0 else {
            key.wipe()
            throw VaultError.wrongPassphrase
        }
        return Vault(key: key, header: header)
    }

    /// Whether `close()` has wiped the key.
    public var isClosed: Bool { key.isWiped }

    /// Wipes the key. Further `seal`/`open` calls throw `VaultError.closed`.
    public func close() { key.wipe() }

    /// The associated data naming a row, e.g. `"Password:42"`.
    public static func identity(entity: String, rowID: Int64) -> String { "\(entity):\(rowID)" }

    /// Encrypts `plaintext` for the row named `identity`.
    ///
    /// The result is `nonce ‖ ciphertext ‖ tag` (24 + n + 16 bytes), with a
    /// nonce drawn fresh from `randombytes_buf`.
    public func seal(_ plaintext: [UInt8], identity: String) throws -> [UInt8] {
        guard !key.isWiped else { throw VaultError.closed }
        let ad = Array(identity.utf8)
        let nonce = Sodium.randomBytes(Vault.nonceLength)
        var output = [UInt8](repeating: 0, count: Vault.nonceLength + plaintext.count + Vault.tagLength)
        var written: UInt64 = 0
        output.replaceSubrange(0..<Vault.nonceLength, with: nonce)
        let status = output.withUnsafeMutableBufferPointer { out in
            plaintext.withUnsafeBufferPointer { message in
                ad.withUnsafeBufferPointer { adBuffer in
                    key.withUnsafeBytes { keyBytes in
                        crypto_aead_xchacha20poly1305_ietf_encrypt(
                            out.baseAddress! + Vault.nonceLength,
                            &written,
                            message.baseAddress,
                            UInt64(message.count),
                            adBuffer.baseAddress,
                            UInt64(adBuffer.count),
                            nil,
                            nonce,
                            keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                        )
                    }
                }
            }
        }
        guard status == 0 else { throw VaultError.cannotOpen(identity: identity) }
        return output
    }

    /// Encrypts a string's UTF-8 for the row named `identity`.
    public func seal(_ plaintext: String, identity: String) throws -> [UInt8] {
        var bytes = Array(plaintext.utf8)
        defer { Sodium.wipe(&bytes) }
        return try seal(bytes, identity: identity)
    }

    /// Decrypts what `seal` produced for the same `identity`.
    ///
    /// Throws `cannotOpen` when the key, the identity or any byte differs.
    public func open(_ sealed: [UInt8], identity: String) throws -> [UInt8] {
        guard !key.isWiped else { throw VaultError.closed }
        guard sealed.count >= Vault.nonceLength + Vault.tagLength else {
            throw VaultError.malformedCiphertext(identity: identity, length: sealed.count)
        }
        let ad = Array(identity.utf8)
        var output = [UInt8](repeating: 0, count: sealed.count - Vault.nonceLength - Vault.tagLength)
        var written: UInt64 = 0
        let status = output.withUnsafeMutableBufferPointer { out in
            sealed.withUnsafeBufferPointer { input in
                ad.withUnsafeBufferPointer { adBuffer in
                    key.withUnsafeBytes { keyBytes in
                        crypto_aead_xchacha20poly1305_ietf_decrypt(
                            out.baseAddress,
                            &written,
                            nil,
                            input.baseAddress! + Vault.nonceLength,
                            UInt64(input.count - Vault.nonceLength),
                            adBuffer.baseAddress,
                            UInt64(adBuffer.count),
                            input.baseAddress!,
                            keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                        )
                    }
                }
            }
        }
        guard status == 0 else {
            Sodium.wipe(&output)
            throw VaultError.cannotOpen(identity: identity)
        }
        return output
    }

    /// Decrypts to a string (UTF-8, invalid sequences repaired).
    public func openString(_ sealed: [UInt8], identity: String) throws -> String {
        var bytes = try open(sealed, identity: identity)
        defer { Sodium.wipe(&bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Key derivation

    private static func deriveKey(
        passphrase: SecureBytes,
        salt: [UInt8],
        parameters: KDFParameters
    ) throws -> SecureBytes {
        let key = SecureBytes(count: keyLength)
        guard key.count == keyLength else {
            throw VaultError.keyDerivationFailed(opsLimit: parameters.opsLimit, memLimit: parameters.memLimit)
        }
        let status = key.withUnsafeMutableBytes { out in
            passphrase.withUnsafeBytes { pass in
                salt.withUnsafeBufferPointer { saltBuffer in
                    crypto_pwhash(
                        out.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        UInt64(out.count),
                        pass.baseAddress!.assumingMemoryBound(to: CChar.self),
                        UInt64(pass.count),
                        saltBuffer.baseAddress!,
                        parameters.opsLimit,
                        Int(parameters.memLimit),
                        parameters.algorithm
                    )
                }
            }
        }
        guard status == 0 else {
            key.wipe()
            throw VaultError.keyDerivationFailed(opsLimit: parameters.opsLimit, memLimit: parameters.memLimit)
        }
        return key
    }

    private static func verifier(for key: SecureBytes) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: verifierLength)
        _ = out.withUnsafeMutableBufferPointer { o in
            verifierLabel.withUnsafeBufferPointer { label in
                key.withUnsafeBytes { k in
                    crypto_generichash(
                        o.baseAddress!,
                        o.count,
                        label.baseAddress,
                        UInt64(label.count),
                        k.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        k.count
                    )
                }
            }
        }
        return out
    }
}
