/// The row ids of one chunk of an ``OrderedIDList``: 4 bytes each while every
/// id of the chunk lies in `0...UInt32.max` (SQLite's row ids almost always
/// do), 8 bytes once one does not.
///
/// A chunk promotes itself to 8-byte ids when an id outside that range is
/// added, and only that chunk: a table with a few huge or negative row ids
/// pays for them in their chunks alone. Reads are one well-predicted branch.
///
///     var ids = ChunkIDs()
///     ids.append(7)              // 4 bytes
///     ids.append(Int64.max)      // this chunk now keeps 8 bytes per id
///     ids[1]                     // Int64.max
struct ChunkIDs: RandomAccessCollection, ExpressibleByArrayLiteral {
    /// The ids while they all fit in 32 bits (empty once `wide` is in use).
    private var narrow = ContiguousArray<UInt32>()
    /// The ids once one does not fit; non-empty exactly when the chunk is wide.
    private var wide = ContiguousArray<Int64>()

    init() {}

    init(arrayLiteral ids: Int64...) {
        for id in ids { append(id) }
    }

    /// The ids of `source[range]` (narrow again when they all fit).
    init(_ source: ChunkIDs, _ range: Range<Int>) {
        if source.wide.isEmpty {
            narrow = ContiguousArray(source.narrow[range])
        } else {
            let slice = source.wide[range]
            if slice.allSatisfy(ChunkIDs.fitsNarrow) {
                narrow = ContiguousArray(slice.lazy.map { UInt32(truncatingIfNeeded: $0) })
            } else {
                wide = ContiguousArray(slice)
            }
        }
    }

    @inline(__always)
    static func fitsNarrow(_ id: Int64) -> Bool { UInt64(bitPattern: id) <= UInt64(UInt32.max) }

    /// Whether the chunk keeps 8 bytes per id.
    var isWide: Bool { !wide.isEmpty }

    var startIndex: Int { 0 }
    var endIndex: Int { wide.isEmpty ? narrow.count : wide.count }
    var count: Int { wide.isEmpty ? narrow.count : wide.count }
    var isEmpty: Bool { wide.isEmpty && narrow.isEmpty }

    subscript(position: Int) -> Int64 {
        @inline(__always) get { wide.isEmpty ? Int64(narrow[position]) : wide[position] }
    }

    mutating func reserveCapacity(_ n: Int) {
        if wide.isEmpty { narrow.reserveCapacity(n) } else { wide.reserveCapacity(n) }
    }

    @inline(__always)
    mutating func append(_ id: Int64) {
        if wide.isEmpty && ChunkIDs.fitsNarrow(id) {
            narrow.append(UInt32(truncatingIfNeeded: id))
        } else {
            promote()
            wide.append(id)
        }
    }

    mutating func append(contentsOf ids: UnsafeBufferPointer<Int64>) {
        if wide.isEmpty && ids.allSatisfy(ChunkIDs.fitsNarrow) {
            narrow.append(contentsOf: ids.lazy.map { UInt32(truncatingIfNeeded: $0) })
        } else {
            promote()
            wide.append(contentsOf: ids)
        }
    }

    /// Appends `n` placeholder ids (0), to be overwritten with ``moveAndSet(_:)``.
    mutating func appendPlaceholders(_ n: Int) {
        if wide.isEmpty {
            narrow.append(contentsOf: repeatElement(0, count: n))
        } else {
            wide.append(contentsOf: repeatElement(0, count: n))
        }
    }

    mutating func removeLast(_ n: Int) {
        if wide.isEmpty { narrow.removeLast(n) } else { wide.removeLast(n) }
    }

    /// Keeps the first `n` ids.
    mutating func truncate(to n: Int) {
        if wide.isEmpty { narrow.removeSubrange(n...) } else { wide.removeSubrange(n...) }
    }

    /// Switches to 8-byte ids (keeping the capacity asked for before).
    private mutating func promote() {
        guard wide.isEmpty else { return }
        wide.reserveCapacity(Swift.max(narrow.capacity, narrow.count + 1))
        wide.append(contentsOf: narrow.lazy.map { Int64($0) })
        narrow = []
    }

