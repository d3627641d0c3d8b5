import BulkImport
import CLIKit
import CSVImport
import FetchedResultsScripts
import SQLiteStore

/// Why an import of one file did not happen. Nothing was written when one
/// of these is thrown: the file's transaction was rolled back.
///
///     do { _ = try importer.importFile("banklist.csv") }
///     catch let error as BankImportError {
///         error.messages.forEach { printError($0) }
///         return error.exitStatus   // 65 for bad data, 66 for a missing file, 74 for I/O
///     }
package enum BankImportError: Error, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, CSVError)
    /// The file holds no bytes (or only blank lines).
    case emptyFile(path: String)
    /// The file holds a header row but no data rows.
    case headerOnly(path: String)
    /// Required columns are missing from the header row.
    case missingColumns(path: String, names: [String], header: [String])
    /// A quoted field is not closed before the end of the file.
    case unterminatedQuote(path: String, line: Int)
    /// A field or record is longer than ``CSVReader/Limits/standard`` (1 MiB, 16 MiB): the file
    /// is not a bank list (or has no end, like `/dev/zero`).
    case recordTooLong(path: String, line: Int)
    /// Bad rows, in the all-or-nothing mode (or every row bad with `--skip-bad-rows`):
    /// the first ones (at most the listed limit) and how many there were in all.
    case badRows(path: String, issues: [ImportIssue], total: Int)
    /// The store failed (SQLite error, read-only file, …).
    case store(path: String, Error)
    /// A SQLite database that is not one of the original app's stores (see ``LegacyBankStore``).
    case notABankStore(path: String, tables: [String])
    /// One of the original app's stores that could not be read (damaged, unreadable).
    case unreadableStore(path: String, Error)

    /// The `sysexits.h` status for the command line.
    package var exitStatus: Int32 {
        switch self {
        case .unreadable(_, let error): return error.isMissingInput || isUnreadable(error) ? 66 : 74
        case .emptyFile, .headerOnly, .missingColumns, .unterminatedQuote, .recordTooLong, .badRows, .notABankStore:
            return 65
        case .unreadableStore(_, let error):
            if let sqlite = error as? SQLiteError, sqlite.isCannotOpen { return 66 }
            return 65
        case .store(_, let error): return StoreRefusal(error, path: "").status
        }
    }

    private func isUnreadable(_ error: CSVError) -> Bool {
        if case .cannotOpen = error { return true }
        return false
    }

    /// The lines to show a person, in the agreed `FILE:LINE: reason` form.
    package var messages: [String] {
        switch self {
        case .unreadable(_, let error):
            return ["\(error)"]
        case .emptyFile(let path):
            return ["\(path): the file is empty (expected a header row and bank rows)"]
        case .headerOnly(let path):
            return ["\(path): the file has a header row but no banks"]
        case .missingColumns(let path, let names, let header):
            let list = names.map { "\"\($0)\"" }.joined(separator: ", ")
            let found = header.map { "\"\(DisplayText.escapingControls($0))\"" }.joined(separator: ", ")
            return ["\(path):1: missing required column\(names.count == 1 ? "" : "s") \(list) (header: \(found))"]
        case .unterminatedQuote(let path, let line):
            return ["\(path):\(line): a quoted field is not closed before the end of the file"]
        case .recordTooLong(let path, let line):
            return ["\(path):\(line): record too long"]
        case .badRows(let path, let issues, let total):
            var lines = issues.map(\.escapedDescription)
            if total > issues.count {
                lines.append("… and \(total - issues.count) more error\(total - issues.count == 1 ? "" : "s")")
            }
            lines.append(
                "\(path): nothing imported: \(total) bad row\(total == 1 ? "" : "s") (use --skip-bad-rows to import the good rows)"
            )
            return lines
        case .store(let path, let error):
            return ["\(path): \(ErrorReason.text(of: error))"]
        case .notABankStore(let path, let tables):
            let found =
                tables.isEmpty
                ? "no tables"
                : "tables " + tables.prefix(8).map { "\"\(DisplayText.escapingControls($0))\"" }.joined(separator: ", ")
            return [
                "\(path): a SQLite database, but not a bank list: neither a Core Data store of the original FailedBanks app "
                    + "(ZFAILEDBANKINFO, ZFAILEDBANKDETAILS) nor the tutorial's database (failed_banks); it has \(found)"
            ]
        case .unreadableStore(let path, let error):
            return ["\(path): cannot read the old store: \(ErrorReason.text(of: error))"]
        }
    }

    package var description: String { messages.joined(separator: "\n") }

    /// The error for `error`, thrown by the reader of the file at `path`.
    static func reading(_ path: String, _ error: CSVError) -> BankImportError {
        switch error {
        case .unterminatedQuote(let line): return .unterminatedQuote(path: path, line: line)
        case .recordTooLong(let line): return .recordTooLong(path: path, line: line)
        default: return .unreadable(path: path, error)
        }
    }
}
