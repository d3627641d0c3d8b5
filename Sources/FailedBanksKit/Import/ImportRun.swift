import CSVImport
import Timekeeping

/// The state of one file's import: the reader, the column layout, the bad
/// rows found so far, the certs seen, the counts and the progress reports.
///
/// ``forEachGoodRow(_:)`` drives the loop that both write paths share: it
/// reads, checks, rejects duplicate certs, records issues, reports progress,
/// and hands each good row to the path's writer — until the first bad row in
/// the all-or-nothing mode, after which rows are still checked (to report
/// them) but no longer written.
final class ImportRun {
    /// The file's name in the summary and the messages.
    let path: String
    /// The file read, when it can be read again (nil for rows made in memory).
    let filePath: String?
    let reader: CSVReader
    let layout: BankRowLayout
    let options: BankImporter.Options
    let progress: ((BankImportProgress) -> Void)?
    let started: Double

    // Hot per-row state, used by one thread at a time (see BulkProducer): no runtime exclusivity checks.
    var summary: BankImportSummary
    /// The first bad rows (at most `options.maxListedIssues`).
    var issues: [BankImportIssue] = []
    /// Certs of listed duplicate issues, by issue index (to name the first line later).
    var duplicateIssueCerts: [Int: Int64] = [:]
    @exclusivity(unchecked) var badRowCount = 0
    @exclusivity(unchecked) var dataRowCount = 0
    @exclusivity(unchecked) private var certs = CertSet()
    @exclusivity(unchecked) private var record = CSVRecord()
    @exclusivity(unchecked) private var nextProgressRow = 4096
    private var lastProgressTime: Double

    init(path: String, filePath: String?, reader: CSVReader, layout: BankRowLayout, options: BankImporter.Options,
         progress: ((BankImportProgress) -> Void)?, started: Double) {
        self.path = path
        self.filePath = filePath
        self.reader = reader
        self.layout = layout
        self.options = options
        self.progress = progress
        self.started = started
        self.summary = BankImportSummary(path: path)
        self.lastProgressTime = started
    }

    /// True once a bad row means nothing of this file will be written.
    var mustAbort: Bool { badRowCount > 0 && !options.skipBadRows }

    /// Reads every remaining row; calls `body` for each good one (while writing is still wanted).
    func forEachGoodRow(_ body: (CSVRecord, BankRowLayout.Values) throws -> Void) throws {
        while try readNext() {
            dataRowCount += 1
            if dataRowCount >= nextProgressRow { reportProgress(finished: false) }
            switch layout.check(record) {
            case .success(let values):
                guard certs.insert(values.cert) else {
                    let problem = BankRowLayout.Problem(reason: "duplicate cert", column: BankListColumns.cert.name,
                                                        value: BankRowLayout.text(record, layout.cert))
                    addIssue(problem, line: record.line, duplicateCert: values.cert)
                    continue
                }
                if !mustAbort { try body(record, values) }
            case .failure(let problem):
                addIssue(problem, line: record.line, duplicateCert: nil)
            }
        }
        reportProgress(finished: true)
    }

    private func readNext() throws -> Bool {
        do {
            return try reader.read(into: &record)
        } catch let error as CSVError {
            throw BankImportError.reading(path, error)
        }
    }

    private func addIssue(_ problem: BankRowLayout.Problem, line: Int, duplicateCert: Int64?) {
        badRowCount += 1
        summary.skipped = options.skipBadRows ? badRowCount : 0
        guard issues.count < options.maxListedIssues else { return }
        if let duplicateCert { duplicateIssueCerts[issues.count] = duplicateCert }
        issues.append(BankImportIssue(path: path, line: line, reason: problem.reason, column: problem.column, value: problem.value))
    }

    private func reportProgress(finished: Bool) {
        nextProgressRow = dataRowCount + 4096
        guard let progress else { return }
        let now = MonotonicClock.seconds()
        guard finished || now - lastProgressTime >= 0.1 else { return }
        lastProgressTime = now
        progress(BankImportProgress(rows: dataRowCount, bytesRead: reader.bytesRead, totalBytes: reader.totalBytes,
                                    elapsed: now - started, isFinished: finished))
    }

    /// Names the first line of each listed duplicate cert ("duplicate cert, first on line 12"),
    /// with a second, cert-only pass over the file (only when there are duplicates to name).
    func resolveDuplicateLines() {
        guard !duplicateIssueCerts.isEmpty, let filePath, let again = try? CSVReader(path: filePath) else { return }
        let wanted = Set(duplicateIssueCerts.values)
        var firstLine: [Int64: Int] = [:]
        var row = CSVRecord()
        _ = try? again.read(into: &row) // header
        while (try? again.read(into: &row)) == true {
            guard row.count > layout.cert, case .value(let cert) = BankRowLayout.integer(row, layout.cert),
                  wanted.contains(cert), firstLine[cert] == nil else { continue }
            firstLine[cert] = row.line
            if firstLine.count == wanted.count { break }
        }
        for (index, cert) in duplicateIssueCerts {
            if let line = firstLine[cert], line != issues[index].line {
                issues[index].reason = "duplicate cert, first on line \(line)"
            }
        }
    }

    /// The error for the all-or-nothing abort (or a file whose rows were all bad).
    func badRowsError() -> BankImportError {
        resolveDuplicateLines()
        return .badRows(path: path, issues: issues, total: badRowCount)
    }
}
