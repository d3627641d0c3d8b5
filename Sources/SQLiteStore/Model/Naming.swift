/// The words of a Swift-style name, split before each capital that starts a word: after a
/// lower-case letter or a digit, or at the last capital of an acronym followed by a lower-case
/// letter. The letters keep their case.
///
///     camelCaseWords("publishedOn")   // ["published", "On"]
///     camelCaseWords("userID")        // ["user", "ID"]
///     camelCaseWords("URLValue")      // ["URL", "Value"]
package func camelCaseWords(_ name: String) -> [String] {
    let chars = Array(name)
    var words: [String] = []
    var word = ""
    for (i, c) in chars.enumerated() {
        if c.isUppercase && i > 0 {
            let prev = chars[i - 1]
            let nextIsLower = i + 1 < chars.count && chars[i + 1].isLowercase
            if prev.isLowercase || prev.isNumber || (prev.isUppercase && nextIsLower) {
                words.append(word)
                word = ""
            }
        }
        word.append(c)
    }
    if !word.isEmpty || words.isEmpty { words.append(word) }
    return words
}

/// Turns Swift-style names into the snake_case names people see in `sqlite3`: the
/// ``camelCaseWords(_:)``, their capitals lower-cased, joined by underscores.
///
///     snakeCase("Book") // "book"
///     snakeCase("publishedOn")      // "published_on"
///     snakeCase("userID")         // "user_id"
///     snakeCase("URLValue")       // "url_value"
package func snakeCase(_ name: String) -> String {
    camelCaseWords(name).map { word in
        String(word.flatMap { $0.isUppercase ? Array($0.lowercased()) : [$0] })
    }.joined(separator: "_")
}
