import CSodium

/// Strong random passwords for the form's "generate" key.
///
/// Characters are drawn uniformly with `randombytes_uniform` (no modulo bias)
/// from an alphabet without look-alikes (no `0/O`, `1/l/I`), so a generated
/// password can be read aloud or typed from a screen.
/// 20 characters from 70 symbols carry about 122 bits of entropy.
///
///     let password = PasswordGenerator().generate()          // e.g. "x7#Fq-…" (20 characters)
///     let pin = PasswordGenerator(alphabet: Array("23456789")).generate(length: 6)
public struct PasswordGenerator: Sendable {
    /// Letters and digits without look-alikes, plus a few punctuation marks that
    /// survive shells and URLs.
    public static let defaultAlphabet: [Character] =
        Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789") + Array("!#%+-=?@_*")

    /// The characters drawn from (uniformly, with repetition).
    public var alphabet: [Character]

    public init(alphabet: [Character] = PasswordGenerator.defaultAlphabet) {
        self.alphabet = alphabet.isEmpty ? PasswordGenerator.defaultAlphabet : alphabet
    }

    /// A password of `length` characters (default 20).
    public func generate(length: Int = 20) -> String {
        _ = try? Sodium.ensureInitialized()
        var result = ""
        result.reserveCapacity(length)
        for _ in 0..<max(0, length) {
            result.append(alphabet[Int(randombytes_uniform(UInt32(alphabet.count)))])
        }
        return result
    }
}
