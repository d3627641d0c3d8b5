/// What a shell may offer when completing an option's value or a command's arguments.
///
/// The completion scripts (``BashCompletion``, ``ZshCompletion``, ``FishCompletion``) are made
/// from these, so a value set written once in a spec is what `--help`, the man page and Tab show.
///
///     OptionSpec("--format", value: "FORMAT", help: "text, json or csv", completion: .values(["text", "json", "csv"]))
///     OptionSpec("--db", value: "PATH", help: "the store")   // .file, from the placeholder
package enum ValueCompletion: Sendable, Equatable {
    /// Nothing is offered (a name, a number, a predicate — or a secret's name, which must never be listed).
    case none
    /// File names.
    case file
    /// Directory names.
    case directory
    /// One of a known set of words.
    case values([String])
    /// The lines the program prints for `PROGRAM <subcommand> <first argument>` (a hidden
    /// subcommand such as `fetchedtable complete-tables FILE`), offered once the first argument is typed.
    case argumentQuery(subcommand: String)

    /// The completion a value placeholder implies: `PATH`/`FILE`/`DIR` name files or folders, a
    /// placeholder of words joined by `|` (`notes|passwords`) is those words, anything else nothing.
    ///
    ///     ValueCompletion.implied(by: "PATH")              // .file
    ///     ValueCompletion.implied(by: "notes|passwords")   // .values(["notes", "passwords"])
    package static func implied(by placeholder: String?) -> ValueCompletion {
        guard let placeholder else { return .none }
        let word = placeholder.trimmingCharacters(in: ["[", "]", ".", "…"])
        if word.contains("|"), word.allSatisfy({ $0.isLowercase || $0 == "|" || $0 == "-" }) {
            return .values(word.split(separator: "|").map(String.init))
        }
        switch word {
        case "PATH", "FILE", "FILES", "CSV", "DATABASE": return .file
        case "DIR", "DIRECTORY", "FOLDER": return .directory
        default: return .none
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in characters: Set<Character>) -> String {
        var text = Substring(self)
        while let first = text.first, characters.contains(first) { text = text.dropFirst() }
        while let last = text.last, characters.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
