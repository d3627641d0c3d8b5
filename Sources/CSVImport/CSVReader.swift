import Glibc

/// A streaming RFC 4180 CSV reader over bytes.
///
/// Reads the input in fixed-size chunks, so memory stays constant however
/// large the file is. Handles quoted fields with embedded commas, doubled
/// quotes (`""`) and line breaks; CRLF, LF and lone CR line ends (mixed, too);
/// a UTF-8 byte-order mark; and a last record without a final line end.
/// Blank lines between records are skipped. Fields are separated by commas,
/// or by the `delimiter` given (`;`, tab, `|`: see `CSVDialect`). Each record carries the 1-based
/// line on which it starts, counting line breaks inside quoted fields, so
/// error messages can say `FILE:LINE`.
///
/// Lenient where real files are sloppy: a quote inside an unquoted field is
/// kept as a character, and text after a closing quote is appended to the
/// field. Two errors are unrecoverable: a quoted field still open at the end
/// of the input (``CSVError/unterminatedQuote(line:)``), and a field or record
/// longer than the reader's ``Limits`` (``CSVError/recordTooLong(line:)``), so
/// that input without an end (`/dev/zero`, a 2 GB line) stops the reader
/// after a few megabytes instead of filling memory.
///
///     let reader = try CSVReader(path: "books.csv")
///     var record = CSVRecord()
///     while try reader.read(into: &record) {
///         let name = record[0]
///         record.withUnsafeBytes(at: 3) { isbn in /* parse digits */ }
///     }
public final class CSVReader {
    private enum Source {
        case file(Int32)
        case memory([UInt8])
    }

    private enum State {
        case startOfRecord, startOfField, unquoted, quoted, quoteInQuoted, finished
    }

    /// How long a field and a record may be. Past a limit, ``CSVReader/read(into:)`` throws
    /// ``CSVError/recordTooLong(line:)`` having buffered at most the limit plus one chunk.
    ///
    /// A record's length is the bytes of its fields (quotes removed, `""` counted once) plus one
    /// per comma between them.
    ///
    ///     let reader = CSVReader(bytes: bytes, limits: .init(maxFieldBytes: 64, maxRecordBytes: 256))
    public struct Limits: Sendable, Equatable {
        /// The most bytes one field may hold.
        public var maxFieldBytes: Int
        /// The most bytes one record may hold, counting one byte per comma.
        public var maxRecordBytes: Int
        /// The most fields one record may have.
        public var maxFieldCount: Int

        /// Limits; each is at least 1.
        public init(maxFieldBytes: Int, maxRecordBytes: Int, maxFieldCount: Int = 1 << 16) {
            self.maxFieldBytes = max(maxFieldBytes, 1)
            self.maxRecordBytes = max(maxRecordBytes, 1)
            self.maxFieldCount = max(maxFieldCount, 1)
        }

        /// 1 MiB per field, 16 MiB per record, 65,536 fields: far beyond any real table.
        public static let standard = Limits(maxFieldBytes: 1 << 20, maxRecordBytes: 1 << 24)
    }

    /// The path given to ``init(path:chunkSize:limits:delimiter:startOffset:endOffset:firstLine:)``, or `nil` for in-memory input.
    public let path: String?
    /// The size of the input in bytes when known (regular files and memory; the part read, with
    /// a start or end offset).
    public let totalBytes: Int64?
    /// Bytes read from the input so far (for progress reports).
    @exclusivity(unchecked) public private(set) var bytesRead: Int64 = 0
    /// Where in the file reading began.
    public let startOffset: Int64
    /// Where in the file reading ends (nil: at its end).
    public let endOffset: Int64?
    /// The limits on a field and a record.
    public let limits: Limits
    /// The byte between fields: `,` by default; `;`, tab or `|` for other dialects (see `CSVDialect`).
    public let delimiter: UInt8
    /// Bytes above this are never the delimiter, CR or LF (the inner loop's one-comparison skip).
    private let highestSpecialByte: UInt8
    /// The delimiter in every byte of a word (for the eight-bytes-at-a-time scan).
    private let delimiterLanes: UInt64
    /// Below this many buffered bytes (and ``Limits/maxFieldCount`` fields) no limit can be
    /// exceeded, so the per-field check on the hot path is one comparison of each.
    private let bytesBelowEveryLimit: Int

