import CSVImport

/// The columns of the FDIC Failed Bank List and the spellings they have had.
///
/// `Bank Name`/`Bank`, `City`, `State`/`ST`, `Cert`/`CERT`/`CERT #`,
/// `Closing Date` are required; `Acquiring Institution` (absent from the
/// 2010 list), `Updated Date` (dropped in 2020) and `Fund` (added in 2020)
/// are optional. Header cells are normalized by ``CSVHeaderMap``, so the
/// no-break spaces, `†` and `Sort ascending` of various years match too.
///
///     let map = try CSVHeaderMap(header: record.fields, columns: BankListColumns.all)
///     let certIndex = map.index(of: BankListColumns.cert.name)!
package enum BankListColumns {
    /// Required. Also "Bank", "Institution Name".
    package static let bankName = CSVColumn("Bank Name", aliases: ["Bank", "Institution Name", "Institution"])
    /// Required.
    package static let city = CSVColumn("City")
    /// Required. Also "ST".
    package static let state = CSVColumn("State", aliases: ["ST"])
    /// Required. Also "CERT", "CERT #".
    package static let cert = CSVColumn("Cert", aliases: ["CERT #", "Cert Number", "Cert No"])
    /// Optional (absent in the 2010 list).
    package static let acquiringInstitution = CSVColumn("Acquiring Institution", aliases: ["Acquirer"], required: false)
    /// Required.
    package static let closingDate = CSVColumn("Closing Date", aliases: ["Closed", "Close Date"])
    /// Optional (2010–2019 lists).
    package static let updatedDate = CSVColumn("Updated Date", aliases: ["Last Updated"], required: false)
    /// Optional (lists since 2020; "Fund  Sort ascending" when copied from the web page).
    package static let fund = CSVColumn("Fund", required: false)

    /// Every column, required ones first.
    package static let all = [bankName, city, state, cert, closingDate, acquiringInstitution, updatedDate, fund]
}
