/// What can go wrong while reading a CSV file.
///
/// Cases carry the context a person needs (the path, the line); the command
/// line layer turns them into the sentence a user reads.
///
///     do { _ = try CSVReader(path: "missing.csv") }
///     catch let error as CSVError { print(error) } // cannot open missing.csv: No such file or directory
public enum CSVError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened (`errno` in `code`).
    case cannotOpen(path: String, code: Int32)
    /// Reading failed after the file was opened (`errno` in `code`).
    case readFailed(path: String, code: Int32)
    /// Writing failed (`errno` in `code`).
    case writeFailed(path: String, code: Int32)
    /// A quoted field was still open at the end of the file; `line` is where the record began.
    case unterminatedQuote(line: Int)
    /// A field or a record is longer than the reader's ``CSVReader/Limits``; `line` is where the
    /// record began. The reader stops there (the input may have no end, like `/dev/zero`).
    case recordTooLong(line: Int)
    /// Required columns are missing from the header row (names as documented, e.g. "Published On").
    case missingColumns([String], found: [String])

    /// True when the error means "the input does not exist" (sysexits 66).
    public var isMissingInput: Bool {
        if case .cannotOpen(_, let code) = self { return code == ENOENT_CODE || code == ENOTDIR_CODE }
        return false
    }

    public var description: String {
        switch self {
        case .cannotOpen(let path, let code):
            return "cannot open \(path): \(errorText(code))"
        case .readFailed(let path, let code):
            return "cannot read \(path): \(errorText(code))"
        case .writeFailed(let path, let code):
            return "cannot write \(path): \(errorText(code))"
        case .unterminatedQuote(let line):
            return "line \(line): a quoted field is not closed before the end of the file"
        case .recordTooLong(let line):
            return "line \(line): record too long"
        case .missingColumns(let names, let found):
            let list = names.map { "\"\($0)\"" }.joined(separator: ", ")
            let header = found.map { "\"\($0)\"" }.joined(separator: ", ")
            return "missing required column\(names.count == 1 ? "" : "s") \(list) (header: \(header))"
        }
    }
}
