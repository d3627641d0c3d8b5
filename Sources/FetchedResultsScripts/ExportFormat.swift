/// A file format rows are saved in (``ViewExport``), told by the file name's extension.
///
///     ExportFormat(path: "ca-banks.csv")      // .csv
///     ExportFormat(path: "log.ndjson")        // .jsonLines
///     ExportFormat(path: "notes.txt")         // nil: ExportFormat.extensionsDescription says which there are
public enum ExportFormat: String, CaseIterable, Sendable {
    /// RFC 4180 CSV: a header row, fields quoted when they hold a comma, a quote or a line break
    /// (quotes doubled), CRLF line ends, UTF-8. `.csv`.
    case csv
    /// The same with tabs between fields (a field holding a tab is quoted), LF line ends. `.tsv`, `.tab`.
    case tsv
    /// One JSON object a line, its keys the columns' names, its values typed (numbers, `true`/`false`,
    /// `null`). `.jsonl`, `.ndjson`.
    case jsonLines
    /// A new table in a SQLite database file (made when there is none), its columns typed.
    /// `.sqlite`, `.sqlite3`, `.db`.
    case sqlite

    /// The format of a file named `path`, by its extension (any case); nil for another one.
    public init?(path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "csv": self = .csv
        case "tsv", "tab": self = .tsv
        case "jsonl", "ndjson": self = .jsonLines
        case "sqlite", "sqlite3", "db": self = .sqlite
        default: return nil
        }
    }

    /// The extensions there are, in a sentence: ".csv, .tsv, .jsonl or .sqlite" (`.tab`, `.ndjson`,
    /// `.sqlite3` and `.db` are taken too).
    package static let extensionsDescription = ".csv, .tsv, .jsonl or .sqlite"

    /// The format's name, as a person reads it: "CSV", "TSV", "JSON Lines", "SQLite".
    public var name: String {
        switch self {
        case .csv: return "CSV"
        case .tsv: return "TSV"
        case .jsonLines: return "JSON Lines"
        case .sqlite: return "SQLite"
        }
    }
}
