import CSVImport

/// Rows of any CSV file on their way from the parsing thread to the writing
/// one: each field as a NULL, an integer, a real or UTF-8 text in one byte
/// buffer, ready to bind.
///
/// A batch is owned by one thread at a time and handed over through
/// ``BatchPipe`` (whose lock orders the accesses), hence `@unchecked Sendable`.
///
///     let batch = CSVRowBatch(capacity: 1024)
///     batch.columnCount = 3
///     batch.add(record, dialect: dialect, inference: &inference)
final class CSVRowBatch: PipeBatch, @unchecked Sendable {
    /// How a field is bound.
    enum Kind: UInt8 { case null, integer, real, text }

    /// One field: its kind, the integer or the real's bits, or the range of its text in ``text``.
    struct Cell {
        var kind: Kind
        var bits: UInt64 = 0
        var start = 0
        var end = 0
    }

    let capacity: Int
    /// Fields per row (set before the first ``add(_:dialect:inference:)``).
    var columnCount = 0
    /// The rows' fields, row after row.
    @exclusivity(unchecked) private(set) var cells: [Cell] = []
    /// The 1-based line on which each row starts.
    @exclusivity(unchecked) private(set) var lines: [Int] = []
    @exclusivity(unchecked) private var bytes: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var byteCount = 0
    @exclusivity(unchecked) private var byteCapacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        byteCapacity = capacity * 64
        bytes = .allocate(capacity: byteCapacity)
        lines.reserveCapacity(capacity)
    }

    deinit { bytes.deallocate() }

    /// The rows in the batch.
    var rowCount: Int { lines.count }
    var isFull: Bool { lines.count >= capacity }
    var isEmpty: Bool { lines.isEmpty }

    /// The text bytes of all rows (valid until the batch is changed).
    var text: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: bytes, count: byteCount) }

    func removeAll() {
        byteCount = 0
        cells.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
    }

    /// Adds one row of ``columnCount`` fields, each classified (``CSVFieldValue``) and counted in `inference`.
    ///
    /// Integers and reals written as SQLite writes them back are numbers; every other field is its text,
    /// decoded from the dialect's encoding (exactly as written: nothing is trimmed); empty fields are NULL.
    func add(_ record: CSVRecord, dialect: CSVDialect, inference: inout CSVColumnTypeInference) {
        if cells.capacity == 0 { cells.reserveCapacity(capacity * columnCount) }
        lines.append(record.line)
        for column in 0..<columnCount {
            record.withUnsafeBytes(at: column) { raw in
                let value = CSVFieldValue.classify(raw)
                inference.add(value, column: column)
                switch value {
                case .empty:
                    cells.append(Cell(kind: .null))
                case .integer(let n):
                    cells.append(Cell(kind: .integer, bits: UInt64(bitPattern: n)))
                case .real(let x, exact: true):
                    cells.append(Cell(kind: .real, bits: x.bitPattern))
                default:
                    let range = appendText(raw, dialect)
                    cells.append(Cell(kind: .text, start: range.lowerBound, end: range.upperBound))
                }
            }
        }
    }

    /// The field's text as UTF-8 in the buffer.
    private func appendText(_ raw: UnsafeRawBufferPointer, _ dialect: CSVDialect) -> Range<Int> {
        if CSVTextDecoding.isASCII(raw) || (dialect.encoding == .utf8 && CSVTextDecoding.isValidUTF8(raw)) {
            return append(raw)
        }
        var decoded = dialect.string(from: raw)
        return decoded.withUTF8 { append(UnsafeRawBufferPointer($0)) }
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

    /// Row `row`'s fields as text (nil for NULL), as a person reads them: for the first rows shown while loading.
    func strings(ofRow row: Int) -> [String?] {
        let all = text
        return (0..<columnCount).map { column in
            let cell = cells[row * columnCount + column]
            switch cell.kind {
            case .null: return nil
            case .integer: return String(Int64(bitPattern: cell.bits))
            // Only reals written as they read back are numbers here: their shortest form is the field's text.
            case .real: return "\(Double(bitPattern: cell.bits))"
            case .text: return String(decoding: UnsafeRawBufferPointer(rebasing: all[cell.start..<cell.end]), as: UTF8.self)
            }
        }
    }
}
