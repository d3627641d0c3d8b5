/// What the form's Ctrl-G generates: a length, the character classes and
/// whether look-alike characters (0 O 1 l I) may appear — the options of
/// `mystash add --generate LENGTH --classes LUDS --look-alikes`, written as
/// one line in the form's Ctrl-X g prompt.
///
///     let settings = try GeneratorSettings(parsing: "32 lud look-alikes")
///     settings.generator.generate(length: settings.length)   // 32 letters and digits, 0 and O allowed
///     settings.text                                          // "32 lud look-alikes"
struct GeneratorSettings: Equatable {
    /// Characters per password, 8 to 128 (as `--generate`).
    var length = 20
    /// The classes drawn from (each appears at least once).
    var classes: Set<PasswordGenerator.CharacterClass> = Set(PasswordGenerator.CharacterClass.allCases)
    /// Whether 0 O 1 l I may appear.
    var allowsLookAlikes = false

    /// A line the person typed was not understood.
    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    init() {}

    /// Reads "LENGTH [CLASSES] [look-alikes]": e.g. "24", "16 lud", "32 luds look-alikes".
    init(parsing line: String) throws {
        var sawLength = false
        for word in line.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) {
            if let number = Int(word) {
                guard (8...128).contains(number) else {
                    throw ParseError(description: "the length is 8 to 128, not \(number)")
                }
                length = number
                sawLength = true
            } else if word.lowercased() == "look-alikes" {
                allowsLookAlikes = true
            } else if let parsed = PasswordGenerator.CharacterClass.parse(word) {
                classes = parsed
            } else {
                throw ParseError(description: "“\(word)” is not a length, classes (l u d s) or look-alikes")
            }
        }
        guard sawLength else { throw ParseError(description: "a length is needed, e.g. 20 luds") }
    }

    /// The generator these settings make.
    var generator: PasswordGenerator { PasswordGenerator(classes: classes, avoidingLookAlikes: !allowsLookAlikes) }

    /// The settings as the prompt shows them ("20 luds").
    var text: String {
        let letters = PasswordGenerator.CharacterClass.allCases.filter(classes.contains).map {
            String($0.rawValue.prefix(1))
        }.joined()
        return "\(length) \(letters)" + (allowsLookAlikes ? " look-alikes" : "")
    }
}
