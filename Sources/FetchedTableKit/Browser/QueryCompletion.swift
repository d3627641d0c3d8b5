/// Tab in the `:` query line: the names that complete the word before the cursor — the
/// columns of the tables the query names first, then the file's tables, then the other
/// tables' columns — each once, in that order, any case (the word `stu` completes to `student`).
///
///     let names = QueryCompletion(tables: ["student": ["id", "name", "subject"], "teacher": ["name"]])
///     let found = names.candidates(in: "SELECT na FROM student", cursor: 9)
///     found?.words      // ["name"]
///     found?.range      // 7..<9 (the characters of "na")
struct QueryCompletion {
    /// Each table's columns, by the table's name.
    let tables: [String: [String]]

    /// The word before `cursor` (letters, digits, `_`; after `alias.` too) and the names that
    /// start with it; nil when the cursor is not after a word's first character, or none does.
    func candidates(in text: String, cursor: Int) -> (range: Range<Int>, words: [String])? {
        let characters = Array(text)
        let end = max(0, min(cursor, characters.count))
        var start = end
        while start > 0, QueryCompletion.isWordCharacter(characters[start - 1]) { start -= 1 }
        guard start < end else { return nil }
        let word = String(characters[start..<end]).lowercased()
        let words = orderedNames(for: text).filter { $0.lowercased().hasPrefix(word) && $0.lowercased() != word }
        guard !words.isEmpty else { return nil }
        return (start..<end, words)
    }

    /// Every name in the order offered: the named tables' columns, the tables, the rest's columns.
    func orderedNames(for text: String) -> [String] {
        let named = QueryCompletion.words(of: text)
        let tableNames = tables.keys.sorted()
        let mentioned = tableNames.filter { named.contains($0.lowercased()) }
        var names: [String] = []
        var seen: Set<String> = []
        func add(_ name: String) { if seen.insert(name).inserted { names.append(name) } }
        for table in mentioned { tables[table]?.forEach(add) }
        tableNames.forEach(add)
        for table in tableNames where !mentioned.contains(table) { tables[table]?.forEach(add) }
        return names
    }

    /// The words of `text`, lower-cased (to find the tables it names).
    static func words(of text: String) -> Set<String> {
        Set(text.split { !isWordCharacter($0) }.map { $0.lowercased() })
    }

    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
}
