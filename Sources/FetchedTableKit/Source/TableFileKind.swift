import Glibc

/// What kind of file `FILE` is, told by its content, never by its name:
/// SQLite's 16-byte header, else text (a CSV or TSV file). Anything else is refused.
///
///     switch try TableFileKind.of(path: "school.sqlite") {
///     case .sqlite: …
///     case .csv: …
///     }
package enum TableFileKind: Equatable, Sendable {
    /// A SQLite database (`SQLite format 3\0`).
    case sqlite
    /// Text: a CSV or TSV file.
    case csv

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
            throw .noInput("\(path): no such file")
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
    static func kind(of bytes: ArraySlice<UInt8>, path: String) throws(FetchedTableError) -> TableFileKind {
        if bytes.starts(with: sqliteHeader) { return .sqlite }
        if bytes.isEmpty { throw .data("\(path): the file is empty (neither a SQLite database nor a CSV file)") }
        // Text: no control bytes but tab, line breaks and form feed (UTF-8 and Windows-1252 alike).
        let binary = bytes.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0x0C || $0 == 0x7F }
        if binary { throw .data("\(path): neither a SQLite database nor a CSV file (it holds binary data)") }
        return .csv
    }
}
