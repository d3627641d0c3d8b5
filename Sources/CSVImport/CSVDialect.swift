import Glibc

/// How a CSV file is written: the byte between fields and the text encoding,
/// found by looking at the file's first bytes (``sniff(_:)``).
///
/// The first row is always the header. The delimiter is the one of `,` tab
/// `;` `|` that splits the header into more than one field and the most
/// sampled records into as many fields as the header — quoted fields are
/// respected, so a comma inside quotes does not count; a tie goes to the
/// earlier in that order, and a file of one column is comma-separated. The encoding is
/// UTF-8 when the sample is valid UTF-8 (a leading byte-order mark is noted
/// and skipped by ``CSVReader``), else Windows-1252, the code page of files
/// saved by Excel on Windows; fields are decoded one by one all the same
/// (``string(from:)``), as a file may mix the two.
///
///     let dialect = CSVDialect.sniff(Array("name;city\nAda;Paris\n".utf8))
///     dialect.delimiter == UInt8(ascii: ";")      // true
///     dialect.encoding == .utf8                   // true
///     let reader = try CSVReader(path: "people.csv", delimiter: dialect.delimiter)
public struct CSVDialect: Sendable, Hashable, CustomStringConvertible {
    /// The text encodings a CSV file may use.
    public enum Encoding: Sendable, Hashable {
        /// UTF-8 (ASCII included).
        case utf8
        /// Windows code page 1252 (a superset of Latin-1): one byte a character.
        case windows1252
    }

    /// The byte between fields: `,` `;` tab or `|`.
    public var delimiter: UInt8
    /// How the file's text is encoded.
    public var encoding: Encoding
    /// True when the file starts with a UTF-8 byte-order mark (skipped by the reader).
    public var hasByteOrderMark: Bool

    /// A dialect: `delimiter`, `encoding`, with or without a byte-order mark.
    public init(delimiter: UInt8 = UInt8(ascii: ","), encoding: Encoding = .utf8, hasByteOrderMark: Bool = false) {
        self.delimiter = delimiter
        self.encoding = encoding
        self.hasByteOrderMark = hasByteOrderMark
    }

    /// The delimiters ``sniff(_:)`` chooses from, in order of preference on a tie.
    package static let candidateDelimiters: [UInt8] = [UInt8(ascii: ","), 0x09, UInt8(ascii: ";"), UInt8(ascii: "|")]

    /// How many bytes ``sniff(path:)`` reads.
    public static let sampleSize = 1 << 16

    /// How many records of the sample decide the delimiter.
    static let sampledRecords = 50

    /// The delimiter's name as a person says it: `comma`, `semicolon`, `tab`, `pipe`.
    package var delimiterName: String {
        switch delimiter {
        case UInt8(ascii: ","): return "comma"
        case UInt8(ascii: ";"): return "semicolon"
        case 0x09: return "tab"
        case UInt8(ascii: "|"): return "pipe"
        default: return "byte 0x" + String(delimiter, radix: 16)
        }
    }

    public var description: String {
        let name = encoding == .utf8 ? (hasByteOrderMark ? "UTF-8 with BOM" : "UTF-8") : "Windows-1252"
        return "\(delimiterName)-separated, \(name)"
    }

    /// The dialect of a file whose first bytes are `bytes` (see the type's summary). `bytes` may end in
    /// the middle of a record or of a character: a sample is cut at its last line end.
    public static func sniff(_ bytes: some Collection<UInt8>) -> CSVDialect {
        var sample = Array(bytes)
        var bom = false
        if sample.count >= 3 && sample[0] == 0xEF && sample[1] == 0xBB && sample[2] == 0xBF {
            bom = true
            sample.removeFirst(3)
        }
        // A sample that fills the read may end inside a character or a record: keep whole lines.
        if sample.count >= sampleSize, let lastLineEnd = sample.lastIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
            sample.removeSubrange((lastLineEnd + 1)...)
        }
        let valid = sample.withUnsafeBytes { CSVTextDecoding.isASCII($0) || CSVTextDecoding.isValidUTF8($0) }
        return CSVDialect(
            delimiter: bestDelimiter(sample),
            encoding: bom || valid ? .utf8 : .windows1252,
            hasByteOrderMark: bom
        )
    }

    /// The dialect of the file at `path`, from its first ``sampleSize`` bytes.
    public static func sniff(path: String) throws -> CSVDialect {
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw CSVError.cannotOpen(path: path, code: errno) }
        defer { close(fd) }
        var sample = [UInt8](repeating: 0, count: sampleSize)
        var filled = 0
        while filled < sampleSize {
            let n = sample.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, sampleSize - filled) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CSVError.readFailed(path: path, code: errno)
            }
            if n == 0 { break }
            filled += n
        }
        return sniff(sample[0..<filled])
    }

    /// Text of a field's bytes, decided field by field as ``CSVTextDecoding/string(from:)`` does: UTF-8 when
    /// the field is valid UTF-8, else Windows-1252 — whatever ``encoding`` the sample suggested, since a
    /// file may mix both (one Windows-1252 byte among UTF-8 text must not turn `café` into `cafÃ©`).
    public func string(from bytes: UnsafeRawBufferPointer) -> String {
        CSVTextDecoding.string(from: bytes)
    }

    /// The candidate that splits the header into more than one field and the most sampled records into as
    /// many fields as the header (the earlier candidate on a tie). Measuring against the header keeps a
    /// `;` file with decimal commas (`1,5`) semicolon-separated: its header has no commas.
    private static func bestDelimiter(_ sample: [UInt8]) -> UInt8 {
        var best = candidateDelimiters[0]
        var bestAgreeing = 0
        for candidate in candidateDelimiters {
            let counts = fieldCounts(sample, delimiter: candidate)
            guard let header = counts.first, header > 1 else { continue }
            let agreeing = counts.reduce(0) { $0 + ($1 == header ? 1 : 0) }
            if agreeing > bestAgreeing {
                best = candidate
                bestAgreeing = agreeing
            }
        }
        return best
    }

    /// The field count of each of the first records of `sample` split at `delimiter` (quotes respected).
    private static func fieldCounts(_ sample: [UInt8], delimiter: UInt8) -> [Int] {
        let reader = CSVReader(bytes: sample, delimiter: delimiter)
        var record = CSVRecord()
        var counts: [Int] = []
        // A sample cut inside a quoted field ends with an error: the records before it count.
        while counts.count < sampledRecords, (try? reader.read(into: &record)) == true {
            counts.append(record.count)
        }
        return counts
    }
}
