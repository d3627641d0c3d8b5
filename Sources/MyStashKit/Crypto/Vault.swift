import CSodium

/// The unlocked key of a password store: seals and opens secrets, and
/// authenticates the store's header and manifest.
///
/// The master key is derived from the master passphrase with Argon2id
/// (`crypto_pwhash`) and lives in guarded memory (`SecureBytes`) until `close()`
/// or deinitialisation wipes it. From it, `crypto_kdf_derive_from_key`
/// derives one subkey per purpose (format 3): sealing, the header MAC, the
/// manifest MAC and the verifier, so no two uses ever share a key.
///
/// Each `seal` pads the plaintext (`sodium_pad`, `Vault.blockSize` bytes, so a
/// ciphertext does not tell a password's length), draws a fresh random
/// 24-byte nonce and encrypts with XChaCha20-Poly1305
/// (`crypto_aead_xchacha20poly1305_ietf`), binding the ciphertext to the row
/// it belongs to through the associated data: a sealed value copied to
/// another row does not open.
///
///     var typed = Array("correct horse battery staple".utf8)
///     let passphrase = SecureBytes(wiping: &typed)
///     let (vault, header) = try Vault.create(passphrase: passphrase, parameters: .interactive)
///     let sealed = try vault.seal(Array("hunter2".utf8), identity: "Password:7")
///     let opened = try vault.open(sealed, identity: "Password:7")   // "hunter2"
///     vault.close()                                                  // key wiped
package final class Vault {
    /// Length of the derived key (`crypto_aead_xchacha20poly1305_ietf_KEYBYTES`).
    package static var keyLength: Int { Int(crypto_aead_xchacha20poly1305_ietf_keybytes()) }
    /// Length of the nonce stored in front of each ciphertext.
    package static var nonceLength: Int { Int(crypto_aead_xchacha20poly1305_ietf_npubbytes()) }
    /// Length of the authentication tag appended to each ciphertext.
    package static var tagLength: Int { Int(crypto_aead_xchacha20poly1305_ietf_abytes()) }
    /// Length of the salt (`crypto_pwhash_SALTBYTES`).
    package static var saltLength: Int { Int(crypto_pwhash_saltbytes()) }
    /// Length of the verifier and of every MAC.
    package static let verifierLength = 32
    /// The fixed message the verifier of formats 1 and 2 authenticates (under the master key).
    package static let verifierLabel = Array("mystash vault verifier v1".utf8)
    /// The fixed message the verifier of format 3 authenticates (under its own subkey).
    static let verifierLabelV3 = Array("mystash vault verifier v3".utf8)
    /// The padding block of `seal` (`sodium_pad`): every plaintext of up to 63 bytes seals to the same length.
    package static let blockSize = 64

    /// The purposes of the subkeys (`crypto_kdf_derive_from_key` ids, context `mystash_`).
    enum Subkey: UInt64 {
        case sealing = 1
        case header = 2
        case manifest = 3
        case verifier = 4
    }

    private let key: SecureBytes
    private var subkeys: [Subkey: SecureBytes] = [:]
    /// The header this key matches (salt, limits, verifier, format).
    package let header: VaultHeader

    private init(key: SecureBytes, header: VaultHeader) {
        self.key = key
        self.header = header
        for purpose in [Subkey.sealing, .header, .manifest, .verifier] {
            subkeys[purpose] = Vault.derive(purpose, from: key)
        }
    }

    /// Makes a new vault for `passphrase` with a fresh random salt, in `format`
    /// (the current one, `VaultHeader.currentFormat`, unless a test makes an old stash).
    ///
    /// Returns the vault and the header to persist. Throws `emptyPassphrase`
    /// for an empty passphrase.
    package static func create(passphrase: SecureBytes, parameters: KDFParameters) throws -> (Vault, VaultHeader) {
        try create(passphrase: passphrase, parameters: parameters, format: VaultHeader.currentFormat)
    }

    static func create(
        passphrase: SecureBytes,
        parameters: KDFParameters,
        format: Int
    ) throws -> (Vault, VaultHeader) {
        try Sodium.ensureInitialized()
        #if !DEBUG
        // A release build never makes a new key below the floor, whatever it is asked (tests, built
        // for debugging, take the minimum cost to stay fast).
        let parameters = parameters.raised(toAtLeast: .floor)
        #endif
        try parameters.validate()
        guard passphrase.count > 0 else { throw VaultError.emptyPassphrase }
        let salt = Sodium.randomBytes(saltLength)
        let key = try deriveKey(passphrase: passphrase, salt: salt, parameters: parameters)
        var header = VaultHeader(salt: salt, parameters: parameters, verifier: [], format: format)
        header.verifier = verifier(for: key, format: format)
        return (Vault(key: key, header: header), header)
    }

    /// Derives the key for `passphrase` under a stored header and checks it
    /// against the verifier of the header's format.
    ///
    /// Throws `wrongPassphrase` when it does not match; nothing is written
    /// anywhere. A header that claims an older format than its verifier was
    /// made for (a stash downgraded to a format without authentication)
    /// throws `headerChanged`.
    package static func unlock(passphrase: SecureBytes, header: VaultHeader) throws -> Vault {
        try Sodium.ensureInitialized()
        try header.parameters.validate()
        guard header.salt.count == saltLength, header.verifier.count == verifierLength else {
            throw VaultError.unsupportedParameters("salt or verifier of the wrong length")
        }
        guard passphrase.count > 0 else { throw VaultError.wrongPassphrase }
        let key = try deriveKey(passphrase: passphrase, salt: header.salt, parameters: header.parameters)
        guard Vault.equal(verifier(for: key, format: header.format), header.verifier) else {
            let claimsOld = header.format < VaultHeader.currentFormat
            let isCurrent = Vault.equal(verifier(for: key, format: VaultHeader.currentFormat), header.verifier)
            key.wipe()
            if claimsOld && isCurrent {
                throw VaultError.headerChanged("its format was set back to \(header.format)")
            }
            throw VaultError.wrongPassphrase
        }
        return Vault(key: key, header: header)
    }

    /// The same key (copied) with a header of `format`, its verifier made for that format.
    func copy(withFormat format: Int) -> Vault {
        let copied = key.withUnsafeBytes { SecureBytes(copying: $0) }
        var newHeader = header
        newHeader.format = format
        newHeader.verifier = Vault.verifier(for: copied, format: format)
        return Vault(key: copied, header: newHeader)
    }

    /// Whether `close()` has wiped the key.
    package var isClosed: Bool { key.isWiped }

    /// Wipes the key and its subkeys. Further `seal`/`open` calls throw `VaultError.closed`.
    package func close() {
        key.wipe()
        for subkey in subkeys.values { subkey.wipe() }
    }

    /// The associated data naming a row, e.g. `"Password:42"`.
    package static func identity(entity: String, rowID: Int64) -> String { "\(entity):\(rowID)" }

    // MARK: - Sealing (format 3)

    /// Encrypts `plaintext` for the row named `identity`, padded to a
    /// multiple of `blockSize` bytes (`blockSize * 4` with `largeBlocks`,
    /// for a password history).
    ///
    /// The result is `nonce ‖ ciphertext ‖ tag` (24 + padded + 16 bytes),
    /// with a nonce drawn fresh from `randombytes_buf`, under the sealing subkey.
    package func seal(_ plaintext: [UInt8], identity: String, largeBlocks: Bool = false) throws -> [UInt8] {
        guard let sealing = subkeys[.sealing], !sealing.isWiped else { throw VaultError.closed }
        var padded = try Vault.pad(plaintext, blockSize: largeBlocks ? Vault.blockSize * 4 : Vault.blockSize)
        defer { Sodium.wipe(&padded) }
        return try Vault.encrypt(padded, identity: identity, key: sealing)
    }

    /// Encrypts a string's UTF-8 for the row named `identity` (see `seal(_:identity:largeBlocks:)`).
    package func seal(_ plaintext: String, identity: String, largeBlocks: Bool = false) throws -> [UInt8] {
        var bytes = Array(plaintext.utf8)
        defer { Sodium.wipe(&bytes) }
        return try seal(bytes, identity: identity, largeBlocks: largeBlocks)
    }

    /// Decrypts what `seal` produced for the same `identity`.
    ///
    /// Throws `cannotOpen` when the key, the identity or any byte differs.
    package func open(_ sealed: [UInt8], identity: String) throws -> [UInt8] {
        guard let sealing = subkeys[.sealing], !sealing.isWiped else { throw VaultError.closed }
        var padded = try Vault.decrypt(sealed, identity: identity, key: sealing)
        defer { Sodium.wipe(&padded) }
        return try Vault.unpad(padded, identity: identity)
    }

    /// Decrypts to a string (UTF-8, invalid sequences repaired).
    package func openString(_ sealed: [UInt8], identity: String) throws -> String {
        var bytes = try open(sealed, identity: identity)
        defer { Sodium.wipe(&bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Sealing of formats 1 and 2 (migration only)

    /// Opens a value sealed by formats 1 and 2: under the master key, unpadded.
    func openLegacy(_ sealed: [UInt8], identity: String) throws -> [UInt8] {
        guard !key.isWiped else { throw VaultError.closed }
        return try Vault.decrypt(sealed, identity: identity, key: key)
    }

    /// Seals as formats 1 and 2 did (for tests that make an old stash).
    func sealLegacy(_ plaintext: String, identity: String) throws -> [UInt8] {
        guard !key.isWiped else { throw VaultError.closed }
        var bytes = Array(plaintext.utf8)
        defer { Sodium.wipe(&bytes) }
        return try Vault.encrypt(bytes, identity: identity, key: key)
    }

    // MARK: - Authentication of the header and the manifest

    /// The MAC of `message` under the subkey of `purpose` (keyed BLAKE2b-256).
    func mac(_ message: [UInt8], purpose: Subkey) throws -> [UInt8] {
        guard let subkey = subkeys[purpose], !subkey.isWiped else { throw VaultError.closed }
        return Vault.keyedHash(message, key: subkey)
    }

    /// Whether `tag` is the MAC of `message` under the subkey of `purpose` (compared in constant time).
    func verify(_ tag: [UInt8], of message: [UInt8], purpose: Subkey) throws -> Bool {
        Vault.equal(try mac(message, purpose: purpose), tag)
    }

    // MARK: - Primitives

    private static func encrypt(_ plaintext: [UInt8], identity: String, key: SecureBytes) throws -> [UInt8] {
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

    private static func decrypt(_ sealed: [UInt8], identity: String, key: SecureBytes) throws -> [UInt8] {
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

    /// ISO/IEC 7816-4 padding (`sodium_pad`) to a multiple of `blockSize`: always at least one byte added.
    private static func pad(_ plaintext: [UInt8], blockSize: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: (plaintext.count / blockSize + 1) * blockSize)
        buffer.replaceSubrange(0..<plaintext.count, with: plaintext)
        var padded = 0
        let status = buffer.withUnsafeMutableBufferPointer {
            sodium_pad(&padded, $0.baseAddress!, plaintext.count, blockSize, $0.count)
        }
        guard status == 0 else {
            Sodium.wipe(&buffer)
            throw VaultError.malformedCiphertext(identity: "padding", length: plaintext.count)
        }
        return Array(buffer.prefix(padded))
    }

    private static func unpad(_ padded: [UInt8], identity: String) throws -> [UInt8] {
        guard !padded.isEmpty else { throw VaultError.malformedCiphertext(identity: identity, length: 0) }
        var length = 0
        let status = padded.withUnsafeBufferPointer { buffer in
            // sodium_unpad only needs the block size to bound its search: the whole buffer is one bound.
            sodium_unpad(&length, buffer.baseAddress!, buffer.count, max(buffer.count, 1))
        }
        guard status == 0 else { throw VaultError.malformedCiphertext(identity: identity, length: padded.count) }
        return Array(padded.prefix(length))
    }

    private static func derive(_ purpose: Subkey, from key: SecureBytes) -> SecureBytes {
        let subkey = SecureBytes(count: keyLength)
        let context = Array("mystash_".utf8).map { CChar(bitPattern: $0) }
        _ = subkey.withUnsafeMutableBytes { out in
            key.withUnsafeBytes { master in
                crypto_kdf_derive_from_key(
                    out.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    out.count,
                    purpose.rawValue,
                    context,
                    master.baseAddress!.assumingMemoryBound(to: UInt8.self)
                )
            }
        }
        return subkey
    }

    private static func keyedHash(_ message: [UInt8], key: SecureBytes) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: verifierLength)
        _ = out.withUnsafeMutableBufferPointer { o in
            message.withUnsafeBufferPointer { m in
                key.withUnsafeBytes { k in
                    crypto_generichash(
                        o.baseAddress!,
                        o.count,
                        m.baseAddress,
                        UInt64(m.count),
                        k.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        k.count
                    )
                }
            }
        }
        return out
    }

    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count, !a.isEmpty else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in sodium_memcmp(x.baseAddress!, y.baseAddress!, x.count) }
        }
            == 0
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

    /// Formats 1 and 2: BLAKE2b keyed with the master key over `verifierLabel`;
    /// format 3: keyed with the verifier subkey over its own label, so a
    /// format-3 file holds nothing an older format would accept.
    private static func verifier(for key: SecureBytes, format: Int) -> [UInt8] {
        if format >= 3 { return keyedHash(verifierLabelV3, key: derive(.verifier, from: key)) }
        return keyedHash(verifierLabel, key: key)
    }
}
