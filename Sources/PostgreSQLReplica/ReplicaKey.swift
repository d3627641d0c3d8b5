/// A row's name in the replica's key table: the server key's texts (or, for
/// a table without a key, the row's content and its occurrence), in one string.
enum ReplicaKey {
    /// `parts` joined with U+001F; a backslash or U+001F inside a part is escaped.
    static func encode(_ parts: [String?]) -> String {
        parts.map { part -> String in
            guard let part else { return "\\N" }
            return part.replacing("\\", with: "\\\\").replacing("\u{1F}", with: "\\u")
        }.joined(separator: "\u{1F}")
    }

    /// The parts of ``encode(_:)``'s string.
    static func decode(_ key: String) -> [String] {
        key.split(separator: "\u{1F}", omittingEmptySubsequences: false).map { part in
            var text = ""
            var escaped = false
            for character in part {
                if escaped {
                    text.append(character == "u" ? "\u{1F}" : character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else {
                    text.append(character)
                }
            }
            return text
        }
    }
}
