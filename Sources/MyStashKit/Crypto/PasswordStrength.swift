import CZxcvbn
import Foundation

/// How hard a password is to guess, estimated by zxcvbn (`libzxcvbn`):
/// dictionary words, names, keyboard patterns, dates and repeats count for
/// little; the estimate is the number of guesses an attacker would need.
///
///     let strength = PasswordStrength(estimating: "correct horse battery staple")
///     strength.word        // "very strong"
///     strength.summary     // "very strong (about 10^20 guesses)"
package struct PasswordStrength: Hashable, Sendable {
    /// zxcvbn's entropy estimate, in bits (guesses ≈ 2^bits).
    package var bits: Double

    /// Estimates `password`; `userWords` (the entry's name, user ID) count as known words.
    package init(estimating password: String, userWords: [String] = []) {
        bits = password.withCString { PasswordStrength.match($0, userWords: userWords) }
    }

    /// Estimates a passphrase held in guarded memory without copying it out: zxcvbn reads a
    /// NUL-terminated copy made in guarded memory too, wiped and freed at once (no `String`,
    /// no array, nothing the heap keeps).
    ///
    ///     let strength = PasswordStrength(estimating: passphrase)   // passphrase: SecureBytes
    package init(estimating passphrase: SecureBytes, userWords: [String] = []) {
        let terminated = SecureBytes(count: passphrase.count + 1)
        defer { terminated.wipe() }
        terminated.withUnsafeMutableBytes { target in
            passphrase.withUnsafeBytes { source in
                if let base = source.baseAddress, let into = target.baseAddress, source.count > 0,
                    target.count > source.count
                {
                    into.copyMemory(from: base, byteCount: source.count)
                }
            }
        }  // SecureBytes starts zeroed: the last byte is the NUL
        bits = terminated.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, bytes.count == passphrase.count + 1 else { return 0 }
            return PasswordStrength.match(base.assumingMemoryBound(to: CChar.self), userWords: userWords)
        }
    }

    /// zxcvbn's estimate of a NUL-terminated password, with `userWords` as its dictionary.
    private static func match(_ password: UnsafePointer<CChar>, userWords: [String]) -> Double {
        let words = userWords.filter { !$0.isEmpty }.map { strdup($0) }
        defer { for pointer in words { free(pointer) } }
        var dictionary: [UnsafePointer<CChar>?] = words.map { UnsafePointer($0) } + [nil]
        return ZxcvbnMatch(password, &dictionary, nil)
    }

    /// The guesses it would take: 2^bits.
    package var guesses: Double { pow(2, bits) }

    /// 0 (very weak) to 4 (very strong), on zxcvbn's scale of guesses (10^3, 10^6, 10^8, 10^10).
    package var score: Int {
        switch guesses {
        case ..<1e3: return 0
        case ..<1e6: return 1
        case ..<1e8: return 2
        case ..<1e10: return 3
        default: return 4
        }
    }

    /// very weak, weak, fair, strong or very strong.
    package var word: String { ["very weak", "weak", "fair", "strong", "very strong"][score] }

    /// "about 10^7 guesses".
    package var guessesPhrase: String { "about 10^\(Int((bits * log10(2)).rounded())) guesses" }

    /// "fair (about 10^7 guesses)".
    package var summary: String { "\(word) (\(guessesPhrase))" }
}
