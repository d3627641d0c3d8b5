import BulkImport
import FetchedResultsScripts

extension ImportIssue {
    /// The issue's `FILE:LINE: reason (column "…", value "…")` line with the control characters of
    /// every part escaped by ``DisplayText/escapingControls(_:)`` (a value from a downloaded or
    /// hostile file can hold terminal escape sequences), for standard error.
    ///
    ///     ImportIssue(path: "b.csv", line: 3, reason: "not a valid date", column: "Closing Date",
    ///                 value: "\u{1B}]52;c;aGk=\u{7}").escapedDescription
    ///     // b.csv:3: not a valid date (column "Closing Date", value "\u{1B}]52;c;aGk=\u{7}") — escaped, as text
    var escapedDescription: String {
        ImportIssue(
            path: DisplayText.escapingControls(path),
            line: line,
            reason: DisplayText.escapingControls(reason),
            column: column.map(DisplayText.escapingControls),
            value: value.map(DisplayText.escapingControls)
        ).description
    }
}
