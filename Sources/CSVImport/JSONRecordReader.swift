import Glibc

/// A streaming reader of JSON records: a JSON Lines file (an object a line) or a JSON
/// array of objects, told apart by their first character, each object handed over as a
/// ``JSONRecord`` as soon as it is read.
///
/// Memory stays constant however large the file: the input is read in chunks and only the
/// object being read is buffered (at most ``CSVReader/Limits/maxRecordBytes``). Keys are
/// numbered in the order they first appear (``keys``), so the union of every record's keys in
/// file order — a table's columns — is known as the records stream by. Strings are decoded
/// (escapes, surrogate pairs; bytes that are not UTF-8 are passed on as they are), numbers
/// are checked against JSON's grammar and kept as written, nested arrays and objects are
/// kept as compact JSON text.
///
/// Strict where JSON is: anything that is not JSON — a trailing comma, a single quote, a
/// comment, a control character in a string, text after the array — is a ``JSONError`` naming
/// its line and column. Records must be objects: `[1, 2]` or a line `42` is refused too. JSON
/// Lines may also be objects one after the other on a line or across lines (concatenated
/// JSON); blank lines are skipped. A key that appears twice in one object keeps its last value
/// (the reader hands over both; ``JSONRecord`` keeps the order written).
///
///     let reader = try JSONRecordReader(path: "events.jsonl")
///     var record = JSONRecord()
///     while try reader.read(into: &record) {
///         for member in 0..<record.count { print(reader.keys[record.keyIndex(at: member)], record.text(at: member)) }
///     }
public final class JSONRecordReader {
    /// How the records are laid out in the file.
    public enum Layout: Sendable, Equatable {
        /// JSON Lines: objects one after another (usually one a line).
        case lines
        /// A JSON array whose elements are the objects.
        case array
    }

    private enum Source {
        case file(Int32)
        case memory([UInt8])
    }

    /// Where the reader is between records.
    private enum State {
        case start, lines, arrayStart, arrayNext, afterArray, finished
    }

    /// A read that ran past the bytes buffered: more must be read and the record read again.
    private struct NeedMore: Error {}

    /// What is restored when a record is read again after more bytes came.
    private struct Mark {
        var pos: Int
        var line: Int
        var lineStart: Int64
        var charsBeforeBuffer: Int
        var state: State
    }

    /// The path given to ``init(path:chunkSize:limits:startOffset:firstLine:endOffset:)``, nil for bytes in memory.
    public let path: String?
    /// The size of the input in bytes when known (a regular file's, memory's).
    public let totalBytes: Int64?
    /// Bytes read from the input so far (for progress reports).
    public private(set) var bytesRead: Int64 = 0
    /// The limits on a record (``CSVReader/Limits/maxRecordBytes``), a value
    /// (``CSVReader/Limits/maxFieldBytes``) and its members (``CSVReader/Limits/maxFieldCount``).
    public let limits: CSVReader.Limits
    /// Every key read so far, in the order each first appeared: ``JSONRecord/keyIndex(at:)`` indexes it.
    public private(set) var keys: [String] = []
    /// How the records are laid out; nil until the first read.
    public private(set) var layout: Layout?
    /// The line the reader is on: after the last record, the line after it (once its line break was read).
    public var currentLine: Int { line }

    private var source: Source
    @exclusivity(unchecked) private var memoryOffset = 0
    private let chunkSize: Int
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var pos = 0
    /// The input's offset of `buffer[0]`.
    @exclusivity(unchecked) private var bufferStart: Int64 = 0
    @exclusivity(unchecked) private var atEnd = false
    @exclusivity(unchecked) private var line = 1
    /// The input's offset of the current line's first byte.
    @exclusivity(unchecked) private var lineStart: Int64 = 0
    /// Characters of the current line in bytes no longer buffered.
    @exclusivity(unchecked) private var charsBeforeBuffer = 0
    @exclusivity(unchecked) private var state = State.start
    @exclusivity(unchecked) private var depth = 0
    /// Where the record being read starts (buffer offset), to check its length.
    @exclusivity(unchecked) private var recordStart = 0

