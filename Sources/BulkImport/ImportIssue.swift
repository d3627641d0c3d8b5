/// One bad row (or a problem with the file) found while importing, with
/// what a person needs to fix it.
///
/// Its description is the agreed message form, `FILE:LINE: reason (column "…", value "…")`:
///
///     let issue = ImportIssue(path: "students.csv", line: 4, reason: "not a whole number",
///                             column: "Number", value: "x7")
///     print(issue)  // students.csv:4: not a whole number (column "Number", value "x7")
public struct ImportIssue: Sendable, Equatable, CustomStringConvertible {
    /// The file, as named on the command line.
    public var path: String
    /// The 1-based line on which the row starts.
    public var line: Int
    /// What is wrong, e.g. "not a valid date".
    public var reason: String
    /// The documented column name, when the problem is one field.
    public var column: String?
    /// The field as read (trimmed), when the problem is one field.
    public var value: String?

    /// An issue at `path:line`, naming the column and its value when one field is at fault.
    public init(path: String, line: Int, reason: String, column: String? = nil, value: String? = nil) {
        self.path = path
        self.line = line
        self.reason = reason
        self.column = column
        self.value = value
    }

    /// `FILE:LINE: reason`, with the column and value when one field is at fault.
    public var description: String {
        var text = "\(path):\(line): \(reason)"
        switch (column, value) {
        case let (column?, value?): text += " (column \"\(column)\", value \"\(ImportIssue.quoteSafe(value))\")"
        case let (column?, nil): text += " (column \"\(column)\")"
        default: break
        }
        return text
    }

    /// Shows control characters (a line break inside a field) visibly: `ImportIssue.quoteSafe("a\nb")` is `a\\nb`.
    package static func quoteSafe(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\r": out += "\\r"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
