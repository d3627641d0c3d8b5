import CSVImport
import Timekeeping

/// A batch of a JSON file's rows, all with the columns known when the batch began
/// (``columnNames``): a key seen for the first time starts a new batch, so that the writer
/// adds its column before it writes rows that have it.
final class JSONRowBatch: PipeBatch, @unchecked Sendable {
    let rows: BulkRowBatch
    /// The table's columns when the batch began (its rows have one value for each).
    var columnNames: [String] = []

    init(capacity: Int) {
        rows = BulkRowBatch(capacity: capacity)
    }

    func removeAll() {
        rows.removeAll()
        columnNames = []
    }
}

/// The parsing thread of a ``CSVTableLoader`` reading a JSON or JSON Lines file: each object a
/// row, each key a column (``JSONRecordReader/keys``: in the order they first appear), the
/// columns typed from JSON's own types as the rows stream by.
///
/// A number is an integer or a real (kept as written beside it when it reads back otherwise,
/// as a CSV file's are); `true` and `false` are booleans (their text until the loader knows the
/// column holds nothing else); `null`, an absent key and an empty string are NULL; a string is
/// text — a date or date-time when it is one (ISO, or another of `CalendarDay`'s forms, which
/// becomes ISO in the columns of ``convertsDates``), never a number (`"42"` is text: JSON says
/// so); a missing-value token (``missingValues``) is counted apart, as a CSV file's; a nested
/// array or object is its JSON text. Its state is used by the parsing thread until
/// ``BatchPipe/finish(error:)`` and read by the writer after (the pipe's lock orders the
/// accesses), hence `@unchecked Sendable`.
final class JSONRowProducer: @unchecked Sendable {
    let reader: JSONRecordReader
    let path: String
    // The mutable state below is the parsing thread's alone until the pipe is finished (see above):
    // not checked for exclusive access at run time, which cost a twentieth of that thread's time in
    // a profile of a 1M-row JSON Lines file (as JSONRecordReader's and BulkRowBatch's state is not).
    /// The types so far (complete once ``fill(_:)`` has returned).
    @exclusivity(unchecked) private(set) var inference = CSVColumnTypeInference(columnCount: 0)
    /// The columns' names (the keys made unique and non-empty: `CSVColumnNames`).
    @exclusivity(unchecked) private(set) var names: [String] = []
    /// Rows read.
    @exclusivity(unchecked) private(set) var rowCount = 0
    /// Per column: whether a string in another date form is rewritten as ISO text (new columns: yes).
    let convertsDates: [Bool]
    @exclusivity(unchecked) private var rewrittenDates: [Int] = []
    private let missingValues: [[UInt8]]
    private let longestMissingValue: Int
    private let isCancelled: @Sendable () -> Bool
    private let progress: (@Sendable (ImportProgress) -> Void)?
    private let started: Double
    @exclusivity(unchecked) private var lastProgress: Double
    /// How many strings held non-ASCII text that is valid UTF-8.
    @exclusivity(unchecked) private var utf8Fields = 0
    @exclusivity(unchecked) private var firstWindows1252Line: Int?
    @exclusivity(unchecked) private var line = 0

    /// The line of the first string read as Windows-1252 when the file also holds non-ASCII UTF-8.
    var mixedEncodingLine: Int? { utf8Fields > 0 ? firstWindows1252Line : nil }

    /// The writer went away (it failed) or the load was cancelled: stop reading.
    struct Stopped: Error {}

    init(
        reader: JSONRecordReader,
        path: String,
        convertsDates: [Bool]?,
        missingValues: Set<String>,
        progress: (@Sendable (ImportProgress) -> Void)?,
        started: Double,
        isCancelled: @escaping @Sendable () -> Bool
    ) {
        self.reader = reader
        self.path = path
        self.convertsDates = convertsDates ?? []
        self.missingValues = missingValues.map { Array($0.utf8) }.filter { !$0.isEmpty }
        longestMissingValue = self.missingValues.map(\.count).max() ?? 0
        self.progress = progress
        self.started = started
        lastProgress = started
        self.isCancelled = isCancelled
    }

    /// The columns where a string was rewritten as an ISO date although the column is not one of dates.
    var columnsWithRewrittenNonDates: [Int] {
        let types = inference.types
        return names.indices.filter { rewrittenDates[$0] > 0 && types[$0] != .date }
    }

    /// Fills batches from `pipe` with the rows and sends them (run by ``TwoThreadLoad``).
    ///
    /// - Throws: `JSONError` (where the text stops being JSON records), an ``EntityImportError``
    ///   for more keys than a table can have columns.
    func fill(_ pipe: BatchPipe<JSONRowBatch>) throws {
        var record = JSONRecord()
        var batch = pipe.emptyBatch()
        /// Each column's member in the current record (-1: absent).
        var members: [Int] = []
        while try reader.read(into: &record) {
            rowCount += 1
            line = record.line
            if reader.keys.count > names.count { try addColumns() }
            while members.count < names.count { members.append(-1) }
            guard let current = batch else { throw Stopped() }
            if !current.rows.isEmpty && current.columnNames.count != names.count {
                pipe.send(current)
                if isCancelled() { throw Stopped() }
                batch = pipe.emptyBatch()
            }
            guard let current = batch else { throw Stopped() }
            if current.rows.isEmpty { current.columnNames = names }
            for column in 0..<names.count { members[column] = -1 }
            for member in 0..<record.count { members[record.keyIndex(at: member)] = member }  // the last one wins
            for column in 0..<names.count { add(record, member: members[column], column: column, to: current.rows) }
            current.rows.endRow(line: record.line)
            if current.rows.isFull {
                pipe.send(current)
                if isCancelled() { throw Stopped() }
                batch = pipe.emptyBatch()
            }
            if rowCount & 4095 == 0 { report(finished: false) }
        }
        if let batch, !batch.rows.isEmpty { pipe.send(batch) }
        report(finished: true)
    }

