import SQLiteStore

/// Rows on their way from a parsing thread to the writing one, in any
/// table's layout: per row, per column, a NULL, an integer, a real or UTF-8
/// text held in one byte buffer — what ``MultiRowInsertWriter`` binds.
///
/// Filled by appending a row's values in column order, then ``endRow(line:)``.
/// Text is copied once into the batch's buffer (one `memcpy`) and bound from
/// there without another copy. A batch is owned by one thread at a time and
/// handed over through ``BatchPipe`` (whose lock orders the accesses), hence
/// `@unchecked Sendable`.
///
///     let batch = BulkRowBatch(capacity: 1024)
///     batch.append(Int64(7))
///     "Ada".utf8CString.withUnsafeBytes { batch.append(utf8: UnsafeRawBufferPointer(rebasing: $0.dropLast())) }
///     batch.appendNull()
///     batch.endRow(line: 2)
///     batch.value(row: 0, column: 1)   // .text("Ada")
package final class BulkRowBatch: PipeBatch, @unchecked Sendable {
    /// How one value is bound.
    package enum Kind: UInt8, Sendable {
        /// SQL NULL.
        case null
        /// A 64-bit integer.
        case integer
        /// A 64-bit floating-point number.
        case real
        /// UTF-8 text in the batch's buffer.
        case text
    }

    /// One value: its kind, the integer's or the real's bits, or the range of its text in ``text``.
    package struct Cell: Sendable {
        /// How the value is bound.
        package var kind: Kind
        /// The integer (`Int64(bitPattern:)`) or the real (`Double(bitPattern:)`).
        package var bits: UInt64
        /// The text's range in ``BulkRowBatch/text``.
        package var start: Int, end: Int
    }

    /// The most rows the batch holds (``isFull`` then).
    package let capacity: Int
    /// The values, row after row (``columnCount`` a row once rows are ended).
    @exclusivity(unchecked) package private(set) var cells: [Cell] = []
    /// The 1-based line (of the source file) on which each row starts.
    @exclusivity(unchecked) package private(set) var lines: [Int] = []
    @exclusivity(unchecked) private var bytes: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var byteCount = 0
    @exclusivity(unchecked) private var byteCapacity: Int

    /// An empty batch for `capacity` rows.
    package init(capacity: Int) {
        self.capacity = capacity
        byteCapacity = max(capacity, 1) * 64
        bytes = .allocate(capacity: byteCapacity)
        lines.reserveCapacity(capacity)
    }

    deinit { bytes.deallocate() }

    /// The rows ended so far.
    package var rowCount: Int { lines.count }
    /// True when ``capacity`` rows are in the batch.
    package var isFull: Bool { lines.count >= capacity }
    /// True when no row is in the batch.
    package var isEmpty: Bool { lines.isEmpty }
    /// Values per row (those of the first row; every row must have as many).
    package private(set) var columnCount = 0

    /// The text bytes of all rows (valid until the batch is changed).
    package var text: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: bytes, count: byteCount) }

    /// Empties the batch, keeping its storage.
    package func removeAll() {
        byteCount = 0
        columnCount = 0
        cells.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
    }

    /// Appends a NULL to the row being filled.
    @inline(__always) package func appendNull() { cells.append(Cell(kind: .null, bits: 0, start: 0, end: 0)) }

    /// Appends an integer to the row being filled.
    @inline(__always) package func append(_ value: Int64) {
        cells.append(Cell(kind: .integer, bits: UInt64(bitPattern: value), start: 0, end: 0))
    }

    /// Appends a real to the row being filled.
    @inline(__always) package func append(_ value: Double) {
        cells.append(Cell(kind: .real, bits: value.bitPattern, start: 0, end: 0))
    }

    /// Appends UTF-8 text (copied into the batch) to the row being filled.
    @inline(__always) package func append(utf8 text: UnsafeRawBufferPointer) {
        let start = byteCount
        if let base = text.baseAddress, !text.isEmpty {
            if byteCount + text.count > byteCapacity { grow(to: byteCount + text.count) }
            UnsafeMutableRawPointer(bytes + byteCount).copyMemory(from: base, byteCount: text.count)
            byteCount += text.count
        }
        cells.append(Cell(kind: .text, bits: 0, start: start, end: byteCount))
    }

    /// Ends the row being filled; `line` is where it starts in the source (for messages).
    @inline(__always) package func endRow(line: Int) {
        if lines.isEmpty { columnCount = cells.count }
        lines.append(line)
    }

    /// The value at `row`, `column` (row-major, ``columnCount`` a row).
    package func value(row: Int, column: Int) -> StoreValue {
        let cell = cells[row * columnCount + column]
        switch cell.kind {
        case .null: return .null
        case .integer: return .integer(Int64(bitPattern: cell.bits))
        case .real: return .real(Double(bitPattern: cell.bits))
        case .text:
            return .text(String(decoding: UnsafeRawBufferPointer(rebasing: text[cell.start..<cell.end]), as: UTF8.self))
        }
    }

    private func grow(to needed: Int) {
        var capacity = byteCapacity * 2
        while capacity < needed { capacity *= 2 }
        let new = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        new.update(from: bytes, count: byteCount)
        bytes.deallocate()
        bytes = new
        byteCapacity = capacity
    }
}
