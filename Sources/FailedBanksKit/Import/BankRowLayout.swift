import BulkImport
import CSVImport
import SQLiteStore

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
        guard
            let close = record.withUnsafeBytes(at: closingDate, { CalendarDay.parse(bytes: $0, pivotYear: pivotYear) })
        else {
            let empty = CSVFieldText.isBlank(record, closingDate)
            return .failure(
                problem(
                    empty ? "missing closing date" : "not a valid date",
                    BankListColumns.closingDate,
                    record,
                    closingDate
                )
            )
        }
        var updated: CalendarDay?
        if let updatedDate, !CSVFieldText.isBlank(record, updatedDate) {
            guard
                let day = record.withUnsafeBytes(
                    at: updatedDate,
                    { CalendarDay.parse(bytes: $0, pivotYear: pivotYear) }
                )
            else {
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

    /// The table columns of a checked row, as ``append(_:_:to:)`` lays them out in a bulk batch:
    /// `failed_bank_info`'s take the first values, `failed_bank_details`' the rest (its `info_id`
    /// is the row's id, filled in by the writer). They are the records' attributes in their order
    /// (name, city, state; closing date, updated date, cert, acquirer, fund), which `append` follows.
    static let infoColumns = FailedBankInfo.entity.attributes.map(\.columnName)
    static let detailsColumns = FailedBankDetails.entity.attributes.map(\.columnName)

    /// Appends a checked row's values to `batch` in the order of ``infoColumns`` then
    /// ``detailsColumns``: trimmed text, ISO dates, an empty or absent acquirer as NULL.
    @inline(__always)
    func append(_ record: CSVRecord, _ values: Values, to batch: BulkRowBatch) {
        CSVFieldText.withText(record, name) { batch.append(utf8: $0) }
        CSVFieldText.withText(record, city) { batch.append(utf8: $0) }
        CSVFieldText.withText(record, state) { batch.append(utf8: $0) }
        values.closeDate.withISOBytes { batch.append(utf8: $0) }
        if let updated = values.updatedDate {
            updated.withISOBytes { batch.append(utf8: $0) }
        } else {
            batch.appendNull()
        }
        batch.append(values.cert)
        if let acquirer {
            CSVFieldText.withText(record, acquirer) { text in
                if text.isEmpty { batch.appendNull() } else { batch.append(utf8: text) }
            }
        } else {
            batch.appendNull()
        }
        if let fund = values.fund { batch.append(fund) } else { batch.appendNull() }
    }

    /// The upsert into a store with banks (``ToOneUpsertWriter``): banks matched by cert, the
    /// columns this file lacks (a 2010 list has no acquirers) left alone.
    func upsertWriter(database: Database) throws -> ToOneUpsertWriter {
        var absent: Set<String> = []
        if updatedDate == nil { absent.insert(FailedBankDetails.column(.updatedDate)) }
        if acquirer == nil { absent.insert(FailedBankDetails.column(.acquiringInstitution)) }
        if fund == nil { absent.insert(FailedBankDetails.column(.fund)) }
        return try ToOneUpsertWriter(
            database: database,
            rootTable: FailedBankInfo.entity.tableName,
            rootColumns: BankRowLayout.infoColumns,
            table: FailedBankDetails.entity.tableName,
            foreignKey: FailedBankDetails.infoColumn,
            columns: BankRowLayout.detailsColumns,
            key: FailedBankDetails.column(.cert),
            absentColumns: absent
        )
    }

    private func problem(_ reason: String, _ column: CSVColumn, _ record: CSVRecord, _ index: Int) -> Problem {
        Problem(reason: reason, column: column.name, value: CSVFieldText.text(record, index))
    }
}