    /// The keys seen for the first time, as columns.
    private func addColumns() throws {
        let keys = reader.keys
        guard keys.count <= CSVTableLoader.maxColumns else {
            throw EntityImportError.malformed(
                path: path,
                line: line,
                reason: "the objects have \(keys.count) keys, more than the \(CSVTableLoader.maxColumns) "
                    + "columns a table can have"
            )
        }
        names = CSVColumnNames.make(from: keys)
        while inference.counts.count < names.count {
            inference.appendColumn()
            rewrittenDates.append(0)
        }
    }

    /// Appends column `column`'s value: member `member` of `record` (-1: absent, NULL).
    private func add(_ record: JSONRecord, member: Int, column: Int, to batch: BulkRowBatch) {
        guard member >= 0 else {
            inference.add(.empty, column: column)
            batch.appendNull()
            return
        }
        switch record.kind(at: member) {
        case .null:
            inference.add(.empty, column: column)
            batch.appendNull()
        case .true, .false:
            inference.addBoolean(column: column)
            let text: StaticString = record.kind(at: member) == .true ? "true" : "false"
            batch.append(utf8: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        case .number:
            record.withUnsafeBytes(at: member) { raw in addNumber(raw, column: column, to: batch) }
        case .string:
            record.withUnsafeBytes(at: member) { raw in addString(raw, column: column, to: batch) }
        case .nested:
            inference.add(.text, column: column)
            record.withUnsafeBytes(at: member) { batch.append(utf8: $0) }
        }
    }

    /// A number: an integer or a real as bound (a real written otherwise than it reads back as its
    /// text, which the loader converts), as a CSV field holding it would be.
    private func addNumber(_ raw: UnsafeRawBufferPointer, column: Int, to batch: BulkRowBatch) {
        switch CSVFieldValue.classify(raw) {
        case .integer(let n):
            inference.add(.integer(n), column: column)
            batch.append(n)
        case .real(let x, exact: true):
            inference.add(.real(x, exact: true), column: column)
            batch.append(x)
        case .real(let x, exact: false):
            inference.add(.real(x, exact: false), column: column)
            batch.append(utf8: raw)
        default:
            // JSON numbers CSV's reading keeps as text: `-0`, integers past 64 bits, `1E400`.
            if let x = Double(String(decoding: raw, as: UTF8.self)), x.isFinite {
                inference.add(.real(x, exact: false), column: column)
            } else {
                inference.add(.text, column: column)
            }
            batch.append(utf8: raw)
        }
    }

    /// A string: text, a date or date-time, a missing-value token, NULL when empty.
    private func addString(_ raw: UnsafeRawBufferPointer, column: Int, to batch: BulkRowBatch) {
        if raw.isEmpty {
            inference.add(.empty, column: column)
            batch.appendNull()
            return
        }
        if raw.count <= longestMissingValue,
            missingValues.contains(where: { $0.count == raw.count && $0.elementsEqual(raw) })
        {
            inference.addMissing(column: column)
            batch.append(utf8: raw)
            return
        }
        let value = CSVFieldValue.classify(raw)
        switch value {
        case .date, .dateTime:
            inference.add(value, column: column)
            batch.append(utf8: raw)
            return
        default: break
        }
        if case .text = value, column >= convertsDates.count || convertsDates[column],
            let day = CalendarDay.parse(bytes: raw)
        {
            inference.add(.date, column: column)
            rewrittenDates[column] += 1
            day.withISOBytes { batch.append(utf8: $0) }
            return
        }
        inference.add(.text, column: column)
        if CSVTextDecoding.isASCII(raw) {
            batch.append(utf8: raw)
        } else if CSVTextDecoding.isValidUTF8(raw) {
            utf8Fields += 1
            batch.append(utf8: raw)
        } else {
            if firstWindows1252Line == nil { firstWindows1252Line = line }
            var decoded = CSVTextDecoding.windows1252(raw)
            decoded.withUTF8 { batch.append(utf8: UnsafeRawBufferPointer($0)) }
        }
    }

    private func report(finished: Bool) {
        guard let progress else { return }
        let now = MonotonicClock.seconds()
        guard finished || now - lastProgress >= 0.1 else { return }
        lastProgress = now
        progress(
            ImportProgress(
                rows: rowCount,
                bytesRead: reader.bytesRead,
                totalBytes: reader.totalBytes,
                elapsed: now - started,
                isFinished: finished
            )
        )
    }
}
