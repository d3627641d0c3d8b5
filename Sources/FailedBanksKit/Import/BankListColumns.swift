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
public enum BankListColumns {
    public static let bankName = CSVColumn("Bank Name", aliases: ["Bank", "Institution Name", "Institution"])
    public static let city = CSVColumn("City")
    public static let state = CSVColumn("State", aliases: ["ST"])
    public static let cert = CSVColumn("Cert", aliases: ["CERT #", "Cert Number", "Cert No"])
    public static let acquiringInstitution = CSVColumn("Acquiring Institution", aliases: ["Acquirer"], required: false)
    public static let closingDate = CSVColumn("Closing Date", aliases: ["Closed", "Close Date"])
    public static let updatedDate = CSVColumn("Updated Date", aliases: ["Last Updated"], required: false)
    public static let fund = CSVColumn("Fund", required: false)

    /// Every column, required ones first.
    public static let all = [bankName, city, state, cert, closingDate, acquiringInstitution, updatedDate, fund]
}
