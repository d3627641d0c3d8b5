/// Failures of the password vault: key derivation, sealing and opening.
///
/// Each case carries what a person needs to understand it; the command-line
/// layer turns them into sentences.
///
///     do { try vault.open(sealed, associatedData: ad) }
///     catch VaultError.cannotOpen(let identity) { print("\(identity) is damaged") }
package enum VaultError: Error, Equatable, CustomStringConvertible {
    /// `sodium_init` failed: the library cannot be used in this process.
    case sodiumUnavailable
    /// The passphrase was empty.
    case emptyPassphrase
    /// The passphrase does not match the store's verifier.
    case wrongPassphrase
    /// Argon2id could not derive a key (usually: not enough memory for the limits).
    case keyDerivationFailed(opsLimit: UInt64, memLimit: UInt64)
    /// Stored KDF parameters are outside what this program accepts (a damaged or hostile file).
    case unsupportedParameters(String)
    /// A sealed value failed authentication: wrong key, wrong row, or tampered bytes.
    case cannotOpen(identity: String)
    /// A sealed value is shorter than a nonce plus a tag.
    case malformedCiphertext(identity: String, length: Int)
    /// The vault was closed (its key wiped) and cannot be used any more.
    case closed
    /// The stored header (format version, salt, limits) does not match its
    /// authentication: it was changed behind the app's back.
    case headerChanged(String)

    package var description: String {
        switch self {
        case .sodiumUnavailable: return "libsodium could not be initialised"
        case .emptyPassphrase: return "the passphrase must not be empty"
        case .wrongPassphrase: return "wrong passphrase"
        case .keyDerivationFailed(let ops, let mem):
            return "key derivation failed (Argon2id, opslimit \(ops), memlimit \(mem) bytes): out of memory?"
        case .unsupportedParameters(let detail): return "unsupported key-derivation parameters: \(detail)"
        case .cannotOpen(let identity): return "cannot decrypt \(identity): wrong key, moved or damaged ciphertext"
        case .malformedCiphertext(let identity, let length):
            return "ciphertext of \(identity) is malformed (\(length) bytes)"
        case .closed: return "the vault is locked"
        case .headerChanged(let what):
            return "the stash's header was changed behind mystash's back (\(what)); nothing was opened or sealed"
        }
    }
}
