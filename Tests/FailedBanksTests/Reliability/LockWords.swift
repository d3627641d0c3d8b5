import Testing

/// Words that must never reach a person from a lock conflict, on screen or on a process's stderr.
enum LockWords {
    static let all = ["database is locked", "SQLITE_BUSY", "database table is locked", "busy"]

    /// The first of the words in `text`, if any (case insensitive).
    static func first(in text: String) -> String? {
        all.first { text.localizedCaseInsensitiveContains($0) }
    }

    /// Expects none of the words in each of `outputs` (a process's name and its standard error).
    static func expectNone(
        in outputs: [(name: String, text: String)],
        _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (name, text) in outputs {
            for word in all {
                #expect(
                    !text.localizedCaseInsensitiveContains(word),
                    "\(name) stderr shows \"\(word)\": \(text.prefix(600)); \(context)",
                    sourceLocation: sourceLocation
                )
            }
        }
    }
}
