import BulkImport
import CSVImport

/// Checked rows on their way from the parsing thread to the writing one:
/// their trimmed text in one byte buffer, their other values alongside.
///
/// A batch is owned by one thread at a time and handed over through
/// ``BatchPipe`` (whose lock orders the accesses), hence `@unchecked Sendable`.
///
///     let batch = RowBatch(capacity: 1024)
///     batch.add(record, values, layout: layout, id: 1)
final class RowBatch: PipeBatch, @unchecked Sendable {
    struct Row {
        var id: Int64
        var cert: Int64
        var fund: Int64?
        /// `YYYY-MM-DD` text, formatted here (on the parsing thread).
        var closeDate: Range<Int>
        var updatedDate: Range<Int>?
        var name: Range<Int>
        var city: Range<Int>
        var state: Range<Int>
        var acquirer: Range<Int>?
    }

    let capacity: Int
    /// The rows' text, one field after the other (a raw buffer: one `memcpy` per field).
    @exclusivity(unchecked) private var bytes: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var byteCount = 0
    @exclusivity(unchecked) private var byteCapacity: Int
    @exclusivity(unchecked) private(set) var rows: [Row] = []

    init(capacity: Int) {
        self.capacity = capacity
        byteCapacity = capacity * 128
        bytes = .allocate(capacity: byteCapacity)
        rows.reserveCapacity(capacity)
    }

    deinit { bytes.deallocate() }

    /// The text bytes of all rows (valid until the batch is changed).
    var text: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: bytes, count: byteCount) }

    var isFull: Bool { rows.count >= capacity }
    var isEmpty: Bool { rows.isEmpty }

    func removeAll() {
        byteCount = 0
        rows.removeAll(keepingCapacity: true)
    }

    /// Adds one checked row with its id.
    func add(_ record: CSVRecord, _ values: BankRowLayout.Values, layout: BankRowLayout, id: Int64) {
        let name = append(record, layout.name)
        let city = append(record, layout.city)
        let state = append(record, layout.state)
        var acquirer: Range<Int>?
        if let index = layout.acquirer {
            let range = append(record, index)
            if !range.isEmpty { acquirer = range }
        }
        let closeDate = append(values.closeDate)
        let updatedDate = values.updatedDate.map(append)
        rows.append(Row(id: id, cert: values.cert, fund: values.fund, closeDate: closeDate,
                        updatedDate: updatedDate, name: name, city: city, state: state, acquirer: acquirer))
    }

    private func append(_ record: CSVRecord, _ index: Int) -> Range<Int> {
        CSVFieldText.withText(record, index) { append($0) }
    }

    private func append(_ day: CalendarDay) -> Range<Int> {
        day.withISOBytes { append($0) }
    }

    private func append(_ text: UnsafeRawBufferPointer) -> Range<Int> {
        let start = byteCount
        guard let base = text.baseAddress, !text.isEmpty else { return start..<start }
        if byteCount + text.count > byteCapacity { grow(to: byteCount + text.count) }
        UnsafeMutableRawPointer(bytes + byteCount).copyMemory(from: base, byteCount: text.count)
        byteCount += text.count
        return start..<byteCount
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
