/// What a store keeps about its vault: the salt, the key-derivation limits,
/// a verifier that tells a right passphrase from a wrong one, and the format
/// its values are sealed in.
///
/// None of it is secret. The verifier is a keyed BLAKE2b hash of a fixed
/// label under the derived key: it proves knowledge of the key without
/// revealing it and without decrypting any password. In format 3 the whole
/// header is also authenticated (`Stash` keeps a MAC of it under a subkey),
/// so its format version cannot be set back behind the app's back.
///
/// Formats (`vault_info.sealing`):
/// - 1: the first version: user IDs, URLs, notes and note bodies in plaintext;
/// - 2: every field sealed under the master key, bound to its entry;
/// - 3: fields padded and sealed under a subkey, bound to their entry's
///   revision as well; the header and a manifest of every entry authenticated.
///
///     let (vault, header) = try Vault.create(passphrase: passphrase, parameters: .minimum)
///     // … persist header.salt, header.parameters, header.verifier, header.format …
///     let again = try Vault.unlock(passphrase: passphrase, header: header)
package struct VaultHeader: Hashable, Sendable {
    /// The format this program writes.
    package static let currentFormat = 3

    /// `crypto_pwhash_SALTBYTES` random bytes, fresh for each passphrase.
    package var salt: [UInt8]
    /// The Argon2id limits the key was derived with.
    package var parameters: KDFParameters
    /// `Vault.verifierLength` bytes: BLAKE2b-256 keyed with the vault key (or, in format 3, its verifier subkey).
    package var verifier: [UInt8]
    /// The format of the values (1, 2 or 3: see the type's description).
    package var format: Int

    package init(salt: [UInt8], parameters: KDFParameters, verifier: [UInt8], format: Int = VaultHeader.currentFormat) {
        self.salt = salt
        self.parameters = parameters
        self.verifier = verifier
        self.format = format
    }

    /// The bytes the header MAC covers: every field, each length-prefixed.
    var authenticatedBytes: [UInt8] {
        func part(_ bytes: [UInt8]) -> [UInt8] { Array("\(bytes.count):".utf8) + bytes }
        let numbers =
            [Int64(format), Int64(parameters.algorithm)].map { Array(String($0).utf8) }
            + [parameters.opsLimit, parameters.memLimit].map { Array(String($0).utf8) }
        return Array("mystash vault header v3 ".utf8) + ([salt, verifier] + numbers).flatMap(part)
    }
}
