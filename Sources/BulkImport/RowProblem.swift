/// What is wrong with one row, found by a mapping's row check.
///
/// The importer turns it into an ``ImportIssue`` at the row's `FILE:LINE`.
///
///     let problem = RowProblem(reason: "not a whole number", column: "Number", value: "x7")
public struct RowProblem: Error, Sendable, Equatable {
    /// What is wrong, e.g. "not a valid date".
    public var reason: String
    /// The documented column name, when the problem is one field.
    public var column: String?
    /// The field as read (trimmed), when the problem is one field.
    public var value: String?

    /// A problem described by `reason`, naming the column and its value when one field is at fault.
    public init(reason: String, column: String? = nil, value: String? = nil) {
        self.reason = reason
        self.column = column
        self.value = value
    }
}
