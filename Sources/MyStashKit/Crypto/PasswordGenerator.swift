import CSodium

/// Strong random passwords for the form's "generate" key and `mystash add --generate`.
///
/// Characters are drawn uniformly with `randombytes_uniform` (no modulo bias)
/// from the chosen character classes; with `avoidingLookAlikes` (the
/// default) without `0/O`, `1/l/I`, so a generated password can be read
/// aloud or typed from a screen. Every chosen class appears at least once
/// when the length allows. 20 characters from 67 symbols carry about 121 bits.
///
///     let password = PasswordGenerator().generate()          // e.g. "x7#Fq-…" (20 characters)
///     let pin = PasswordGenerator(classes: [.digits]).generate(length: 6)
///     let plain = PasswordGenerator(classes: [.lower, .upper, .digits], avoidingLookAlikes: false).generate(length: 32)
package struct PasswordGenerator: Sendable {
    /// A kind of character a password may contain.
    package enum CharacterClass: String, CaseIterable, Sendable {
        case lower, upper, digits, symbols

        /// The class's characters, without look-alikes when asked.
        package func characters(avoidingLookAlikes: Bool) -> [Character] {
            switch self {
            case .lower: return Array(avoidingLookAlikes ? "abcdefghijkmnopqrstuvwxyz" : "abcdefghijklmnopqrstuvwxyz")
            case .upper: return Array(avoidingLookAlikes ? "ABCDEFGHJKLMNPQRSTUVWXYZ" : "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
            case .digits: return Array(avoidingLookAlikes ? "23456789" : "0123456789")
            case .symbols: return Array("!#%+-=?@_*")
            }
        }

        /// Parses `--classes` letters: l(ower) u(pper) d(igits) s(ymbols), e.g. "lud".
        package static func parse(_ letters: String) -> Set<CharacterClass>? {
            var classes = Set<CharacterClass>()
            for letter in letters.lowercased() {
                switch letter {
                case "l": classes.insert(.lower)
                case "u": classes.insert(.upper)
                case "d": classes.insert(.digits)
                case "s": classes.insert(.symbols)
                default: return nil
                }
            }
            return classes.isEmpty ? nil : classes
        }
    }

    /// Letters and digits without look-alikes, plus a few punctuation marks that
    /// survive shells and URLs.
    package static let defaultAlphabet: [Character] =
        CharacterClass.allCases.flatMap { $0.characters(avoidingLookAlikes: true) }

    /// The characters drawn from (uniformly, with repetition).
    package var alphabet: [Character]
    /// The classes each password must contain one of (when the length allows).
    package var requiredClasses: [[Character]]

    package init(alphabet: [Character] = PasswordGenerator.defaultAlphabet) {
        self.alphabet = alphabet.isEmpty ? PasswordGenerator.defaultAlphabet : alphabet
        requiredClasses = []
    }

    /// Draws from `classes` (all four by default), avoiding look-alikes unless told not to.
    package init(classes: Set<CharacterClass>, avoidingLookAlikes: Bool = true) {
        let chosen = CharacterClass.allCases.filter { classes.isEmpty || classes.contains($0) }
        requiredClasses = chosen.map { $0.characters(avoidingLookAlikes: avoidingLookAlikes) }
        alphabet = requiredClasses.flatMap { $0 }
    }

    /// A password of `length` characters (default 20).
    package func generate(length: Int = 20) -> String {
        _ = try? Sodium.ensureInitialized()
        func draw(_ from: [Character]) -> Character { from[Int(randombytes_uniform(UInt32(from.count)))] }
        while true {
            var result = ""
            result.reserveCapacity(length)
            for _ in 0..<max(0, length) { result.append(draw(alphabet)) }
            // Redraw until every required class appears (rejection keeps the distribution uniform).
            if length < requiredClasses.count
                || requiredClasses.allSatisfy({ set in result.contains { set.contains($0) } })
            {
                return result
            }
        }
    }
}