    private var keyIndexByBytes: [[UInt8]: Int32] = [:]
    /// Every key's bytes, one after the other (key `i` from `keyStarts[i]` to `keyStarts[i + 1]`):
    /// compared in place with a key read. These three are the reader's own memory, not arrays:
    /// reading an array stored in the reader retained and released its buffer on every key (a
    /// tenth of the parsing thread's time in a profile of a 1M-row JSON Lines file).
    @exclusivity(unchecked) private var keyArena = RawList<UInt8>()
    @exclusivity(unchecked) private var keyStarts = RawList<Int>(first: 0)
    /// The key index each member position had in the last record (most files repeat it).
    @exclusivity(unchecked) private var predictedKeys = RawList<Int32>()
    /// A key read that was not the predicted one.
    @exclusivity(unchecked) private var keyBytes: [UInt8] = []
    /// A string decoded aside: a key with escapes, a nested value's string (checked, then copied as written).
    private let scratch = JSONRecord.Storage(byteCapacity: 64, memberCapacity: 1)

    /// The most nested arrays and objects a value may hold.
    public static let maximumDepth = 512

    /// Opens the file at `path`, read in chunks of `chunkSize` bytes, up to `endOffset` (nil: to its end).
    ///
    /// `startOffset` (not 0: the records appended to a JSON Lines file already read up to there)
    /// starts there, reading JSON Lines, its first record on line `firstLine`.
    ///
    ///     let reader = try JSONRecordReader(path: "log.jsonl", startOffset: 4096, firstLine: 58)
    public init(
        path: String,
        chunkSize: Int = 1 << 18,
        limits: CSVReader.Limits = .standard,
        startOffset: Int64 = 0,
        firstLine: Int = 1,
        endOffset: Int64? = nil
    ) throws {
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw CSVError.cannotOpen(path: path, code: errno) }
        if startOffset > 0 {
            guard lseek(fd, off_t(startOffset), SEEK_SET) == off_t(startOffset) else {
                let code = errno
                close(fd)
                throw CSVError.readFailed(path: path, code: code)
            }
            bytesRead = startOffset
            bufferStart = startOffset
            lineStart = startOffset
            line = firstLine
            state = .lines
            layout = .lines
        }
        var info = stat()
        if fstat(fd, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                throw CSVError.cannotOpen(path: path, code: EISDIR)
            }
            let size: Int64? = (info.st_mode & S_IFMT) == S_IFREG ? Int64(info.st_size) : nil
            totalBytes = endOffset.map { end in size.map { min($0, end) } ?? end } ?? size
        } else {
            totalBytes = endOffset
        }
        _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        self.path = path
        self.limits = limits
        self.chunkSize = max(chunkSize, 16)
        self.endOffset = endOffset
        source = .file(fd)
        capacity = self.chunkSize * 2
        buffer = .allocate(capacity: capacity)
    }

    /// Reads `bytes`, handed to the parser `chunkSize` at a time (tests use tiny chunks to cross every boundary).
    public init(bytes: [UInt8], chunkSize: Int = 1 << 16, limits: CSVReader.Limits = .standard) {
        path = nil
        totalBytes = Int64(bytes.count)
        self.limits = limits
        self.chunkSize = max(chunkSize, 1)
        endOffset = nil
        source = .memory(bytes)
        capacity = self.chunkSize * 2
        buffer = .allocate(capacity: capacity)
    }

    private let endOffset: Int64?

    deinit {
        if case .file(let fd) = source { close(fd) }
        buffer.deallocate()
        keyArena.deallocate()
        keyStarts.deallocate()
        predictedKeys.deallocate()
    }

    /// How the records of a file beginning with `bytes` are laid out, or nil when it does not
    /// look like JSON: `{` then a key or `}` (JSON Lines), `[` then a value or `]` (an array).
    /// A CSV file's header never begins so (`[id],[name]` and `{a},{b}` are not JSON).
    ///
    ///     JSONRecordReader.layout(of: Array("{\"id\": 1}\n".utf8))   // .lines
    ///     JSONRecordReader.layout(of: Array("id,name\n".utf8))      // nil
    public static func layout<Bytes: Collection<UInt8>>(of bytes: Bytes) -> Layout? {
        var iterator = bytes.drop(while: isSpace).makeIterator()
        var first = iterator.next()
        if first == 0xEF {  // a UTF-8 byte-order mark
            guard iterator.next() == 0xBB, iterator.next() == 0xBF else { return nil }
            first = iterator.next()
            while let b = first, isSpace(b) { first = iterator.next() }
        }
        guard let first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
        var next = iterator.next()
        while let b = next, isSpace(b) { next = iterator.next() }
        guard let next else { return nil }
        if first == UInt8(ascii: "{") {
            return next == UInt8(ascii: "\"") || next == UInt8(ascii: "}") ? .lines : nil
        }
        return "{[\"]-0123456789tfn".utf8.contains(next) ? .array : nil
    }

    @inline(__always) private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
    }

    // MARK: Records

    /// Reads the next object into `record` (cleared first). Returns false at the end of the input.
    ///
    /// - Throws: ``JSONError`` for text that is not JSON records; `CSVError.readFailed`.
    public func read(into record: inout JSONRecord) throws -> Bool {
        while true {
            if state == .finished { return false }
            if count - pos < chunkSize && !atEnd { try refill(keepingFrom: pos) }
            let mark = Mark(
                pos: pos,
                line: line,
                lineStart: lineStart,
                charsBeforeBuffer: charsBeforeBuffer,
                state: state
            )
            let storage = record.clearForWriting()
            do {
                if try readTopLevel(into: storage, line: &record.line) { return true }
            } catch is NeedMore {
                pos = mark.pos
                line = mark.line
                lineStart = mark.lineStart
                charsBeforeBuffer = mark.charsBeforeBuffer
                state = mark.state
                let length = count - recordStart
                if length > limits.maxRecordBytes {
                    state = .finished
                    throw JSONError.recordTooLong(line: line, column: column(at: recordStart))
                }
                try refill(keepingFrom: pos)
            }
        }
    }

    /// Reads every remaining record (for small inputs and tests).
    public func readAll() throws -> [JSONRecord] {
        var records: [JSONRecord] = []
        var record = JSONRecord()
        while try read(into: &record) { records.append(record) }
        return records
    }

    /// Reads what comes between records and, when it is an object, the object. False when the
    /// step read no object (the layout's start, the array's end) or the input ended.
    private func readTopLevel(into record: JSONRecord.Storage, line recordLine: inout Int) throws -> Bool {
        skipSpace()
        recordStart = pos
        let b = try peek()
        switch state {
        case .start:
            if pos == 0 && bufferStart == 0, b == 0xEF {
                guard try peek(1) == 0xBB, try peek(2) == 0xBF else { throw try unexpected("a JSON object or array") }
                pos += 3
                return false
            }
            guard let b else {
                state = .finished
                return false
            }
            if b == UInt8(ascii: "[") {
                layout = .array
                state = .arrayStart
                pos += 1
                return false
            }
            guard b == UInt8(ascii: "{") else {
                throw try unexpected("a JSON object ('{') or an array of objects ('[')")
            }
            layout = .lines
            state = .lines
            return false
        case .lines:
            guard let b else {
                state = .finished
                return false
            }
            guard b == UInt8(ascii: "{") else { throw try unexpected("an object ('{') at the start of a record") }
            try readObject(into: record, line: &recordLine)
            return true
        case .arrayStart:
            guard let b else { throw try unexpected("an object or ']' (the array is not closed)") }
            if b == UInt8(ascii: "]") {
                pos += 1
                state = .afterArray
                return false
            }
            guard b == UInt8(ascii: "{") else { throw try unexpected("an object ('{') as the array's element") }
            try readObject(into: record, line: &recordLine)
            state = .arrayNext
            return true
        case .arrayNext:
            guard let b else { throw try unexpected("',' or ']' (the array is not closed)") }
            if b == UInt8(ascii: "]") {
                pos += 1
                state = .afterArray
                return false
            }
            guard b == UInt8(ascii: ",") else { throw try unexpected("',' or ']' after the array's element") }
            pos += 1
            skipSpace()
            recordStart = pos
            guard try peek() == UInt8(ascii: "{") else { throw try unexpected("an object ('{') after ','") }
            try readObject(into: record, line: &recordLine)
            return true
        case .afterArray:
            guard b == nil else { throw try unexpected("nothing after the end of the array") }
            state = .finished
            return false
        case .finished:
            return false
        }
    }

    /// Reads an object (at `{`) as a record.
    private func readObject(into record: JSONRecord.Storage, line recordLine: inout Int) throws {
        recordLine = line
        pos += 1
        skipSpace()
        if try peek() == UInt8(ascii: "}") {
            pos += 1
            return
        }
        var member = 0
        while true {
            guard try peek() == UInt8(ascii: "\"") else { throw try unexpected("a key (a string in double quotes)") }
            let key = try readKey(member: member)
            skipSpace()
            guard try peek() == UInt8(ascii: ":") else { throw try unexpected("':' after the key") }
            pos += 1
            skipSpace()
            let start = record.byteCount
            let kind = try readValue(into: record)
            if record.byteCount - start > limits.maxFieldBytes || record.byteCount > limits.maxRecordBytes {
                throw tooLong()
            }
            record.endMember(key: key, kind: kind)
            member += 1
            if member >= limits.maxFieldCount { throw tooLong() }
            skipSpace()
            switch try peek() {
            case UInt8(ascii: ","):
                pos += 1
                skipSpace()
            case UInt8(ascii: "}"):
                pos += 1
                return
            default:
                throw try unexpected("',' or '}' after the value")
            }
        }
    }

    /// A record past the limits: the reader stops.
    private func tooLong() -> JSONError {
        state = .finished
        return .recordTooLong(line: line, column: column(at: recordStart))
    }

    /// Reads a member's value (after skipping space), appending its bytes; returns its kind.
    private func readValue(into bytes: JSONRecord.Storage) throws -> JSONRecord.Kind {
        guard let b = try peek() else { throw try unexpected("a value") }
        switch b {
        case UInt8(ascii: "\""):
            try readString(into: bytes)
            return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try readNumber(into: bytes)
            return .number
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return .true
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return .false
        case UInt8(ascii: "n"):
            try readLiteral("null")
            return .null
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth = 0
            try readNested(into: bytes)
            return .nested
        default:
            throw try unexpected("a value")
        }
    }

    // MARK: Tokens

    /// A key: its index, the one the same position had in the last record when the bytes match.
    private func readKey(member: Int) throws -> Int {
        pos += 1
        let start = pos
        // Most keys have no escapes: compared in place with the predicted key's bytes.
        var i = pos
        while true {
            guard i < count else {
                if atEnd { throw try unexpected("'\"' (the key is not closed)", at: i) }
                throw NeedMore()
            }
            let c = buffer[i]
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
            i += 1
        }
        if buffer[i] == UInt8(ascii: "\"") {
            let length = i - start
            pos = i + 1
            if member < predictedKeys.count {
                let predicted = Int(predictedKeys[member])
                let knownStart = keyStarts[predicted]
                if keyStarts[predicted + 1] - knownStart == length,
                    length == 0 || memcmp(keyArena.base + knownStart, buffer + start, length) == 0
                {
                    return predicted
                }
            }
            keyBytes.removeAll(keepingCapacity: true)
            keyBytes.append(contentsOf: UnsafeBufferPointer(start: buffer + start, count: length))
        } else {
            pos = start - 1
            scratch.removeAll()
            try readString(into: scratch)
            keyBytes.removeAll(keepingCapacity: true)
            keyBytes.append(contentsOf: UnsafeBufferPointer(start: scratch.bytes, count: scratch.byteCount))
        }
        let index: Int32
        if let known = keyIndexByBytes[keyBytes] {
            index = known
        } else {
            index = Int32(keys.count)
            keyIndexByBytes[keyBytes] = index
            keyBytes.withUnsafeBufferPointer { keyArena.append(contentsOf: $0) }
            keyStarts.append(keyArena.count)
            keys.append(keyBytes.withUnsafeBytes { CSVTextDecoding.string(from: $0) })
        }
        if member < predictedKeys.count {
            predictedKeys[member] = index
        } else {
            predictedKeys.append(index)
        }
        return Int(index)
    }

    /// A string (at `"`), its escapes decoded, appended without its quotes.
    private func readString(into bytes: JSONRecord.Storage) throws {
        pos += 1
        while true {
            var i = pos
            while i < count {
                let c = buffer[i]
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
                i += 1
            }
            bytes.append(buffer + pos, count: i - pos)
            pos = i
            guard i < count else {
                if atEnd { throw try unexpected("'\"' (the string is not closed)") }
                throw NeedMore()
            }
            let c = buffer[i]
            if c == UInt8(ascii: "\"") {
                pos += 1
                return
            }
            if c < 0x20 {
                let name = c == 0x0A ? "a line break" : c == 0x09 ? "a tab" : "a control character"
                throw syntax("\(name) in a string (write it as an escape, e.g. \\n or \\t)")
            }
            try readEscape(into: bytes)
        }
    }

    /// An escape (at `\`), decoded.
    private func readEscape(into bytes: JSONRecord.Storage) throws {
        guard let c = try peek(1) else { throw try unexpected("an escape after '\\'", at: pos + 1) }
        let simple: UInt8?
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = c
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default:
            throw syntax(
                "invalid escape '\\\(describe(c))' (JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
                at: pos
            )
        }
        if let simple {
            bytes.append(byte: simple)
            pos += 2
            return
        }
        var scalar = try hexQuad(at: pos + 2)
        var length = 6
        if (0xD800..<0xDC00).contains(scalar) {
            // A high surrogate: its low one follows as another \u escape, else it stands for U+FFFD.
            if try peek(6) == UInt8(ascii: "\\"), try peek(7) == UInt8(ascii: "u") {
                let low = try hexQuad(at: pos + 8)
                if (0xDC00..<0xE000).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    length = 12
                } else {
                    scalar = 0xFFFD
                }
            } else {
                scalar = 0xFFFD
            }
        } else if (0xDC00..<0xE000).contains(scalar) {
            scalar = 0xFFFD
        }
        for byte in UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}")! { bytes.append(byte: byte) }
        pos += length
    }

    /// The four hexadecimal digits at buffer offset `at`.
    private func hexQuad(at start: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for k in 0..<4 {
            guard let c = try peek(start - pos + k) else {
                throw try unexpected("four hexadecimal digits after \\u", at: start + k)
            }
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw try unexpected("four hexadecimal digits after \\u", at: start + k)
            }
            value = value << 4 | digit
        }
        return value
    }

    /// A number (at `-` or a digit), checked against JSON's grammar and appended as written.
    private func readNumber(into bytes: JSONRecord.Storage) throws {
        let start = pos
        var i = pos
        func byte(_ i: Int) throws -> UInt8? {
            if i < count { return buffer[i] }
            if atEnd { return nil }
            throw NeedMore()
        }
        func isDigit(_ b: UInt8?) -> Bool { b.map { $0 &- 0x30 < 10 } ?? false }
        if try byte(i) == UInt8(ascii: "-") { i += 1 }
        let first = try byte(i)
        guard isDigit(first) else { throw syntax("invalid number (a digit must follow '-')", at: i) }
        i += 1
        if first != UInt8(ascii: "0") {
            while isDigit(try byte(i)) { i += 1 }
        } else if isDigit(try byte(i)) {
            throw syntax("invalid number (no leading zeros in JSON)", at: start)
        }
        if try byte(i) == UInt8(ascii: ".") {
            i += 1
            guard isDigit(try byte(i)) else { throw syntax("invalid number (a digit must follow '.')", at: i) }
            while isDigit(try byte(i)) { i += 1 }
        }
        if let e = try byte(i), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            i += 1
            if let sign = try byte(i), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { i += 1 }
            guard isDigit(try byte(i)) else { throw syntax("invalid number (a digit must follow the exponent)", at: i) }
            while isDigit(try byte(i)) { i += 1 }
        }
        if let next = try byte(i), JSONRecordReader.continuesAWord(next) {
            throw syntax("invalid number", at: start)
        }
        bytes.append(buffer + start, count: i - start)
        pos = i
    }

    /// `true`, `false` or `null` (at its first letter).
    private func readLiteral(_ word: StaticString) throws {
        let length = word.utf8CodeUnitCount
        for k in 0..<length {
            guard try peek(k) == word.utf8Start[k] else {
                throw syntax("invalid literal (expected \(word))", at: pos)
            }
        }
        if let next = try peek(length), JSONRecordReader.continuesAWord(next) {
            throw syntax("invalid literal (expected \(word))", at: pos)
        }
        pos += length
    }

    /// Whether `b` after a number or a literal makes it something else (`12a`, `1.2.3`, `truex`).
    @inline(__always) private static func continuesAWord(_ b: UInt8) -> Bool {
        (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") || b == UInt8(ascii: ".")
            || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b &- 0x30 < 10 || b >= 0x80
    }

    /// An array or object (at `[` or `{`) appended as compact JSON text: strings as written,
    /// white space between tokens left out.
    private func readNested(into bytes: JSONRecord.Storage) throws {
        guard let open = try peek() else { throw try unexpected("a value") }
        depth += 1
        if depth > JSONRecordReader.maximumDepth {
            throw syntax("nested more than \(JSONRecordReader.maximumDepth) arrays and objects deep")
        }
        let isObject = open == UInt8(ascii: "{")
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        bytes.append(byte: open)
        pos += 1
        skipSpace()
        if try peek() == close {
            bytes.append(byte: close)
            pos += 1
            depth -= 1
            return
        }
        while true {
            if isObject {
                guard try peek() == UInt8(ascii: "\"") else {
                    throw try unexpected("a key (a string in double quotes)")
                }
                try copyString(into: bytes)
                skipSpace()
                guard try peek() == UInt8(ascii: ":") else { throw try unexpected("':' after the key") }
                bytes.append(byte: UInt8(ascii: ":"))
                pos += 1
                skipSpace()
            }
            try copyValue(into: bytes)
            skipSpace()
            guard let next = try peek() else {
                throw try unexpected(
                    "',' or '\(Character(Unicode.Scalar(close)))' (the \(isObject ? "object" : "array") is not closed)"
                )
            }
            if next == close {
                bytes.append(byte: close)
                pos += 1
                depth -= 1
                return
            }
            guard next == UInt8(ascii: ",") else {
                throw try unexpected("',' or '\(Character(Unicode.Scalar(close)))' after the value")
            }
            bytes.append(byte: UInt8(ascii: ","))
            pos += 1
            skipSpace()
        }
    }

    /// A value inside a nested one, appended as JSON text.
    private func copyValue(into bytes: JSONRecord.Storage) throws {
        guard let b = try peek() else { throw try unexpected("a value") }
        switch b {
        case UInt8(ascii: "\""): try copyString(into: bytes)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try readNumber(into: bytes)
        case UInt8(ascii: "t"):
            try readLiteral("true")
            bytes.append("true")
        case UInt8(ascii: "f"):
            try readLiteral("false")
            bytes.append("false")
        case UInt8(ascii: "n"):
            try readLiteral("null")
            bytes.append("null")
        case UInt8(ascii: "{"), UInt8(ascii: "["): try readNested(into: bytes)
        default: throw try unexpected("a value")
        }
    }

    /// A string (at `"`) checked and appended as written, quotes and escapes included.
    private func copyString(into bytes: JSONRecord.Storage) throws {
        let start = pos
        scratch.removeAll()
        try readString(into: scratch)  // checks it
        bytes.append(buffer + start, count: pos - start)
    }

    // MARK: Bytes

    /// The byte `offset` past the current one; nil at the end of the input; NeedMore when it is not read yet.
    @inline(__always)
    private func peek(_ offset: Int = 0) throws -> UInt8? {
        let i = pos + offset
        if i < count { return buffer[i] }
        if atEnd { return nil }
        throw NeedMore()
    }

    /// Skips white space, counting lines.
    @inline(__always)
    private func skipSpace() {
        while pos < count {
            let b = buffer[pos]
            if b == 0x20 || b == 0x09 || b == 0x0D {
                pos += 1
            } else if b == 0x0A {
                pos += 1
                line += 1
                lineStart = bufferStart + Int64(pos)
                charsBeforeBuffer = 0
            } else {
                return
            }
        }
    }

    /// Keeps the bytes from `keep` on (moved to the buffer's start) and reads more after them.
    private func refill(keepingFrom keep: Int) throws {
        // Characters of the current line about to be dropped from the buffer, for its columns.
        let lineOffset = Int(max(0, lineStart - bufferStart))
        if lineOffset < keep {
            charsBeforeBuffer += JSONRecordReader.characters(buffer + lineOffset, keep - lineOffset)
        }
        let kept = count - keep
        if keep > 0 && kept > 0 { buffer.update(from: buffer + keep, count: kept) }
        bufferStart += Int64(keep)
        count = kept
        pos -= keep
        recordStart = max(0, recordStart - keep)
        // A chunk more: a record longer than what is buffered grows the buffer (up to the limits).
        let target = count + chunkSize
        if capacity < target {
            let grown = max(capacity * 2, target)
            let new = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            new.update(from: buffer, count: count)
            buffer.deallocate()
            buffer = new
            capacity = grown
        }
        while !atEnd && count < target {
            let n = try readSome(into: buffer + count, max: target - count)
            if n == 0 { atEnd = true }
            count += n
        }
    }

    private func readSome(into target: UnsafeMutablePointer<UInt8>, max wanted: Int) throws -> Int {
        switch source {
        case .file(let fd):
            var wanted = wanted
            if let endOffset { wanted = Int(min(Int64(wanted), Swift.max(0, endOffset - bytesRead))) }
            guard wanted > 0 else { return 0 }
            while true {
                let n = Glibc.read(fd, target, wanted)
                if n >= 0 {
                    bytesRead += Int64(n)
                    return n
                }
                if errno == EINTR { continue }
                throw CSVError.readFailed(path: path ?? "-", code: errno)
            }
        case .memory(let bytes):
            let n = min(wanted, chunkSize, bytes.count - memoryOffset)
            if n > 0 {
                bytes.withUnsafeBufferPointer { all in
                    target.update(from: all.baseAddress! + memoryOffset, count: n)
                }
            }
            memoryOffset += n
            bytesRead += Int64(n)
            return n
        }
    }

    // MARK: Errors

    /// The characters (UTF-8 lead bytes) among `length` bytes at `start`.
    private static func characters(_ start: UnsafePointer<UInt8>, _ length: Int) -> Int {
        var n = 0
        for k in 0..<length where start[k] & 0xC0 != 0x80 { n += 1 }
        return n
    }

    /// The column (in characters, from 1) of buffer offset `offset` on the current line.
    private func column(at offset: Int) -> Int {
        let lineOffset = Int(max(0, lineStart - bufferStart))
        let end = min(max(offset, lineOffset), count)
        return charsBeforeBuffer + JSONRecordReader.characters(buffer + lineOffset, end - lineOffset) + 1
    }

    private func syntax(_ reason: String, at offset: Int? = nil) -> JSONError {
        state = .finished
        return .syntax(line: line, column: column(at: offset ?? pos), reason: reason)
    }

    /// "expected X, found Y" at buffer offset `offset` (default: the current byte).
    /// Throws `NeedMore` when the character there is not all buffered yet (a UTF-8 sequence cut by
    /// the chunk's end), so that the message names it whatever the chunks.
    private func unexpected(_ expected: String, at offset: Int? = nil) throws -> JSONError {
        let at = offset ?? pos
        if at < count, buffer[at] >= 0xC0, !atEnd {
            let length = buffer[at] >= 0xF0 ? 4 : buffer[at] >= 0xE0 ? 3 : 2
            if at + length > count { throw NeedMore() }
        }
        let found = at < count ? describeCharacter(at: at) : "the end of the file"
        return syntax("expected \(expected), found \(found)", at: at)
    }

    /// The character at buffer offset `at` as a message names it.
    private func describeCharacter(at: Int) -> String {
        let b = buffer[at]
        if b >= 0x80 {
            var end = at + 1
            while end < count && end - at < 4 && buffer[end] & 0xC0 == 0x80 { end += 1 }
            let text = String(decoding: UnsafeBufferPointer(start: buffer + at, count: end - at), as: UTF8.self)
            if let scalar = text.unicodeScalars.first, scalar != "\u{FFFD}" { return "'\(text)'" }
            return "the byte 0x\(String(b, radix: 16, uppercase: true))"
        }
        return "'\(describe(b))'"
    }

    /// An ASCII byte as a message shows it.
    private func describe(_ b: UInt8) -> String {
        switch b {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x20...0x7E: return String(Character(Unicode.Scalar(b)))
        default:
            let hex = String(b, radix: 16, uppercase: true)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
}

/// Elements in memory of their owner's own, grown by doubling: read and written without an
/// array buffer to retain. The owner calls ``deallocate()`` once, in its `deinit`.
private struct RawList<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity = 16

    init() { base = .allocate(capacity: capacity) }

    /// A list holding `first`.
    init(first: Element) {
        self.init()
        append(first)
    }

    subscript(index: Int) -> Element {
        get { base[index] }
        set { base[index] = newValue }
    }

    mutating func append(_ element: Element) {
        reserve(count + 1)
        base[count] = element
        count += 1
    }

    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        reserve(count + elements.count)
        if let start = elements.baseAddress { (base + count).update(from: start, count: elements.count) }
        count += elements.count
    }

    private mutating func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        while capacity < needed { capacity *= 2 }
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
    }

    func deallocate() { base.deallocate() }
}
