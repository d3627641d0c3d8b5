import BulkImport
import CSVImport
import Timekeeping

/// The state of one file's import: the FDIC column layout and the certs seen,
/// over the generic reading, issues, counts and progress of ``ImportRows``.
///
/// ``forEachGoodRow(_:)`` drives the loop that both write paths share: it
/// reads, checks, rejects duplicate certs, records issues, reports progress,
/// and hands each good row to the path's writer — until the first bad row in
/// the all-or-nothing mode, after which rows are still checked (to report
/// them) but no longer written.
final class ImportRun: @unchecked Sendable {
    /// The file's name in the summary and the messages.
    let path: String
    /// A new reader of the same rows, for a second pass (nil when they cannot be read again).
    let reopen: () -> CSVReader?
    let layout: BankRowLayout
    let options: BankImporter.Options
    /// The reading, issues, counts and progress (generic: ``ImportRows``).
    let rows: ImportRows

    /// The certs seen, and the listed repeats (generic: ``DuplicateKeys``).
    @exclusivity(unchecked) private var certs = DuplicateKeys(name: "cert")

    init(
        path: String,
        reopen: @escaping () -> CSVReader?,
        reader: CSVReader,
        layout: BankRowLayout,
        options: BankImporter.Options,
        progress: ((ImportProgress) -> Void)?,
        started: Double
    ) {
        self.path = path
        self.reopen = reopen
        self.layout = layout
        self.options = options
        var generic = ImportOptions()
        generic.skipBadRows = options.skipBadRows
        generic.maxListedIssues = options.maxListedIssues
        generic.allowJournalSwitch = options.allowJournalSwitch
        rows = ImportRows(path: path, reader: reader, options: generic, progress: progress, started: started)
    }

    var summary: ImportSummary {
        get { rows.summary }
        set { rows.summary = newValue }
    }
    var issues: [ImportIssue] {
        get { rows.issues }
        set { rows.issues = newValue }
    }
    var badRowCount: Int { rows.badRowCount }
    var dataRowCount: Int { rows.dataRowCount }
    var reader: CSVReader { rows.reader }

    /// True once a bad row means nothing of this file will be written.
    var mustAbort: Bool { rows.mustAbort }

    /// Reads every remaining row; calls `body` for each good one (while writing is still wanted).
    func forEachGoodRow(_ body: (CSVRecord, BankRowLayout.Values) throws -> Void) throws {
        do {
            try rows.readEach { record in
                switch layout.check(record) {
                case .success(let values):
                    guard certs.insert(values.cert) else {
                        let problem = certs.problem(
                            column: BankListColumns.cert.name,
                            value: CSVFieldText.text(record, layout.cert)
                        )
                        if let index = rows.addIssue(problem, line: record.line) {
                            certs.listed(values.cert, issue: index)
                        }
                        return
                    }
                    if !rows.mustAbort { try body(record, values) }
                case .failure(let problem):
                    rows.addIssue(problem, line: record.line)
                }
            }
        } catch let error as CSVError {
            throw BankImportError.reading(path, error)
        }
    }

    /// Names the first line of each listed duplicate cert ("duplicate cert, first on line 12"),
    /// with a second, cert-only pass over the file (only when there are duplicates to name).
    func resolveDuplicateLines() {
        certs.nameFirstLines(in: &rows.issues, rereading: reopen, keyField: layout.cert)
    }

    /// The error for the all-or-nothing abort (or a file whose rows were all bad).
    func badRowsError() -> BankImportError {
        resolveDuplicateLines()
        return .badRows(path: path, issues: issues, total: badRowCount)
    }
}
