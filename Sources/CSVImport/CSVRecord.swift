/// One CSV record: its fields as raw bytes (quotes removed, `""` unescaped)
/// and the 1-based line on which the record starts.
///
/// A record is a reusable buffer: ``CSVReader/read(into:)`` clears and refills
/// it, so a loop over a million rows allocates nothing once the buffer has
/// grown to the longest row. Read fields as bytes on hot paths
/// (``withUnsafeBytes(at:_:)``) and as decoded text elsewhere (`record[i]`).
/// Copies are independent (copy on write, like `Array`).
///
///     var record = CSVRecord()
///     let reader = CSVReader(bytes: Array("name,city\r\n\"Smith, Ada\",Reno\r\n".utf8))
///     while try reader.read(into: &record) {
///         print(record.line, record[0]) // 1 name, then 2 Smith, Ada
///     }
public struct CSVRecord: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: the storage is mutated only while uniquely referenced (copy on write).

    /// The bytes of all fields one after the other, and each field's end offset.
    ///
    /// Raw buffers instead of arrays: appending a field is one `memcpy`, with none of
    /// the generic `append(contentsOf:)` overhead that showed up in profiles.
    @usableFromInline
    final class Storage {
        @exclusivity(unchecked) @usableFromInline var bytes: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) @usableFromInline var byteCount = 0
        @exclusivity(unchecked) var byteCapacity: Int
        @exclusivity(unchecked) @usableFromInline var ends: UnsafeMutablePointer<Int>
        @exclusivity(unchecked) @usableFromInline var fieldCount = 0
        @exclusivity(unchecked) var fieldCapacity: Int

        init(byteCapacity: Int = 1024, fieldCapacity: Int = 16) {
            self.byteCapacity = byteCapacity
            self.fieldCapacity = fieldCapacity
            bytes = .allocate(capacity: byteCapacity)
            ends = .allocate(capacity: fieldCapacity)
        }

        deinit {
            bytes.deallocate()
            ends.deallocate()
        }

        func copy() -> Storage {
            let other = Storage(byteCapacity: max(byteCapacity, 16), fieldCapacity: max(fieldCapacity, 4))
            other.bytes.update(from: bytes, count: byteCount)
            other.ends.update(from: ends, count: fieldCount)
            other.byteCount = byteCount
            other.fieldCount = fieldCount
            return other
        }

        @inline(__always) func append(_ start: UnsafePointer<UInt8>, count: Int) {
            if byteCount + count > byteCapacity { growBytes(to: byteCount + count) }
            (bytes + byteCount).update(from: start, count: count)
            byteCount += count
        }

        @inline(__always) func append(byte: UInt8) {
            if byteCount == byteCapacity { growBytes(to: byteCount + 1) }
            bytes[byteCount] = byte
            byteCount += 1
        }

        @inline(__always) func endField() {
            if fieldCount == fieldCapacity { growFields() }
            ends[fieldCount] = byteCount
            fieldCount += 1
        }

        private func growBytes(to needed: Int) {
            var capacity = byteCapacity * 2
            while capacity < needed { capacity *= 2 }
            let new = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            new.update(from: bytes, count: byteCount)
            bytes.deallocate()
            bytes = new
            byteCapacity = capacity
        }

        private func growFields() {
            let capacity = fieldCapacity * 2
            let new = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
            new.update(from: ends, count: fieldCount)
            ends.deallocate()
            ends = new
            fieldCapacity = capacity
        }
    }

    @usableFromInline var storage: Storage
    /// The 1-based line number on which the record starts.
    public internal(set) var line: Int = 0
    /// The offset in the input of the record's first byte (where a reader may start again to read it).
    public internal(set) var offset: Int64 = 0

    /// An empty record, ready for ``CSVReader/read(into:)``.
    public init() {
        storage = Storage()
    }

    /// A record made from text fields (for tests and writers).
    public init(line: Int, fields: [String]) {
        storage = Storage()
        self.line = line
        for field in fields {
            var field = field
            field.withUTF8 { storage.append($0.baseAddress ?? UnsafePointer(storage.bytes), count: $0.count) }
            storage.endField()
        }
    }

    /// The number of fields.
    @inlinable public var count: Int { storage.fieldCount }

    /// Calls `body` with the raw bytes of field `index` (valid only inside `body`).
    @inlinable
    public func withUnsafeBytes<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        // The record (borrowed for the call) keeps its storage alive: no retain of it per field
        // (the import reads a dozen fields a row; the pairs showed in its profile).
        precondition(index >= 0 && index < storage.fieldCount, "CSVRecord: field index \(index) out of range")
        let ends = storage.ends
        let start = index == 0 ? 0 : ends[index - 1]
        return try body(UnsafeRawBufferPointer(start: storage.bytes + start, count: ends[index] - start))
    }

    /// The raw bytes of field `index`.
    package func rawBytes(at index: Int) -> [UInt8] {
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

    /// Empties the record and makes its storage unique, then returns the storage to append to.
    @inline(__always) mutating func clearForWriting() -> Storage {
        if isKnownUniquelyReferenced(&storage) {
            storage.byteCount = 0
            storage.fieldCount = 0
        } else {
            storage = Storage()
        }
        return storage
    }
}
