import CSVImport

/// The parsing thread of a ``CSVTableLoader``: reads rows (``ImportRows``),
/// refuses those with the wrong number of fields, classifies and counts every
/// field (``CSVColumnTypeInference``) and fills ``BulkRowBatch``es.
///
/// Integers and reals written as SQLite writes them back go into the batch as
/// numbers; every other field as its text decoded from the dialect's encoding
/// (exactly as written: nothing is trimmed); empty fields as NULL. Its state
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
    private let isCancelled: @Sendable () -> Bool

    /// The writer went away (it failed) or the load was cancelled: stop reading.
    struct Stopped: Error {}

    init(rows: ImportRows, dialect: CSVDialect, columnCount: Int, isCancelled: @escaping @Sendable () -> Bool) {
        self.rows = rows
        self.dialect = dialect
        self.columnCount = columnCount
        self.isCancelled = isCancelled
        inference = CSVColumnTypeInference(columnCount: columnCount)
    }

    /// Fills batches from `pipe` with the good rows and sends them (run by ``TwoThreadLoad``).
    func fill(_ pipe: BatchPipe<BulkRowBatch>) throws {
        var batch = pipe.emptyBatch()
        try rows.readEach { record in
            guard record.count == columnCount else {
                rows.addIssue(RowProblem(reason: "expected \(columnCount) fields, found \(record.count)"), line: record.line)
                return
            }
            if rows.mustAbort { return }
            guard let current = batch else { throw Stopped() }
            add(record, to: current)
            if current.isFull {
                pipe.send(current)
                if isCancelled() { throw Stopped() }
                batch = pipe.emptyBatch()
            }
        }
        if let batch, !batch.isEmpty { pipe.send(batch) }
    }

    /// Adds one row: each field classified (``CSVFieldValue``), counted, and appended as a number, text or NULL.
    private func add(_ record: CSVRecord, to batch: BulkRowBatch) {
        for column in 0..<columnCount {
            record.withUnsafeBytes(at: column) { raw in
                let value = CSVFieldValue.classify(raw)
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

    /// The field's text as UTF-8: ASCII and (in a UTF-8 file) valid UTF-8 as it is, else decoded.
    @inline(__always)
    private func appendText(_ raw: UnsafeRawBufferPointer, to batch: BulkRowBatch) {
        if CSVTextDecoding.isASCII(raw) || (dialect.encoding == .utf8 && CSVTextDecoding.isValidUTF8(raw)) {
            batch.append(utf8: raw)
            return
        }
        var decoded = dialect.string(from: raw)
        decoded.withUTF8 { batch.append(utf8: UnsafeRawBufferPointer($0)) }
    }
}
