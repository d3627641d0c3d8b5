import CSVImport

/// The parsing thread of a ``CSVTableLoader``: reads rows (``ImportRows``),
/// refuses those with the wrong number of fields, classifies and counts every
/// field (`CSVColumnTypeInference`) and fills ``BulkRowBatch``es.
///
/// Integers and reals written as SQLite writes them back go into the batch as
/// numbers; dates in another of `CalendarDay`'s forms (`27-Jun-25`,
/// `6/27/2025`, `June 27, 2025`) as their ISO text `2025-06-27`, in the
/// columns of ``convertsDates``; every other field as its text decoded from
/// UTF-8 when valid, else Windows-1252, field by field (exactly as written:
/// nothing is trimmed; a file that mixes the two is noted: ``mixedEncodingLine``);
/// empty fields as NULL; a missing-value token (``missingValues``: `NA`, `-`…) as
/// written, counted apart so that the loader makes it NULL in a column of numbers or dates. A column where such a date was rewritten but which turns out
/// not to hold only dates is named in ``columnsWithRewrittenNonDates``: its
/// rewritten values are no longer what the file says, so the loader loads the
/// file again without rewriting that column. Its state
/// is used by the parsing thread until ``BatchPipe/finish(error:)`` (through
/// ``TwoThreadLoad``) and read by the writer after that (the pipe's lock
/// orders the accesses), hence `@unchecked Sendable`.
///
///     let producer = CSVRowProducer(rows: rows, dialect: dialect, columnCount: 5, isCancelled: { false })
///     try TwoThreadLoad.run(produce: { try producer.fill($0) }, consume: { try writer.write($0) })
///     producer.inference.types   // [.integer, .dateTime, .text, .text, .text]
final class CSVRowProducer: @unchecked Sendable {
    let rows: ImportRows
    let dialect: CSVDialect
    let columnCount: Int
    /// The types so far (complete once ``fill(_:)`` has returned).
    private(set) var inference: CSVColumnTypeInference
    /// Per column: whether a field in another date form is rewritten as ISO text.
    let convertsDates: [Bool]
    /// Per column: how many fields were rewritten as ISO dates.
    private var rewrittenDates: [Int]
    private let isCancelled: @Sendable () -> Bool
    /// The fields that stand for a missing value, as written (their UTF-8 bytes).
    let missingValues: [[UInt8]]
    /// The longest of them (a longer field is none: most fields are not even compared).
    private let longestMissingValue: Int
    /// How many fields held non-ASCII text that is valid UTF-8.
    private(set) var utf8Fields = 0
    /// The line of the first field that is not valid UTF-8 (read as Windows-1252), if any.
    private(set) var firstWindows1252Line: Int?
    /// The line of the first field read as Windows-1252 when the file also holds fields of non-ASCII
    /// UTF-8 (complete once ``fill(_:)`` has returned): a file that mixes the two encodings.
    var mixedEncodingLine: Int? { utf8Fields > 0 ? firstWindows1252Line : nil }
    private var line = 0
    /// Where the last record read starts: its offset in the file and its line.
    private(set) var lastRecord: (offset: Int64, line: Int)?
    /// Whether the last record read was added to a batch (not refused for its field count).
    private(set) var lastRecordWasWritten = false

    /// The writer went away (it failed) or the load was cancelled: stop reading.
    struct Stopped: Error {}

    init(
        rows: ImportRows,
        dialect: CSVDialect,
        columnCount: Int,
        convertsDates: [Bool]? = nil,
        missingValues: Set<String> = [],
        isCancelled: @escaping @Sendable () -> Bool
    ) {
        self.missingValues = missingValues.map { Array($0.utf8) }.filter { !$0.isEmpty }
        longestMissingValue = self.missingValues.map(\.count).max() ?? 0
        self.rows = rows
        self.dialect = dialect
        self.columnCount = columnCount
        self.isCancelled = isCancelled
        self.convertsDates = convertsDates ?? Array(repeating: true, count: columnCount)
        rewrittenDates = Array(repeating: 0, count: columnCount)
        inference = CSVColumnTypeInference(columnCount: columnCount)
    }

    /// The columns where a field was rewritten as an ISO date although the column is not
    /// one of dates (complete once ``fill(_:)`` has returned).
    var columnsWithRewrittenNonDates: [Int] {
        let types = inference.types
        return (0..<columnCount).filter { rewrittenDates[$0] > 0 && types[$0] != .date }
    }

    /// Fills batches from `pipe` with the good rows and sends them (run by ``TwoThreadLoad``).
    func fill(_ pipe: BatchPipe<BulkRowBatch>) throws {
        var batch = pipe.emptyBatch()
        try rows.readEach { record in
            lastRecord = (record.offset, record.line)
            lastRecordWasWritten = false
            guard record.count == columnCount else {
                rows.addIssue(
                    RowProblem(reason: "expected \(columnCount) fields, found \(record.count)"),
                    line: record.line
                )
                return
            }
            if rows.mustAbort { return }
            guard let current = batch else { throw Stopped() }
            add(record, to: current)
            lastRecordWasWritten = true
            if current.isFull {
                pipe.send(current)
                if isCancelled() { throw Stopped() }
                batch = pipe.emptyBatch()
            }
        }
        if let batch, !batch.isEmpty { pipe.send(batch) }
    }

    /// Adds one row: each field classified (`CSVFieldValue`), counted, and appended as a number, text or NULL.
    private func add(_ record: CSVRecord, to batch: BulkRowBatch) {
        line = record.line
        for column in 0..<columnCount {
            record.withUnsafeBytes(at: column) { raw in
                let value = CSVFieldValue.classify(raw)
                if value == .text, raw.count <= longestMissingValue, isMissingValue(raw) {
                    inference.addMissing(column: column)
                    batch.append(utf8: raw)
                    return
                }
                if value == .text, convertsDates[column], let day = CalendarDay.parse(bytes: raw) {
                    inference.add(.date, column: column)
                    rewrittenDates[column] += 1
                    day.withISOBytes { batch.append(utf8: $0) }
                    return
                }
                inference.add(value, column: column)
                switch value {
                case .empty: batch.appendNull()
                case .integer(let n): batch.append(n)
                case .real(let x, exact: true): batch.append(x)
                default: appendText(raw, to: batch)
                }
            }
        }
        batch.endRow(line: record.line)
    }

    /// Whether the field is one of ``missingValues``, byte for byte.
    @inline(__always)
    private func isMissingValue(_ raw: UnsafeRawBufferPointer) -> Bool {
        missingValues.contains { token in token.count == raw.count && token.elementsEqual(raw) }
    }

    /// The field's text as UTF-8: ASCII and valid UTF-8 as it is, else decoded from Windows-1252
    /// (field by field, as failedbanks' importer reads: a file may mix the two), each kind counted.
    @inline(__always)
    private func appendText(_ raw: UnsafeRawBufferPointer, to batch: BulkRowBatch) {
        if CSVTextDecoding.isASCII(raw) {
            batch.append(utf8: raw)
            return
        }
        if CSVTextDecoding.isValidUTF8(raw) {
            utf8Fields += 1
            batch.append(utf8: raw)
            return
        }
        if firstWindows1252Line == nil { firstWindows1252Line = line }
        var decoded = CSVTextDecoding.windows1252(raw)
        decoded.withUTF8 { batch.append(utf8: UnsafeRawBufferPointer($0)) }
    }
}
