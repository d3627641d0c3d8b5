import Foundation
import SQLiteStore

/// The ids of consecutive fetched rows that share one sort value, for a query that leaves such
/// rows in SQLite's order (``FetchPlan/SectionFromSortValue/ordersTiesByID``): the fetch appends
/// them in id order once a row with another value arrives, which makes the order that of
/// `ORDER BY value, id`.
///
/// Equal means equal to `ORDER BY … COLLATE BINARY`: the same bytes for text (kept here, so no
/// value is made for a text row), `StoreValue.compare` for anything else (NULLs, numbers).
///
///     var run = SortValueRun()
///     if run.continues(text: bytes) { run.add(id) } else { run.append(to: &builder); run.start(id, text: bytes) }
///     …
///     run.append(to: &builder)   // after the last row
struct SortValueRun: ~Copyable {
    /// The current value's UTF-8 bytes when it is text (`textCount` of them).
    private var text: UnsafeMutableRawPointer
    private var textCapacity: Int
    /// The current value's byte count when it is text; -1 when it is not (or no row came yet).
    private var textCount = -1
    /// The current value when it is not text (nil before the first row).
    private var other: StoreValue?
    /// The run's first id, and the ids after it (empty for a run of one row, most runs).
    private var first: Int64 = 0
    private var more: [Int64] = []
    private var isEmpty = true

    init() {
        textCapacity = 64
        text = UnsafeMutableRawPointer.allocate(byteCount: textCapacity, alignment: 1)
    }

    deinit { text.deallocate() }

    /// Whether a row with the text `bytes` has the run's value.
    @inline(__always)
    func continues(text bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count == textCount && (textCount == 0 || memcmp(bytes.baseAddress!, text, textCount) == 0)
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

    /// Starts a run of the text `bytes` with the row `id` (after ``append(to:)``).
    @inline(__always)
    mutating func start(_ id: Int64, text bytes: UnsafeRawBufferPointer) {
        if bytes.count > textCapacity {
            text.deallocate()
            textCapacity = Swift.max(bytes.count, 2 * textCapacity)
            text = UnsafeMutableRawPointer.allocate(byteCount: textCapacity, alignment: 1)
        }
        if let base = bytes.baseAddress { text.copyMemory(from: base, byteCount: bytes.count) }
        textCount = bytes.count
        other = nil
        first = id
        isEmpty = false
    }

    /// Starts a run of the value `value` (not text) with the row `id` (after ``append(to:)``).
    mutating func start(_ id: Int64, other value: StoreValue) {
        textCount = -1
        other = value
        first = id
        isEmpty = false
    }

    /// Adds the row `id` to the run (its value continues it).
    @inline(__always)
    mutating func add(_ id: Int64) {
        more.append(id)
    }

    /// Appends the run's ids to `builder` in id order and empties the run.
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
