/// Turns Swift-style names into the snake_case names people see in `sqlite3`.
///
///     snakeCase("Book") // "book"
///     snakeCase("publishedOn")      // "published_on"
///     snakeCase("userID")         // "user_id"
///     snakeCase("URLValue")       // "url_value"
package func snakeCase(_ name: String) -> String {
    let chars = Array(name)
    var out = ""
    out.reserveCapacity(chars.count + 4)
    for (i, c) in chars.enumerated() {
        if c.isUppercase {
            if i > 0 {
                let prev = chars[i - 1]
                let nextIsLower = i + 1 < chars.count && chars[i + 1].isLowercase
                if prev.isLowercase || prev.isNumber || (prev.isUppercase && nextIsLower) {
                    out.append("_")
                }
            }
            out += c.lowercased()
        } else {
            out.append(c)
        }
    }
    return out
}
