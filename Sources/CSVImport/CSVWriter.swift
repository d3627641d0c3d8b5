import Glibc

/// Writes CSV records with RFC 4180 quoting, buffered, to a file or to memory.
///
/// Fields are quoted when they contain a comma, a quote or a line break (or
/// always, with ``Quoting/all``); quotes inside are doubled.
///
///     let writer = CSVWriter(lineEnding: "\r\n")
///     try writer.write(["Title", "City"])
///     try writer.write(["Smith, Ada", "Reno"])
///     String(decoding: writer.bytes, as: UTF8.self) // "Title,City\r\n\"Smith, Ada\",Reno\r\n"
public final class CSVWriter {
    /// When to put a field in quotes.
    public enum Quoting: Sendable {
        /// Only when needed (comma, quote, CR or LF inside).
        case minimal
        /// Every field.
        case all
    }

    /// The bytes written so far, for a writer made with ``init(lineEnding:)``.
    public private(set) var bytes: [UInt8] = []
    /// The line end written after each record ("\r\n" like most spreadsheets' files, "\n", or "\r").
    public let lineEnding: [UInt8]
    private let fd: Int32?
    private let path: String?

    /// A writer that collects the output in ``bytes``.
    public init(lineEnding: String = "\r\n") {
        self.fd = nil
        self.path = nil
        self.lineEnding = Array(lineEnding.utf8)
    }

    /// A writer that creates (or truncates) the file at `path`; `"-"` is standard output.
    public init(path: String, lineEnding: String = "\r\n") throws {
        if path == "-" {
            fd = STDOUT_FILENO
        } else {
            let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard opened >= 0 else { throw CSVError.cannotOpen(path: path, code: errno) }
            fd = opened
        }
        self.path = path
        self.lineEnding = Array(lineEnding.utf8)
        bytes.reserveCapacity(1 << 20)
    }

    deinit {
        try? flush()
        if let fd, fd != STDOUT_FILENO { close(fd) }
    }

    /// Writes one record.
    public func write(_ fields: [String], quoting: Quoting = .minimal) throws {
        for (i, field) in fields.enumerated() {
            if i > 0 { bytes.append(0x2C) }
            CSVWriter.append(field, quoted: quoting == .all || CSVWriter.needsQuotes(field), to: &bytes)
        }
        bytes.append(contentsOf: lineEnding)
        if fd != nil && bytes.count >= 1 << 20 { try flush() }
    }

    /// Writes one record, choosing for each field whether to quote it.
    public func write(_ fields: [String], quoted: [Bool]) throws {
        for (i, field) in fields.enumerated() {
            if i > 0 { bytes.append(0x2C) }
            CSVWriter.append(field, quoted: quoted[i] || CSVWriter.needsQuotes(field), to: &bytes)
        }
        bytes.append(contentsOf: lineEnding)
        if fd != nil && bytes.count >= 1 << 20 { try flush() }
    }

    /// Writes raw bytes (e.g. a record without its final line end).
    package func writeRaw(_ raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }

    /// Sends buffered bytes to the file (a no-op for a memory writer).
    public func flush() throws {
        guard let fd else { return }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CSVError.writeFailed(path: path ?? "-", code: errno)
            }
            offset += n
        }
        bytes.removeAll(keepingCapacity: true)
    }

    /// True when `field` must be quoted (comma, quote, CR or LF inside).
    package static func needsQuotes(_ field: String) -> Bool {
        field.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }
    }

    /// The field as it appears in a CSV file.
    public static func escape(_ field: String, quoted: Bool = false) -> String {
        var out: [UInt8] = []
        append(field, quoted: quoted || needsQuotes(field), to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func append(_ field: String, quoted: Bool, to out: inout [UInt8]) {
        guard quoted else {
            out.append(contentsOf: field.utf8)
            return
        }
        out.append(0x22)
        for b in field.utf8 {
            out.append(b)
            if b == 0x22 { out.append(0x22) }
        }
        out.append(0x22)
    }
}
