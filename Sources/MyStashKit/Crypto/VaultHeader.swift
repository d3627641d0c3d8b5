/// What a store keeps about its vault: the salt, the key-derivation limits and
/// a verifier that tells a right passphrase from a wrong one.
///
/// None of it is secret. The verifier is a keyed BLAKE2b hash of a fixed
/// label under the derived key: it proves knowledge of the key without
/// revealing it and without decrypting any password.
///
///     let (vault, header) = try Vault.create(passphrase: passphrase, parameters: .minimum)
///     // … persist header.salt, header.parameters, header.verifier …
///     let again = try Vault.unlock(passphrase: passphrase, header: header)
public struct VaultHeader: Hashable, Sendable {
    /// `crypto_pwhash_SALTBYTES` random bytes, fresh for each passphrase.
    public var salt: [UInt8]
    /// The Argon2id limits the key was derived with.
    public var parameters: KDFParameters
    /// `Vault.verifierLength` bytes: BLAKE2b-256 keyed with the vault key over `Vault.verifierLabel`.
    public var verifier: [UInt8]

    public init(salt: [UInt8], parameters: KDFParameters, verifier: [UInt8]) {
        self.salt = salt
        self.parameters = parameters
        self.verifier = verifier
    }
}
