import Foundation
import SQLiteStore

/// The sort value of the last row a fetch read, and the ids of the rows before it that share it.
///
/// The value decides two things for the next row: whether it is the same (the row joins the run)
/// and how many leading bytes of its text the two share (rows agreeing on a section's deciding
/// bytes are in one section: ``FetchPlan/SectionFromSortValue``). One comparison answers both.
///
/// The run's ids matter for a query that leaves rows of one value in SQLite's order
/// (``FetchPlan/SectionFromSortValue/ordersTiesByID``): the fetch appends them in id order once a
/// row with another value arrives, which makes the order that of `ORDER BY value, id`.
///
/// Equal means equal to `ORDER BY … COLLATE BINARY`: the same bytes for text (kept here, so no
/// value is made for a text row), `StoreValue.compare` for anything else (NULLs, numbers).
///
///     var run = SortValueRun(ordersTiesByID: true)
///     if run.compare(bytes).isSame {
///         run.addSame(id, to: &builder)
///     } else {
///         run.addNew(id, to: &builder)
///         run.remember(text: bytes)
///     }
///     …
///     run.append(to: &builder)   // after the last row
struct SortValueRun: ~Copyable {
    /// The value's UTF-8 bytes when it is text (`textCount` of them).
    private var text: UnsafeMutableRawPointer
    private var textCapacity: Int
    /// The value's byte count when it is text; -1 when it is not (or no row came yet).
    private var textCount = -1
    /// The value when it is not text (nil before the first row and while it is text).
    private var other: StoreValue?
    /// The run's first id, and the ids after it (empty for a run of one row, most runs).
    private var first: Int64 = 0
    private var more: [Int64] = []
    private var isEmpty = true
    /// Whether rows of one value wait in the run (``FetchPlan/SectionFromSortValue/ordersTiesByID``);
    /// otherwise each id goes straight to the builder, in the query's order.
    let ordersTiesByID: Bool

    init(ordersTiesByID: Bool) {
        self.ordersTiesByID = ordersTiesByID
        textCapacity = 64
        text = UnsafeMutableRawPointer.allocate(byteCount: textCapacity, alignment: 8)
    }

    deinit { text.deallocate() }

    /// How one text stands to another.
    struct TextComparison {
        /// The number of leading bytes the two texts share (-1 when the run's value is not text).
        let commonPrefix: Int
        /// The same text.
        let isSame: Bool
        /// SQLite's BINARY order of the first text against the second: -1, 0 or 1.
        let order: Int

        /// Whether the two texts are in one section derived from them
        /// (``FetchPlan/SectionFromSortValue``): the same text, or the same first `deciding` bytes.
        @inline(__always)
        func inOneSection(deciding: Int) -> Bool { isSame || commonPrefix >= deciding }
    }

    /// Compares a row's text with the run's value.
    @inline(__always)
    func compare(_ bytes: UnsafeRawBufferPointer) -> TextComparison {
        guard textCount >= 0 else { return TextComparison(commonPrefix: -1, isSame: false, order: 0) }
        return SortValueRun.compare(bytes, with: UnsafeRawBufferPointer(start: text, count: textCount))
    }

    /// Compares the text `a` with `b`: eight bytes at a time, up to the first difference.
    @inline(__always)
    static func compare(_ a: UnsafeRawBufferPointer, with b: UnsafeRawBufferPointer) -> TextComparison {
        let n = Swift.min(a.count, b.count)
        var i = 0
        if n > 0 {
            let x = a.baseAddress!
            let y = b.baseAddress!
            while i + 8 <= n {
                let p = x.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let q = y.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if p != q {
                    i += (UInt64(littleEndian: p) ^ UInt64(littleEndian: q)).trailingZeroBitCount / 8
                    break
                }
                i += 8
            }
            while i < n && x.load(fromByteOffset: i, as: UInt8.self) == y.load(fromByteOffset: i, as: UInt8.self) {
                i += 1
            }
            if i < n {
                let order =
                    x.load(fromByteOffset: i, as: UInt8.self) < y.load(fromByteOffset: i, as: UInt8.self) ? -1 : 1
                return TextComparison(commonPrefix: i, isSame: false, order: order)
            }
        }
        let order = a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
        return TextComparison(commonPrefix: i, isSame: order == 0, order: order)
    }

    /// How a value that is not text stands to the run's value.
    enum Match {
        /// The same value: the row continues the run.
        case same
        /// Another value (in ORDER BY too): the row starts a run.
        case different
        /// Equal in ORDER BY but not the same value (an integer and a real of the same number),
        /// so SQLite may interleave them, and a value computed from each may differ.
        case equalInOrderOnly
    }

    /// How a row with the value `value` (not text) stands to the run's value.
    func match(other value: StoreValue) -> Match {
        guard let other, StoreValue.compare(value, other) == 0 else { return .different }
        return value == other ? .same : .equalInOrderOnly
    }

    /// Makes `bytes` the value rows are compared with.
    @inline(__always)
    mutating func remember(text bytes: UnsafeRawBufferPointer) {
        if bytes.count > textCapacity { grow(to: bytes.count) }
        if let base = bytes.baseAddress { text.copyMemory(from: base, byteCount: bytes.count) }
        if textCount < 0 { other = nil }
        textCount = bytes.count
    }

    private mutating func grow(to count: Int) {
        text.deallocate()
        textCapacity = Swift.max(count, 2 * textCapacity)
        text = UnsafeMutableRawPointer.allocate(byteCount: textCapacity, alignment: 8)
    }

    /// Makes `value` (not text) the value rows are compared with.
    mutating func remember(other value: StoreValue) {
        textCount = -1
        other = value
    }

    /// Adds the row `id`, whose value is the run's.
    @inline(__always)
    mutating func addSame(_ id: Int64, to builder: inout OrderedIDList.Builder) {
        if ordersTiesByID { more.append(id) } else { builder.append(id) }
    }

    /// Adds the row `id`, whose value is another (then ``remember(text:)`` or ``remember(other:)`` it):
    /// the run so far goes to `builder`, and this row starts the next.
    @inline(__always)
    mutating func addNew(_ id: Int64, to builder: inout OrderedIDList.Builder) {
        guard ordersTiesByID else {
            builder.append(id)
            return
        }
        append(to: &builder)
        first = id
        isEmpty = false
    }

    /// Appends the run's ids to `builder` in id order and empties the run (the value is kept).
    @inline(__always)
    mutating func append(to builder: inout OrderedIDList.Builder) {
        guard !isEmpty else { return }
        isEmpty = true
        guard !more.isEmpty else {
            builder.append(first)
            return
        }
        appendSorted(to: &builder)
    }

    private mutating func appendSorted(to builder: inout OrderedIDList.Builder) {
        more.append(first)
        more.sort()
        for id in more { builder.append(id) }
        more.removeAll(keepingCapacity: true)
    }
}
