/// One JSON object read by ``JSONRecordReader``: its members in the order written, each a key
/// (an index into the reader's ``JSONRecordReader/keys``), a kind and the value's bytes, and the
/// line on which the object starts.
///
/// A string's bytes are its text with the escapes decoded (UTF-8); a number's are as written;
/// a nested array or object's are its JSON text without the white space between tokens. A
/// record is a reusable buffer: ``JSONRecordReader/read(into:)`` clears and refills it, so a loop
/// over a million objects allocates nothing once the buffer has grown to the longest one. Copies
/// are independent (copy on write, like `Array`).
///
///     let reader = JSONRecordReader(bytes: Array("{\"id\": 7, \"tags\": [\"a\", \"b\"]}\n".utf8))
///     var record = JSONRecord()
///     while try reader.read(into: &record) {
///         reader.keys[record.keyIndex(at: 1)]   // "tags"
///         record.kind(at: 1)                    // .nested
///         record.text(at: 1)                    // "[\"a\",\"b\"]"
///     }
public struct JSONRecord: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: the storage is mutated only while uniquely referenced (copy on write).

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

    /// The bytes of every value one after the other, and each member's end offset, key index and
    /// kind.
    ///
    /// Raw buffers instead of arrays, as ``CSVRecord``'s are: the arrays' appends and uniqueness
    /// checks were a tenth of the parsing thread's time in a profile of a 1M-row JSON Lines load.
    /// The reader also uses one as a buffer of bytes alone (a key or a nested string being read).
    @usableFromInline
    final class Storage {
        @exclusivity(unchecked) @usableFromInline var bytes: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) @usableFromInline var byteCount = 0
        @exclusivity(unchecked) var byteCapacity: Int
        @exclusivity(unchecked) @usableFromInline var ends: UnsafeMutablePointer<Int>
        @exclusivity(unchecked) @usableFromInline var keyIndexes: UnsafeMutablePointer<Int32>
        @exclusivity(unchecked) @usableFromInline var kinds: UnsafeMutablePointer<Kind>
        @exclusivity(unchecked) @usableFromInline var memberCount = 0
        @exclusivity(unchecked) var memberCapacity: Int

        init(byteCapacity: Int = 1024, memberCapacity: Int = 16) {
            self.byteCapacity = byteCapacity
            self.memberCapacity = memberCapacity
            bytes = .allocate(capacity: byteCapacity)
            ends = .allocate(capacity: memberCapacity)
            keyIndexes = .allocate(capacity: memberCapacity)
            kinds = .allocate(capacity: memberCapacity)
        }

        deinit {
            bytes.deallocate()
            ends.deallocate()
            keyIndexes.deallocate()
            kinds.deallocate()
        }

        func copy() -> Storage {
            let other = Storage(byteCapacity: max(byteCount, 16), memberCapacity: max(memberCount, 4))
            other.bytes.update(from: bytes, count: byteCount)
            other.ends.update(from: ends, count: memberCount)
            other.keyIndexes.update(from: keyIndexes, count: memberCount)
            other.kinds.update(from: kinds, count: memberCount)
            other.byteCount = byteCount
            other.memberCount = memberCount
            return other
        }

        /// Empties the bytes and members (keeping the memory).
        @inline(__always) func removeAll() {
            byteCount = 0
            memberCount = 0
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

        /// Appends the bytes of `text` (ASCII punctuation and literals).
        @inline(__always) func append(_ text: StaticString) {
            append(text.utf8Start, count: text.utf8CodeUnitCount)
        }

        /// Ends a member: the bytes appended since the last one are its value.
        @inline(__always) func endMember(key: Int, kind: Kind) {
            if memberCount == memberCapacity { growMembers() }
            ends[memberCount] = byteCount
            keyIndexes[memberCount] = Int32(key)
            kinds[memberCount] = kind
            memberCount += 1
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

        private func growMembers() {
            let capacity = memberCapacity * 2
            ends = Storage.grown(ends, count: memberCount, to: capacity)
            keyIndexes = Storage.grown(keyIndexes, count: memberCount, to: capacity)
            kinds = Storage.grown(kinds, count: memberCount, to: capacity)
            memberCapacity = capacity
        }

        private static func grown<T>(
            _ old: UnsafeMutablePointer<T>,
            count: Int,
            to capacity: Int
        )
            -> UnsafeMutablePointer<T>
        {
            let new = UnsafeMutablePointer<T>.allocate(capacity: capacity)
            new.moveInitialize(from: old, count: count)
            old.deallocate()
            return new
        }
    }

    @usableFromInline var storage: Storage
    /// The 1-based line on which the object starts.
    public internal(set) var line = 0

    /// An empty record, ready for ``JSONRecordReader/read(into:)``.
    public init() {
        storage = Storage()
    }

    /// The number of members.
    @inlinable public var count: Int { storage.memberCount }

    /// The key index of member `index` (into ``JSONRecordReader/keys``).
    @inlinable public func keyIndex(at index: Int) -> Int {
        precondition(index >= 0 && index < storage.memberCount, "JSONRecord: member index \(index) out of range")
        return Int(storage.keyIndexes[index])
    }

    /// The kind of member `index`'s value.
    @inlinable public func kind(at index: Int) -> Kind {
        precondition(index >= 0 && index < storage.memberCount, "JSONRecord: member index \(index) out of range")
        return storage.kinds[index]
    }

    /// Calls `body` with the bytes of member `index`'s value (valid only inside `body`).
    @inlinable
    public func withUnsafeBytes<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        // The record (borrowed for the call) keeps its storage alive: no retain of it per member.
        precondition(index >= 0 && index < storage.memberCount, "JSONRecord: member index \(index) out of range")
        let ends = storage.ends
        let start = index == 0 ? 0 : ends[index - 1]
        return try body(UnsafeRawBufferPointer(start: storage.bytes + start, count: ends[index] - start))
    }

    /// Member `index`'s value as text: a string's text, a number as written, `true`, `false`,
    /// `null`, a nested value's JSON text.
    public func text(at index: Int) -> String {
        switch kind(at: index) {
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

    /// Empties the record and makes its storage unique, then returns the storage to append to.
    @inline(__always) mutating func clearForWriting() -> Storage {
        if isKnownUniquelyReferenced(&storage) {
            storage.removeAll()
        } else {
            storage = Storage()
        }
        return storage
    }
}