    /// Switches to 8-byte ids when one of `ids` does not fit in 4 (before they are written with ``withMover(_:)``).
    mutating func widen(toHold ids: some Sequence<Int64>) {
        if wide.isEmpty && !ids.allSatisfy(ChunkIDs.fitsNarrow) { promote() }
    }

    /// Runs `body` with a ``Mover`` over the chunk's storage: moves and writes
    /// in place, without bounds checks (`body` keeps inside `0..<count`, and
    /// writes only ids the chunk can hold: see ``widen(toHold:)``).
    mutating func withMover<R>(_ body: (Mover) throws -> R) rethrows -> R {
        if wide.isEmpty {
            return try narrow.withUnsafeMutableBufferPointer {
                try body(Mover(isNarrow: true, narrow: $0.baseAddress, wide: nil))
            }
        }
        return try wide.withUnsafeMutableBufferPointer {
            try body(Mover(isNarrow: false, narrow: nil, wide: $0.baseAddress))
        }
    }

    /// In-place moves and writes inside one chunk's storage (see ``withMover(_:)``).
    struct Mover {
        fileprivate let isNarrow: Bool
        fileprivate let narrow: UnsafeMutablePointer<UInt32>?
        fileprivate let wide: UnsafeMutablePointer<Int64>?

        @inline(__always)
        func move(from: Int, to: Int, count n: Int) {
            guard n > 0, from != to else { return }
            if isNarrow {
                (narrow! + to).update(from: narrow! + from, count: n)
            } else {
                (wide! + to).update(from: wide! + from, count: n)
            }
        }

        @inline(__always)
        func set(_ i: Int, _ id: Int64) {
            if isNarrow { narrow![i] = UInt32(truncatingIfNeeded: id) } else { wide![i] = id }
        }

        @inline(__always)
        func get(_ i: Int) -> Int64 {
            isNarrow ? Int64(narrow![i]) : wide![i]
        }
    }

    /// The offset of `id` in the chunk, nil when it is not there (a scan).
    @inline(__always)
    func offset(of id: Int64) -> Int? {
        if wide.isEmpty {
            guard ChunkIDs.fitsNarrow(id) else { return nil }
            return ChunkIDs.scan(narrow, for: UInt32(truncatingIfNeeded: id))
        }
        return ChunkIDs.scan(wide, for: id)
    }

    /// Eight comparisons a step, joined before the one branch. (Generic `SIMD8` code
    /// built its vectors lane by lane through the stack here: six times slower, 320 ns a
    /// chunk against 50.)
    @inline(__always)
    private static func scan<T: FixedWidthInteger>(_ ids: ContiguousArray<T>, for id: T) -> Int? {
        ids.withUnsafeBufferPointer { b in
            let n = b.count
            var i = 0
            while i + 8 <= n {
                let hit =
                    (b[i] == id) || (b[i + 1] == id) || (b[i + 2] == id) || (b[i + 3] == id)
                    || (b[i + 4] == id) || (b[i + 5] == id) || (b[i + 6] == id) || (b[i + 7] == id)
                if hit { break }
                i += 8
            }
            while i < n {
                if b[i] == id { return i }
                i += 1
            }
            return nil
        }
    }

    /// Calls `body` with each id in order.
    @inline(__always)
    func forEachID(_ body: (Int64) throws -> Void) rethrows {
        if wide.isEmpty {
            for id in narrow { try body(Int64(id)) }
        } else {
            for id in wide { try body(id) }
        }
    }

    /// Appends the ids of `range` to `out`.
    func append(_ range: Range<Int>, to out: inout [Int64]) {
        if wide.isEmpty {
            out.append(contentsOf: narrow[range].lazy.map { Int64($0) })
        } else {
            out.append(contentsOf: wide[range])
        }
    }

    /// Runs `body` with the ids as 8-byte integers (the results cache's file format).
    func withInt64Buffer<R>(_ body: (UnsafeBufferPointer<Int64>) throws -> R) rethrows -> R {
        if !wide.isEmpty { return try wide.withUnsafeBufferPointer(body) }
        let widened = ContiguousArray(narrow.lazy.map { Int64($0) })
        return try widened.withUnsafeBufferPointer(body)
    }
}
