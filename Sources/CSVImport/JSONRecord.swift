/// One JSON object read by ``JSONRecordReader``: its members in the order written, each a key
/// (an index into the reader's ``JSONRecordReader/keys``), a kind and the value's bytes, and the
/// line on which the object starts.
///
/// A string's bytes are its text with the escapes decoded (UTF-8); a number's are as written;
/// a nested array or object's are its JSON text without the white space between tokens. A
/// record is a reusable buffer: ``JSONRecordReader/read(into:)`` clears and refills it.
///
///     let reader = JSONRecordReader(bytes: Array("{\"id\": 7, \"tags\": [\"a\", \"b\"]}\n".utf8))
///     var record = JSONRecord()
///     while try reader.read(into: &record) {
///         reader.keys[record.keyIndex(at: 1)]   // "tags"
///         record.kind(at: 1)                    // .nested
///         record.text(at: 1)                    // "[\"a\",\"b\"]"
///     }
public struct JSONRecord: Sendable, CustomStringConvertible {
    /// What a member's value is.
    public enum Kind: UInt8, Sendable {
        /// A string (its bytes: the decoded text).
        case string
        /// A number (its bytes: as written, valid JSON).
        case number
        /// `true`.
        case `true`
        /// `false`.
        case `false`
        /// `null`.
        case null
        /// An array or an object (its bytes: its JSON text, compact).
        case nested
    }

    /// The bytes of every value, one after the other.
    var bytes: [UInt8] = []
    /// Each member's end offset in ``bytes``.
    var ends: [Int] = []
    /// Each member's key index.
    var keyIndexes: [Int32] = []
    /// Each member's kind.
    var kinds: [Kind] = []
    /// The 1-based line on which the object starts.
    public internal(set) var line = 0

    /// An empty record, ready for ``JSONRecordReader/read(into:)``.
    public init() {
        bytes.reserveCapacity(1024)
        ends.reserveCapacity(16)
        keyIndexes.reserveCapacity(16)
        kinds.reserveCapacity(16)
    }

    /// The number of members.
    public var count: Int { ends.count }

    /// The key index of member `index` (into ``JSONRecordReader/keys``).
    public func keyIndex(at index: Int) -> Int { Int(keyIndexes[index]) }

    /// The kind of member `index`'s value.
    public func kind(at index: Int) -> Kind { kinds[index] }

    /// Calls `body` with the bytes of member `index`'s value (valid only inside `body`).
    public func withUnsafeBytes<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let start = index == 0 ? 0 : ends[index - 1]
        return try bytes.withUnsafeBytes { all in
            try body(UnsafeRawBufferPointer(rebasing: all[start..<ends[index]]))
        }
    }

    /// Member `index`'s value as text: a string's text, a number as written, `true`, `false`,
    /// `null`, a nested value's JSON text.
    public func text(at index: Int) -> String {
        switch kinds[index] {
        case .true: return "true"
        case .false: return "false"
        case .null: return "null"
        default: return withUnsafeBytes(at: index) { CSVTextDecoding.string(from: $0) }
        }
    }

    public var description: String {
        "line \(line): " + (0..<count).map { "#\(keyIndex(at: $0))=\(text(at: $0))" }.joined(separator: ", ")
    }

    // MARK: Building (the reader's side)

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        keyIndexes.removeAll(keepingCapacity: true)
        kinds.removeAll(keepingCapacity: true)
    }

    mutating func endMember(key: Int, kind: Kind) {
        ends.append(bytes.count)
        keyIndexes.append(Int32(key))
        kinds.append(kind)
    }
}
