import CSVImport
import Timekeeping

/// The reading side of one file's import: the data rows one by one, the bad
/// rows found so far (the first ones listed, all counted), the counts and
/// the progress reports.
///
/// ``readEach(_:)`` reads every remaining row, reporting progress, and hands
/// each to the caller, which checks it and either writes it or calls
/// ``addIssue(_:line:)``. After the first bad row in the all-or-nothing mode
/// ``mustAbort`` is true: the caller keeps checking rows (to report them) but
/// no longer writes. Used by one thread at a time (the parsing thread of the
/// bulk path, then the writer after the hand-over), hence `@unchecked Sendable`.
///
///     let rows = ImportRows(path: "students.csv", reader: try CSVReader(path: "students.csv"),
///                           options: ImportOptions(), progress: nil)
///     var header = CSVRecord()
///     _ = try rows.reader.read(into: &header)
///     try rows.readEach { record in
///         if record.count != header.count {
///             rows.addIssue(RowProblem(reason: "expected \(header.count) fields, found \(record.count)"), line: record.line)
///         }
///     }
package final class ImportRows: @unchecked Sendable {
    /// The file's name in the summary and the messages.
    package let path: String
    /// The reader, past the header row once the import began.
    package let reader: CSVReader
    /// How bad rows are treated.
    package let options: ImportOptions
    /// Called at most ~10 times a second, and once at the end.
    package let progress: ((ImportProgress) -> Void)?
    /// When the import began (`MonotonicClock` seconds).
    package let started: Double

    /// The counts so far (the writer fills in added, updated, unchanged).
    package var summary: ImportSummary
    /// The first bad rows (at most ``ImportOptions/maxListedIssues``).
    package var issues: [ImportIssue] = []
    /// Every bad row so far.
    @exclusivity(unchecked) package private(set) var badRowCount = 0
    /// Every data row read so far (good and bad).
    @exclusivity(unchecked) package private(set) var dataRowCount = 0
    @exclusivity(unchecked) private var nextProgressRow = 4096
    private var lastProgressTime: Double

    /// The rows of `reader` (positioned after the header), named `path` in messages.
    package init(
        path: String,
        reader: CSVReader,
        options: ImportOptions,
        progress: ((ImportProgress) -> Void)?,
        started: Double = MonotonicClock.seconds()
    ) {
        self.path = path
        self.reader = reader
        self.options = options
        self.progress = progress
        self.started = started
        self.summary = ImportSummary(path: path)
        self.lastProgressTime = started
    }

    /// True once a bad row means nothing of this file will be written.
    package var mustAbort: Bool { badRowCount > 0 && !options.skipBadRows }

    /// Reads every remaining row and calls `body` with it; rethrows the reader's `CSVError`.
    package func readEach(_ body: (CSVRecord) throws -> Void) throws {
        // A local record: handing a stored property to `body` would retain and release it every row.
        var record = CSVRecord()
        while try reader.read(into: &record) {
            dataRowCount += 1
            if dataRowCount >= nextProgressRow { reportProgress(finished: false) }
            try body(record)
        }
        reportProgress(finished: true)
    }

    /// Counts a bad row at `line`; lists it while fewer than the limit are listed. Returns its index in
    /// ``issues`` when listed.
    @discardableResult
    package func addIssue(_ problem: RowProblem, line: Int) -> Int? {
        badRowCount += 1
        summary.skipped = options.skipBadRows ? badRowCount : 0
        guard issues.count < options.maxListedIssues else { return nil }
        issues.append(
            ImportIssue(path: path, line: line, reason: problem.reason, column: problem.column, value: problem.value)
        )
        return issues.count - 1
    }

    private func reportProgress(finished: Bool) {
        nextProgressRow = dataRowCount + 4096
        guard let progress else { return }
        let now = MonotonicClock.seconds()
        guard finished || now - lastProgressTime >= 0.1 else { return }
        lastProgressTime = now
        progress(
            ImportProgress(
                rows: dataRowCount,
                bytesRead: reader.bytesRead,
                totalBytes: reader.totalBytes,
                elapsed: now - started,
                isFinished: finished
            )
        )
    }
}