    // The hot state is touched only by this reader's own methods, one call at a time:
    // runtime exclusivity checks on it are pure cost (they showed up in profiles).
    private var source: Source
    @exclusivity(unchecked) private var memoryOffset = 0
    private let buffer: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var pos = 0
    @exclusivity(unchecked) private var atStart = true
    @exclusivity(unchecked) private var state = State.startOfRecord
    @exclusivity(unchecked) private var line = 1
    @exclusivity(unchecked) private var pendingCR = false
    @exclusivity(unchecked) private var quotedPreviousCR = false

    private static let quote: UInt8 = 0x22, comma: UInt8 = 0x2C, cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

    /// Opens the file at `path` for reading in chunks of `chunkSize` bytes, fields separated by `delimiter`.
    ///
    /// `startOffset` and `endOffset` read a part of the file: from a record's start (the
    /// ``CSVRecord/offset`` of a record read before, or the end of the last one) up to a size
    /// the file had (the rest of a growing file is left for later); the first record there is
    /// on `firstLine`. A byte-order mark is skipped only at offset 0.
    ///
    ///     let rest = try CSVReader(path: "log.csv", startOffset: loadedLength, endOffset: size, firstLine: 1001)
    public init(
        path: String,
        chunkSize: Int = 1 << 18,
        limits: Limits = .standard,
        delimiter: UInt8 = 0x2C,
        startOffset: Int64 = 0,
        endOffset: Int64? = nil,
        firstLine: Int = 1
    ) throws {
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw CSVError.cannotOpen(path: path, code: errno) }
        var info = stat()
        var size: Int64?
        if fstat(fd, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                throw CSVError.cannotOpen(path: path, code: EISDIR)
            }
            size = (info.st_mode & S_IFMT) == S_IFREG ? Int64(info.st_size) : nil
        }
        let end = endOffset.map { end in size.map { min($0, end) } ?? end } ?? size
        totalBytes = end.map { max(0, $0 - startOffset) }
        if startOffset > 0 {
            guard lseek(fd, off_t(startOffset), SEEK_SET) >= 0 else {
                let code = errno
                close(fd)
                throw CSVError.readFailed(path: path, code: code)
            }
            atStart = false
        }
        self.startOffset = startOffset
        self.endOffset = endOffset
        line = max(1, firstLine)
        _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        self.path = path
        self.limits = limits
        self.delimiter = CSVReader.usableDelimiter(delimiter)
        self.highestSpecialByte = max(self.delimiter, CSVReader.cr)
        self.delimiterLanes = 0x0101_0101_0101_0101 &* UInt64(self.delimiter)
        self.bytesBelowEveryLimit = CSVReader.bytesBelowEveryLimit(limits)
        self.source = .file(fd)
        self.buffer = .allocate(byteCount: max(chunkSize, 16), alignment: 16)
    }

    /// Reads from bytes in memory; `chunkSize` is how much is handed to the
    /// parser at a time (tests use tiny chunks to cross every boundary); fields separated by `delimiter`.
    public init(bytes: [UInt8], chunkSize: Int = 1 << 16, limits: Limits = .standard, delimiter: UInt8 = 0x2C) {
        self.path = nil
        startOffset = 0
        endOffset = nil
        self.limits = limits
        self.delimiter = CSVReader.usableDelimiter(delimiter)
        self.highestSpecialByte = max(self.delimiter, CSVReader.cr)
        self.delimiterLanes = 0x0101_0101_0101_0101 &* UInt64(self.delimiter)
        self.bytesBelowEveryLimit = CSVReader.bytesBelowEveryLimit(limits)
        self.totalBytes = Int64(bytes.count)
        self.source = .memory(bytes)
        self.buffer = .allocate(byteCount: max(chunkSize, 4), alignment: 16)
    }

    deinit {
        if case .file(let fd) = source { close(fd) }
        buffer.deallocate()
    }

    /// The 1-based line number the reader has reached.
    public var currentLine: Int { line }

    /// Reads the next record into `record` (cleared first). Returns false at the end of the input.
    public func read(into record: inout CSVRecord) throws -> Bool {
        let fields = record.clearForWriting()
        let q = CSVReader.quote
        let comma = delimiter
        let cr = CSVReader.cr
        let lf = CSVReader.lf
        let highest = highestSpecialByte
        let lanes = delimiterLanes
        while true {
            if pos == count {
                if state == .finished { return false }
                if try !fill() { return try finishAtEndOfInput(&record) }
                continue
            }
            let p = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            switch state {
            case .startOfRecord:
                let b = p[pos]
                if pendingCR {
                    pendingCR = false
                    if b == lf {
                        pos += 1
                        continue
                    }
                }
                if b == cr {
                    line += 1
                    pendingCR = true
                    pos += 1
                    continue
                }
                if b == lf {
                    line += 1
                    pos += 1
                    continue
                }
                record.line = line
                record.offset = startOffset + bytesRead - Int64(count) + Int64(pos)
                state = .startOfField

            case .startOfField:
                if p[pos] == q {
                    pos += 1
                    quotedPreviousCR = false
                    state = .quoted
                } else {
                    state = .unquoted
                }

            case .unquoted:
                // Consecutive unquoted fields are read here without going back through the switch.
                let n = count
                while true {
                    var i = pos
                    // Eight bytes at a time until a word holds a comma, CR or LF.
                    while i + 8 <= n {
                        let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                        if CSVReader.hasDelimiter(word, lanes: lanes) { break }
                        i += 8
                    }
                    while i < n {
                        let b = p[i]
                        if b > highest {
                            i += 1
                            continue
                        }
                        if b == comma || b == cr || b == lf { break }
                        i += 1
                    }
                    fields.append(p + pos, count: i - pos)
                    if fields.byteCount > bytesBelowEveryLimit || fields.fieldCount >= limits.maxFieldCount {
                        try checkLimits(fields, line: record.line)
                    }
                    if i == n {
                        pos = i
                        break
                    }  // the field goes on in the next chunk
                    let b = p[i]
                    pos = i + 1
                    fields.endField()
                    if b != comma {
                        line += 1
                        pendingCR = b == cr
                        state = .startOfRecord
                        return true
                    }
                    if pos < n && p[pos] != q { continue }  // another unquoted field
                    state = .startOfField
                    break
                }

            case .quoted:
                var i = pos
                let n = count
                while i < n {
                    let b = p[i]
                    if b > q {
                        quotedPreviousCR = false
                        i += 1
                        continue
                    }
                    if b == q { break }
                    if b == lf {
                        if !quotedPreviousCR { line += 1 }
                        quotedPreviousCR = false
                    } else if b == cr {
                        line += 1
                        quotedPreviousCR = true
                    } else {
                        quotedPreviousCR = false
                    }
                    i += 1
                }
                fields.append(p + pos, count: i - pos)
                if fields.byteCount > bytesBelowEveryLimit || fields.fieldCount >= limits.maxFieldCount {
                    try checkLimits(fields, line: record.line)
                }
                if i == n {
                    pos = i
                    continue
                }
                pos = i + 1
                state = .quoteInQuoted

            case .quoteInQuoted:
                let b = p[pos]
                if b == q {
                    fields.append(byte: q)
                    if fields.byteCount > bytesBelowEveryLimit { try checkLimits(fields, line: record.line) }
                    pos += 1
                    quotedPreviousCR = false
                    state = .quoted
                } else if b == comma {
                    pos += 1
                    fields.endField()
                    state = .startOfField
                } else if b == cr || b == lf {
                    pos += 1
                    fields.endField()
                    line += 1
                    pendingCR = b == cr
                    state = .startOfRecord
                    return true
                } else {
                    // Text after a closing quote: keep it, as most readers do.
                    state = .unquoted
                }

            case .finished:
                return false
            }
        }
    }

    /// The buffered byte count below which, with fewer than `maxFieldCount` fields, no limit is
    /// exceeded: a field is no longer than the record's bytes, and a record's length is its bytes
    /// plus fewer than `maxFieldCount` commas.
    private static func bytesBelowEveryLimit(_ limits: Limits) -> Int {
        max(0, min(limits.maxFieldBytes, limits.maxRecordBytes - limits.maxFieldCount))
    }

    /// Throws ``CSVError/recordTooLong(line:)`` when the record being read (its field being read
    /// not yet ended) is past a limit. The slow path of the check, for long records only.
    private func checkLimits(_ fields: CSVRecord.Storage, line: Int) throws {
        let fieldStart = fields.fieldCount == 0 ? 0 : fields.ends[fields.fieldCount - 1]
        if fields.byteCount - fieldStart > limits.maxFieldBytes
            || fields.byteCount + fields.fieldCount > limits.maxRecordBytes
            || fields.fieldCount >= limits.maxFieldCount
        {
            state = .finished
            pos = count
            throw CSVError.recordTooLong(line: line)
        }
    }

    /// True when one of the eight bytes of `word` is the delimiter (in every byte of `lanes`), CR or LF
    /// (SWAR: a byte equal to `c` becomes zero after XOR with `c` in every lane, and the zero-byte test
    /// finds it).
    @inline(__always)
    static func hasDelimiter(_ word: UInt64, lanes: UInt64 = 0x2C2C_2C2C_2C2C_2C2C) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZero(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        return hasZero(word ^ lanes) | hasZero(word ^ (ones &* 0x0D)) | hasZero(word ^ (ones &* 0x0A)) != 0
    }

    /// The delimiter, or a comma for a byte that cannot separate fields (a quote, CR, LF, or a byte
    /// of a UTF-8 sequence).
    private static func usableDelimiter(_ byte: UInt8) -> UInt8 {
        byte == quote || byte == cr || byte == lf || byte >= 0x80 ? comma : byte
    }

    /// Reads the next record as a new value; `nil` at the end of the input.
    public func next() throws -> CSVRecord? {
        var record = CSVRecord()
        return try read(into: &record) ? record : nil
    }

    /// Reads all remaining records (for small inputs and tests).
    public func readAll() throws -> [CSVRecord] {
        var records: [CSVRecord] = []
        while let record = try next() { records.append(record) }
        return records
    }

    private func finishAtEndOfInput(_ record: inout CSVRecord) throws -> Bool {
        let fields = record.storage
        let previous = state
        state = .finished
        switch previous {
        case .startOfRecord, .finished:
            return false
        case .startOfField:
            // An empty last field after a comma at the very end: counted like any other field.
            if fields.fieldCount >= limits.maxFieldCount { try checkLimits(fields, line: record.line) }
            fields.endField()
            return true
        case .unquoted, .quoteInQuoted:
            fields.endField()
            return true
        case .quoted:
            throw CSVError.unterminatedQuote(line: record.line)
        }
    }

    /// Refills the buffer; false at the end of the input. Skips a leading UTF-8 BOM.
    private func fill() throws -> Bool {
        count = 0
        pos = 0
        repeat {
            let n = try readSome(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
            if n == 0 { break }
            count += n
        } while atStart && count < 3
        if atStart {
            atStart = false
            if count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { pos = 3 }
        }
        return count > pos
    }

    private func readSome(into target: UnsafeMutableRawBufferPointer) throws -> Int {
        switch source {
        case .file(let fd):
            var wanted = target.count
            if let endOffset { wanted = Int(min(Int64(wanted), max(0, endOffset - startOffset - bytesRead))) }
            guard wanted > 0 else { return 0 }
            while true {
                let n = Glibc.read(fd, target.baseAddress, wanted)
                if n >= 0 {
                    bytesRead += Int64(n)
                    return n
                }
                if errno == EINTR { continue }
                throw CSVError.readFailed(path: path ?? "-", code: errno)
            }
        case .memory(let bytes):
            let n = min(target.count, bytes.count - memoryOffset)
            if n > 0 {
                bytes.withUnsafeBytes { all in
                    target.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[memoryOffset..<memoryOffset + n]))
                }
            }
            memoryOffset += n
            bytesRead += Int64(n)
            return n
        }
    }
}
