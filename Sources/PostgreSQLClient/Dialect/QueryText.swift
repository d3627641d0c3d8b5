/// The text of one statement as a query source reads it before sending it: its `:name`
/// parameters made `$1`, `$2`… (the values are then bound, never spliced), its first word, and
/// where a second statement starts, if one does — skipping what is quoted (`'…'`, `E'…'`,
/// `"…"`, `$tag$…$tag$`) and commented (`--`, `/* … */`). A `::` cast is no parameter.
///
///     let text = QueryText("SELECT * FROM orders WHERE customer = :who AND total > :least")
///     text.sql                     // "SELECT * FROM orders WHERE customer = $1 AND total > $2"
///     text.parameterNames          // ["who", "least"]
///     QueryText("SELECT 1; DELETE FROM orders").secondStatementOffset   // 10
///     QueryText("SELECT $1").positionalParameterOffset                // 7
public struct QueryText: Sendable, Equatable {
    /// The statement with each `:name` replaced by `$n` (a name used twice is the same `$n`).
    public let sql: String
    /// The parameters' names in their `$n` order: `$1` is `parameterNames[0]`.
    public let parameterNames: [String]
    /// The first word outside comments, uppercased (`SELECT`, `WITH`, `INSERT`), `(` for a
    /// parenthesized query, nil when there is no statement.
    public let firstWord: String?
    /// Where a second statement starts, in characters from 0, when the text holds more than one.
    public let secondStatementOffset: Int?
    /// Where the first positional parameter the text writes itself (`$1`) is, in characters from
    /// 0: it has no name to give it a value by, and its number would be a `:name`'s.
    public let positionalParameterOffset: Int?

    /// Reads `text`.
    public init(_ text: String) {
        let characters = Array(text)
        var output = ""
        var names: [String] = []
        var first: String?
        var second: Int?
        var positional: Int?
        var ended = false  // a `;` was seen: anything but spaces and comments is a second statement
        var index = 0
        func isIdentifierStart(_ c: Character) -> Bool { c == "_" || c.isLetter }
        func isIdentifierPart(_ c: Character) -> Bool { c == "_" || c.isLetter || c.isNumber || c == "$" }
        /// Copies to the end of a quoted run that closes with `quote` (doubled: kept inside).
        func copyQuoted(_ quote: Character, backslashEscapes: Bool) {
            output.append(characters[index])
            index += 1
            while index < characters.count {
                let c = characters[index]
                output.append(c)
                index += 1
                if backslashEscapes && c == "\\" && index < characters.count {
                    output.append(characters[index])
                    index += 1
                } else if c == quote {
                    if index < characters.count && characters[index] == quote {
                        output.append(quote)
                        index += 1
                    } else {
                        return
                    }
                }
            }
        }
        while index < characters.count {
            let c = characters[index]
            let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
            if c.isWhitespace {
                output.append(c)
                index += 1
                continue
            }
            if c == "-" && next == "-" {
                while index < characters.count && !characters[index].isNewline {
                    output.append(characters[index])
                    index += 1
                }
                continue
            }
            if c == "/" && next == "*" {
                var depth = 0
                while index < characters.count {
                    let here = characters[index]
                    let after: Character? = index + 1 < characters.count ? characters[index + 1] : nil
                    if here == "/" && after == "*" {
                        depth += 1
                        output += "/*"
                        index += 2
                    } else if here == "*" && after == "/" {
                        depth -= 1
                        output += "*/"
                        index += 2
                        if depth == 0 { break }
                    } else {
                        output.append(here)
                        index += 1
                    }
                }
                continue
            }
            if ended {
                if second == nil { second = index }
                output.append(c)
                index += 1
                continue
            }
            if c == ";" {
                ended = true
                output.append(c)
                index += 1
                continue
            }
            if first == nil {
                if c == "(" {
                    first = "("
                } else if isIdentifierStart(c) {
                    var end = index
                    while end < characters.count && isIdentifierPart(characters[end]) { end += 1 }
                    first = String(characters[index..<end]).uppercased()
                } else {
                    first = String(c)
                }
            }
            if c == "'" {
                copyQuoted("'", backslashEscapes: false)
                continue
            }
            if c == "\"" {
                copyQuoted("\"", backslashEscapes: false)
                continue
            }
            if c == "$", let tagEnd = QueryText.dollarTagEnd(characters, from: index) {
                let tag = String(characters[index...tagEnd])
                output += tag
                index = tagEnd + 1
                while index < characters.count {
                    if characters[index] == "$", let end = QueryText.dollarTagEnd(characters, from: index),
                        String(characters[index...end]) == tag
                    {
                        output += tag
                        index = end + 1
                        break
                    }
                    output.append(characters[index])
                    index += 1
                }
                continue
            }
            if c == "$", let next, next.isNumber {
                var end = index + 1
                while end < characters.count && characters[end].isNumber { end += 1 }
                if positional == nil { positional = index }
                output += String(characters[index..<end])
                index = end
                continue
            }
            if c == ":" && next == ":" {
                output += "::"
                index += 2
                continue
            }
            if c == ":", let next, isIdentifierStart(next) {
                var end = index + 1
                while end < characters.count
                    && (characters[end] == "_" || characters[end].isLetter
                        || characters[end].isNumber)
                {
                    end += 1
                }
                let name = String(characters[(index + 1)..<end])
                if !names.contains(name) { names.append(name) }
                output += "$\(names.firstIndex(of: name)! + 1)"
                index = end
                continue
            }
            if isIdentifierStart(c) {
                // A whole word at once: `E'…'` is read above, `x$1` stays a word.
                let start = index
                while index < characters.count && isIdentifierPart(characters[index]) {
                    output.append(characters[index])
                    index += 1
                }
                if index < characters.count && characters[index] == "'" && index - start == 1
                    && "eE".contains(characters[start])
                {
                    copyQuoted("'", backslashEscapes: true)
                }
                continue
            }
            output.append(c)
            index += 1
        }
        sql = output
        parameterNames = names
        firstWord = first
        secondStatementOffset = second
        positionalParameterOffset = positional
    }

    /// The index of the `$` closing a dollar-quote tag that opens at `start` (`$$`, `$body$`), or
    /// nil when `start` opens none (`$1` is a positional parameter).
    static func dollarTagEnd(_ characters: [Character], from start: Int) -> Int? {
        var index = start + 1
        if index < characters.count, characters[index].isNumber { return nil }
        while index < characters.count {
            let c = characters[index]
            if c == "$" { return index }
            guard c == "_" || c.isLetter || c.isNumber else { return nil }
            index += 1
        }
        return nil
    }
}
