import BulkImport
import CSVImport

/// Where each column sits in one file, and the checking of its rows.
///
/// Checking works on the field bytes: numbers and dates are parsed without
/// making strings, and text is handed on as trimmed UTF-8 (ASCII fields as
/// they are; others decoded — UTF-8 when valid, else Windows-1252 — trimmed
/// of white space including no-break spaces, and re-encoded).
///
///     let layout = try BankRowLayout(header: headerRecord)
///     switch layout.check(record) {
///     case .success(let values): print(values.cert, values.closeDate)
///     case .failure(let problem): print(problem.reason)
///     }
struct BankRowLayout {
    let fieldCount: Int
    let name: Int
    let city: Int
    let state: Int
    let cert: Int
    let closingDate: Int
    let acquirer: Int?
    let updatedDate: Int?
    let fund: Int?
    let pivotYear: Int

    /// Maps the header row; throws ``CSVError/missingColumns(_:found:)``.
    init(header: CSVRecord, pivotYear: Int = CalendarDay.defaultPivotYear) throws {
        let map = try CSVHeaderMap(header: header.fields, columns: BankListColumns.all)
        fieldCount = header.count
        name = map.index(of: BankListColumns.bankName.name)!
        city = map.index(of: BankListColumns.city.name)!
        state = map.index(of: BankListColumns.state.name)!
        cert = map.index(of: BankListColumns.cert.name)!
        closingDate = map.index(of: BankListColumns.closingDate.name)!
        acquirer = map.index(of: BankListColumns.acquiringInstitution.name)
        updatedDate = map.index(of: BankListColumns.updatedDate.name)
        fund = map.index(of: BankListColumns.fund.name)
        self.pivotYear = pivotYear
    }

    /// The parsed, checked non-text values of a row.
    struct Values {
        var cert: Int64
        var closeDate: CalendarDay
        var updatedDate: CalendarDay?
        var fund: Int64?
    }

    /// What is wrong with a row.
    typealias Problem = RowProblem

    /// Checks field count, name, cert, dates and fund (not duplicates).
    func check(_ record: CSVRecord) -> Result<Values, Problem> {
        guard record.count == fieldCount else {
            return .failure(Problem(reason: "expected \(fieldCount) fields, found \(record.count)"))
        }
        if CSVFieldText.isBlank(record, name) {
            return .failure(problem("missing bank name", BankListColumns.bankName, record, name))
        }
        let certValue: Int64
        switch CSVFieldText.integer(record, cert) {
        case .value(let v): certValue = v
        case .empty: return .failure(problem("missing cert", BankListColumns.cert, record, cert))
        case .invalid: return .failure(problem("not a whole number", BankListColumns.cert, record, cert))
        }
        guard let close = record.withUnsafeBytes(at: closingDate, { CalendarDay.parse(bytes: $0, pivotYear: pivotYear) }) else {
            let empty = CSVFieldText.isBlank(record, closingDate)
            return .failure(problem(empty ? "missing closing date" : "not a valid date", BankListColumns.closingDate, record, closingDate))
        }
        var updated: CalendarDay?
        if let updatedDate, !CSVFieldText.isBlank(record, updatedDate) {
            guard let day = record.withUnsafeBytes(at: updatedDate, { CalendarDay.parse(bytes: $0, pivotYear: pivotYear) }) else {
                return .failure(problem("not a valid date", BankListColumns.updatedDate, record, updatedDate))
            }
            updated = day
        }
        var fundValue: Int64?
        if let fund {
            switch CSVFieldText.integer(record, fund) {
            case .value(let v): fundValue = v
            case .empty: fundValue = nil
            case .invalid: return .failure(problem("not a whole number", BankListColumns.fund, record, fund))
            }
        }
        return .success(Values(cert: certValue, closeDate: close, updatedDate: updated, fund: fundValue))
    }

    private func problem(_ reason: String, _ column: CSVColumn, _ record: CSVRecord, _ index: Int) -> Problem {
        Problem(reason: reason, column: column.name, value: CSVFieldText.text(record, index))
    }
}
