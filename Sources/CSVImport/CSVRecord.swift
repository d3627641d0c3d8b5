/// One CSV record: its fields as raw bytes (quotes removed, `""` unescaped)
/// and the 1-based line on which the record starts.
///
/// A record is a reusable buffer: ``CSVReader/read(into:)`` clears and refills
/// it, so a loop over a million rows allocates nothing once the buffer has
/// grown to the longest row. Read fields as bytes on hot paths
/// (``withUnsafeBytes(at:_:)``) and as decoded text elsewhere (`record[i]`).
///
///     var record = CSVRecord()
///     let reader = CSVReader(bytes: Array("name,city\r\n\"Bank, N.A.\",Reno\r\n".utf8))
///     while try reader.read(into: &record) {
///         print(record.line, record[0]) // 1 name, then 2 Bank, N.A.
///     }
public struct CSVRecord: Sendable, CustomStringConvertible {
    /// The 1-based line number on which the record starts.
    public internal(set) var line: Int = 0
    /// The unescaped bytes of all fields, one after the other.
    @usableFromInline var bytes: [UInt8] = []
    /// `ends[i]` is the end offset of field `i` in `bytes`.
    @usableFromInline var ends: [Int] = []

    /// An empty record, ready for ``CSVReader/read(into:)``.
    public init() {
        bytes.reserveCapacity(1024)
        ends.reserveCapacity(16)
    }

    /// A record made from text fields (for tests and writers).
    public init(line: Int, fields: [String]) {
        self.line = line
        for field in fields {
            bytes.append(contentsOf: field.utf8)
            ends.append(bytes.count)
        }
    }

    /// The number of fields.
    @inlinable public var count: Int { ends.count }

    /// Calls `body` with the raw bytes of field `index` (valid only inside `body`).
    @inlinable
    public func withUnsafeBytes<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let start = index == 0 ? 0 : ends[index - 1]
        let end = ends[index]
        return try bytes.withUnsafeBytes { all in
            try body(UnsafeRawBufferPointer(rebasing: all[start..<end]))
        }
    }

    /// The raw bytes of field `index`.
    public func rawBytes(at index: Int) -> [UInt8] {
        withUnsafeBytes(at: index) { Array($0) }
    }

    /// Field `index` decoded as text (UTF-8 when valid, else Windows-1252).
    public subscript(index: Int) -> String {
        withUnsafeBytes(at: index) { CSVTextDecoding.string(from: $0) }
    }

    /// All fields decoded as text.
    public var fields: [String] { (0..<count).map { self[$0] } }

    public var description: String { "line \(line): \(fields)" }

    // MARK: Building (the reader's side)

    @inline(__always) mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    @inline(__always) mutating func append(_ start: UnsafePointer<UInt8>, count: Int) {
        if count > 0 { bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: count)) }
    }

    @inline(__always) mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    @inline(__always) mutating func endField() {
        ends.append(bytes.count)
    }
}
