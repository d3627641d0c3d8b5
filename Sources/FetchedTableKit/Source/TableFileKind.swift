import CSVImport
import Foundation
import Glibc

/// What kind of file `FILE` is, told by its content, never by its name:
/// SQLite's 16-byte header; JSON records (an object, or an array, to begin with: JSON Lines or a
/// JSON array of objects); else text (a CSV or TSV file). Anything else is refused.
///
///     switch try TableFileKind.of(path: "school.sqlite") {
///     case .sqlite: …
///     case .csv, .json: …   // read into a cache database
///     }
package enum TableFileKind: Equatable, Sendable {
    /// A SQLite database (`SQLite format 3\0`).
    case sqlite
    /// Text: a CSV or TSV file.
    case csv
    /// JSON Lines, or a JSON array of objects.
    case json

    /// Whether the file's rows are read into a cache database (a CSV or JSON file), not browsed as they are.
    package var isCached: Bool { self != .sqlite }

    /// "a CSV file", "a JSON file": what the file is, in a sentence.
    package var phrase: String {
        switch self {
        case .sqlite: return "a SQLite database"
        case .csv: return "a CSV file"
        case .json: return "a JSON file"
        }
    }

    /// Why the rows of such a file may not be changed: they are its cache's (nil for a SQLite database).
    package var cacheWriteRefusal: String? {
        isCached ? "the rows come from \(phrase)'s cache (a change would not reach the file)" : nil
    }

    /// The bytes that begin every SQLite database file.
    static let sqliteHeader = Array("SQLite format 3\u{0}".utf8)

    /// The kind of the file at `path`.
    ///
    /// - Throws: ``FetchedTableError`` 66 for a missing or unreadable file, a directory, or anything that is not
    ///   a regular file (a FIFO, a pipe such as `<(…)` or a piped `/dev/stdin`, a device: "not a regular file"),
    ///   65 for an empty file or one that is neither (binary bytes in its first 64 KiB).
    package static func of(path: String) throws(FetchedTableError) -> TableFileKind {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .noInput("\(path): \(missingReason(errno: errno))")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .noInput("\(path): is a directory, not a file") }
        // A stream (`mkfifo`, `<(…)`, a pipe as /dev/stdin) is read once: its kind, then its rows and the
        // cache's check would each need it again. Refused at once, before opening it could wait for a writer.
        if (info.st_mode & S_IFMT) != S_IFREG {
            throw .noInput(
                "\(path): not a regular file (\(streamKind(info.st_mode))); save it to a file first (… > data.csv)"
            )
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .noInput("\(path): cannot be opened (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            count += n
        }
        return try kind(of: bytes[..<count], path: path)
    }

    /// Why `stat` found no file: "no such file", or what stood in the way (a loop of symbolic links,
    /// a folder that cannot be searched, a file where a folder should be).
    static func missingReason(errno code: Int32) -> String {
        switch code {
        case ELOOP: return "a loop of symbolic links (or too many of them) leads nowhere"
        case EACCES: return "cannot be reached (Permission denied)"
        case ENOTDIR: return "no such file (a part of the path is not a folder)"
        case ENAMETOOLONG: return "the name is too long"
        default: return "no such file"
        }
    }

    /// What a file that is not a regular file is, for the refusal.
    static func streamKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a pipe"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "not a plain file"
        }
    }

    /// The kind of a file beginning with `bytes`.
    ///
    /// - Throws: 65 for an empty file, UTF-16 text (named, with how to make it UTF-8), binary data.
    static func kind(of bytes: ArraySlice<UInt8>, path: String) throws(FetchedTableError) -> TableFileKind {
        if bytes.starts(with: sqliteHeader) { return .sqlite }
        if bytes.isEmpty { throw .data("\(path): the file is empty (neither a SQLite database nor a CSV file)") }
        if let utf16 = utf16Form(bytes) {
            throw .data(
                "\(path): UTF-16 text (\(utf16)), which fetchedtable does not read; convert it to UTF-8 first "
                    + "(iconv -f UTF-16 -t UTF-8 FILE > FILE-utf8.csv)"
            )
        }
        if JSONRecordReader.layout(of: bytes) != nil { return .json }
        // Text: no control bytes but tab, line breaks and form feed (UTF-8 and Windows-1252 alike).
        let binary = bytes.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0x0C || $0 == 0x7F }
        if binary { throw .data("\(path): neither a SQLite database nor a CSV file (it holds binary data)") }
        return .csv
    }

    /// How the file is UTF-16, if it is: a byte-order mark (`FF FE`, `FE FF`), or text of ASCII letters with
    /// a zero byte beside each (no byte-order mark), which no UTF-8 or Windows-1252 CSV file has.
    static func utf16Form(_ bytes: ArraySlice<UInt8>) -> String? {
        let start = bytes.startIndex
        if bytes.count >= 2 {
            if bytes[start] == 0xFF && bytes[start + 1] == 0xFE { return "little-endian, with a byte-order mark" }
            if bytes[start] == 0xFE && bytes[start + 1] == 0xFF { return "big-endian, with a byte-order mark" }
        }
        let pairs = min(bytes.count / 2, 256)
        guard pairs >= 2 else { return nil }
        var evenZeros = 0
        var oddZeros = 0
        for i in 0..<pairs {
            if bytes[start + 2 * i] == 0 { evenZeros += 1 }
            if bytes[start + 2 * i + 1] == 0 { oddZeros += 1 }
        }
        if oddZeros >= pairs * 9 / 10 && evenZeros == 0 { return "little-endian" }
        if evenZeros >= pairs * 9 / 10 && oddZeros == 0 { return "big-endian" }
        return nil
    }
}
