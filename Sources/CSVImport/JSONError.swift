/// What makes a JSON or JSON Lines file unreadable as records, and where.
///
/// `line` counts line feeds from 1; `column` counts characters (Unicode scalars) from 1 on that
/// line, so a message points where an editor shows the cursor. Opening and reading the file
/// fail with `CSVError.cannotOpen` and `CSVError.readFailed`, as a CSV file's do.
///
///     do { _ = try JSONRecordReader(bytes: Array("{\"a\": tru}".utf8)).readAll() }
///     catch let error as JSONError { print(error) }   // 1:7: invalid literal (expected true)
public enum JSONError: Error, Equatable, CustomStringConvertible {
    /// The text is not JSON, or not JSON made of objects, at `line` and `column`.
    case syntax(line: Int, column: Int, reason: String)
    /// A record (one top-level object) is longer than the reader's limits; `line` and `column`
    /// are where it begins. The reader stops there (the input may have no end, like `/dev/zero`).
    case recordTooLong(line: Int, column: Int)

    /// The line the error is on.
    public var line: Int {
        switch self {
        case .syntax(let line, _, _), .recordTooLong(let line, _): return line
        }
    }

    /// The column (in characters, from 1) the error is at.
    public var column: Int {
        switch self {
        case .syntax(_, let column, _), .recordTooLong(_, let column): return column
        }
    }

    /// What is wrong, without the position.
    public var reason: String {
        switch self {
        case .syntax(_, _, let reason): return reason
        case .recordTooLong: return "record too long"
        }
    }

    public var description: String { "\(line):\(column): \(reason)" }
}
