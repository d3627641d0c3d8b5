/// What a query's words say about the shape of its rows: whether a row of the result can stand
/// for one row of a table, or is made from several (`GROUP BY`, an aggregate, `DISTINCT`, a
/// window, a compound `UNION`) — read from the SQL's tokens, strings, quoted names and comments
/// skipped, and from the definitions of the views it names, in turn.
///
///     QueryShape(sql: "SELECT state, count(*) FROM bank GROUP BY state").refusal
///     // "it groups rows (GROUP BY)"
struct QueryShape {
    /// The words (keywords and bare names), upper-cased, each with whether a `(` follows it and,
    /// when it does, how many arguments are given (top-level commas plus one).
    private(set) var words: [(word: String, arguments: Int?)] = []

    /// Functions that make one value of many rows (SQLite's own; `min` and `max` only with one argument).
    static let aggregates: Set<String> = [
        "COUNT", "SUM", "TOTAL", "AVG", "GROUP_CONCAT", "STRING_AGG", "JSON_GROUP_ARRAY", "JSON_GROUP_OBJECT",
        "JSONB_GROUP_ARRAY", "JSONB_GROUP_OBJECT",
    ]

    /// The shape of `sql`.
    init(sql: String) {
        let characters = Array(sql.unicodeScalars)
        var index = 0
        // Open parentheses: the word before each (index into `words`) and its commas so far.
        var open: [(word: Int?, commas: Int, empty: Bool)] = []
        var lastWord: Int?
        func isWordCharacter(_ c: Unicode.Scalar) -> Bool {
            c.properties.isAlphabetic || c == "_" || ("0"..."9").contains(c) || c == "$" || c.value > 127
        }
        while index < characters.count {
            let c = characters[index]
            switch c {
            case "'", "\"", "`":
                // A string or a quoted name: skipped to its closing quote (doubled quotes inside).
                index += 1
                while index < characters.count {
                    if characters[index] == c {
                        if index + 1 < characters.count, characters[index + 1] == c {
                            index += 2
                            continue
                        }
                        break
                    }
                    index += 1
                }
                index += 1
                lastWord = nil
                if !open.isEmpty { open[open.count - 1].empty = false }
            case "[":
                while index < characters.count, characters[index] != "]" { index += 1 }
                index += 1
                lastWord = nil
                if !open.isEmpty { open[open.count - 1].empty = false }
            case "-" where index + 1 < characters.count && characters[index + 1] == "-":
                while index < characters.count, characters[index] != "\n" { index += 1 }
            case "/" where index + 1 < characters.count && characters[index + 1] == "*":
                index += 2
                while index + 1 < characters.count, !(characters[index] == "*" && characters[index + 1] == "/") {
                    index += 1
                }
                index += 2
            case "(":
                open.append((lastWord, 0, true))
                lastWord = nil
                index += 1
            case ")":
                if let closed = open.popLast(), let word = closed.word {
                    words[word].arguments = closed.empty ? 0 : closed.commas + 1
                }
                lastWord = nil
                index += 1
                if !open.isEmpty { open[open.count - 1].empty = false }
            case ",":
                if !open.isEmpty { open[open.count - 1].commas += 1 }
                lastWord = nil
                index += 1
            case _ where isWordCharacter(c):
                var word = ""
                while index < characters.count, isWordCharacter(characters[index]) {
                    word.unicodeScalars.append(characters[index])
                    index += 1
                }
                words.append((word.uppercased(), nil))
                lastWord = words.count - 1
                if !open.isEmpty { open[open.count - 1].empty = false }
            case _ where c.properties.isWhitespace:
                index += 1
            default:
                lastWord = nil
                index += 1
                if !open.isEmpty { open[open.count - 1].empty = false }
            }
        }
    }

    /// Why a row of the result is made from several rows, in words ("it groups rows (GROUP BY)"),
    /// nil when nothing in the words says so.
    var refusal: String? {
        let names = words.map(\.word)
        for (index, name) in names.enumerated() {
            switch name {
            case "GROUP" where names.indices.contains(index + 1) && names[index + 1] == "BY":
                return "it groups rows (GROUP BY)"
            case "DISTINCT":
                return "it makes its rows distinct (DISTINCT)"
            case "UNION", "INTERSECT", "EXCEPT":
                return "it combines several queries' rows (\(name))"
            case "OVER", "WINDOW":
                return "it computes over a window of rows (\(name))"
            case "HAVING":
                return "it groups rows (HAVING)"
            default:
                break
            }
        }
        for entry in words {
            guard let arguments = entry.arguments else { continue }
            let isAggregate =
                QueryShape.aggregates.contains(entry.word)
                || ((entry.word == "MIN" || entry.word == "MAX") && arguments == 1)
            if isAggregate { return "it makes one row of many (\(entry.word.lowercased())(…))" }
        }
        return nil
    }

    /// Whether the words join tables (`JOIN`).
    var joins: Bool { words.contains { $0.word == "JOIN" } }

    /// The words that may name a table or a view (those not followed by a parenthesis).
    var names: Set<String> { Set(words.filter { $0.arguments == nil }.map(\.word)) }
}
