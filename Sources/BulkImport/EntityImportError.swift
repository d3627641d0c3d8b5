import CSVImport
import SQLiteStore

/// Why an ``EntityImporter`` imported nothing from a file. The file's
/// transaction was rolled back: the store is as it was.
///
///     do { _ = try importer.importFile("students.csv") }
///     catch let error as EntityImportError {
///         error.messages.forEach { print($0) }   // students.csv:4: not a whole number (column "Number", value "x7") …
///         exit(error.exitStatus)                 // 65 for bad data, 66 for a missing file, 74 for I/O
///     }
public enum EntityImportError: Error, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, CSVError)
    /// The file holds no header row.
    case emptyFile(path: String)
    /// Required columns are missing from the header row.
    case missingColumns(path: String, names: [String], header: [String])
    /// The CSV is malformed at `line` (an unterminated quote, a record too long).
    case malformed(path: String, line: Int, reason: String)
    /// The JSON is malformed at `line` and `column` (in characters, from 1): `FILE:LINE:COLUMN: reason`.
    case malformedJSON(path: String, line: Int, column: Int, reason: String)
    /// Bad rows, in the all-or-nothing mode: the first ones (at most the listed limit) and how many in all.
    case badRows(path: String, issues: [ImportIssue], total: Int)
    /// The store failed (SQLite error, read-only file, …).
    case store(path: String, Error)

    /// The `sysexits.h` status: 65 bad data, 66 no input, 74 I/O.
    public var exitStatus: Int32 {
        switch self {
        case .unreadable(_, let error):
            if case .cannotOpen = error { return 66 }
            return 74
        case .emptyFile, .missingColumns, .malformed, .malformedJSON, .badRows: return 65
        case .store: return 74
        }
    }

    /// The lines to show a person, in the `FILE:LINE: reason` form.
    public var messages: [String] {
        switch self {
        case .unreadable(_, let error):
            return ["\(error)"]
        case .emptyFile(let path):
            return ["\(path): the file is empty (expected a header row)"]
        case .missingColumns(let path, let names, let header):
            let list = names.map { "\"\($0)\"" }.joined(separator: ", ")
            let found = header.map { "\"\($0)\"" }.joined(separator: ", ")
            return ["\(path):1: missing required column\(names.count == 1 ? "" : "s") \(list) (header: \(found))"]
        case .malformed(let path, let line, let reason):
            return ["\(path):\(line): \(reason)"]
        case .malformedJSON(let path, let line, let column, let reason):
            return ["\(path):\(line):\(column): \(reason)"]
        case .badRows(let path, let issues, let total):
            var lines = issues.map(\.description)
            if total > issues.count {
                lines.append("… and \(total - issues.count) more error\(total - issues.count == 1 ? "" : "s")")
            }
            lines.append("\(path): nothing imported: \(total) bad row\(total == 1 ? "" : "s")")
            return lines
        case .store(let path, let error):
            return ["\(path): \(error)"]
        }
    }

    /// The messages, one a line.
    public var description: String { messages.joined(separator: "\n") }

    static func reading(_ path: String, _ error: CSVError) -> EntityImportError {
        switch error {
        case .unterminatedQuote(let line):
            return .malformed(path: path, line: line, reason: "a quoted field is not closed before the end of the file")
        case .recordTooLong(let line): return .malformed(path: path, line: line, reason: "record too long")
        default: return .unreadable(path: path, error)
        }
    }
}
