import FetchedResults
import Foundation

/// `--sort 'KEY [desc], …'`: the columns to order by, each ascending unless
/// followed by `desc` (`asc` may be written too). A column whose name has spaces
/// or commas is written in double quotes (`"first name" desc`).
///
///     let sort = try SortSpecification(parsing: "subject, number desc")
///     sort.keys   // [("subject", true), ("number", false)]
package struct SortSpecification: Equatable, Sendable {
    /// One key: a column (or a section key such as `day(ts)`) and its direction.
    package struct Key: Equatable, Sendable {
        /// The column name as written in the table.
        package var column: String
        /// False for `desc`.
        package var ascending: Bool

        /// A key on `column`.
        package init(column: String, ascending: Bool = true) {
            self.column = column
            self.ascending = ascending
        }
    }

    /// The keys, most significant first.
    package var keys: [Key]

    /// The keys given.
    package init(keys: [Key]) { self.keys = keys }

    /// Parses the `--sort` value; throws a sentence saying what is wrong.
    package init(parsing text: String) throws(OptionError) {
        var keys: [Key] = []
        for part in try OptionText.splitList(text, option: "--sort") {
            var words = try OptionText.words(part, option: "--sort")
            var ascending = true
            if words.count > 1, let last = words.last?.text.lowercased(), !words.last!.quoted,
                last == "desc" || last == "asc"
            {
                ascending = last == "asc"
                words.removeLast()
            }
            guard words.count == 1 || !words.contains(where: \.quoted) else {
                throw OptionError("--sort: \"\(part)\" is not a column and an optional desc (quote a name with spaces)")
            }
            let column = words.count == 1 ? words[0].text : words.map(\.text).joined(separator: " ")
            keys.append(Key(column: column, ascending: ascending))
        }
        guard !keys.isEmpty else { throw OptionError("--sort: no column given") }
        self.keys = keys
    }

    /// The sort descriptors (binary comparison: the order of SQL's `ORDER BY`).
    package var sortDescriptors: [FetchSort] {
        keys.map { FetchSort($0.column, ascending: $0.ascending) }
    }
}

/// A value of an option that cannot be used, as the sentence the user reads (exit status 64).
package struct OptionError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, naming the option.
    package var message: String
    /// An error saying `message`.
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// The small lexical rules the options share: lists split at commas outside
/// double quotes, words split at spaces outside them.
enum OptionText {
    struct Word: Equatable {
        var text: String
        var quoted: Bool
    }

    /// `text` split at commas outside double quotes, each part trimmed; empty parts refused.
    static func splitList(_ text: String, option: String) throws(OptionError) -> [String] {
        var parts: [String] = []
        var current = ""
        var inQuotes = false
        for character in text {
            if character == "\"" { inQuotes.toggle() }
            if character == ",", !inQuotes {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        guard !inQuotes else { throw OptionError("\(option): a double quote is not closed in \"\(text)\"") }
        parts.append(current)
        let trimmed = parts.map { $0.trimmingCharacters(in: .whitespaces) }
        if trimmed.count > 1 || !(trimmed.first ?? "").isEmpty, trimmed.contains(where: \.isEmpty) {
            throw OptionError("\(option): an empty item in \"\(text)\"")
        }
        return trimmed.filter { !$0.isEmpty }
    }

    /// `text` split at spaces outside double quotes; a quoted word keeps its spaces (`""` is a quote).
    static func words(_ text: String, option: String) throws(OptionError) -> [Word] {
        var words: [Word] = []
        var current = ""
        var inQuotes = false
        var quoted = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if character == "\"" {
                if inQuotes, characters.first == "\"" {
                    current.append("\"")
                    characters.removeFirst()
                } else {
                    inQuotes.toggle()
                    quoted = true
                }
            } else if character == " ", !inQuotes {
                if !current.isEmpty || quoted { words.append(Word(text: current, quoted: quoted)) }
                current = ""
                quoted = false
            } else {
                current.append(character)
            }
        }
        guard !inQuotes else { throw OptionError("\(option): a double quote is not closed in \"\(text)\"") }
        if !current.isEmpty || quoted { words.append(Word(text: current, quoted: quoted)) }
        return words
    }
}
