import CSVImport
import Foundation
import SQLiteStore

/// The SQLite stores of the original FailedBanks app, read as bank lists.
///
/// Two kinds are recognised, by their tables (the file is recognised as SQLite
/// by its header, whatever its name):
/// - **Core Data**: `ZFAILEDBANKINFO(ZNAME, ZCITY, ZSTATE, ZDETAILS)` and
///   `ZFAILEDBANKDETAILS(ZZIP, ZINFO, ZCLOSEDATE, ZUPDATEDDATE)`; dates are seconds
///   since 2001-01-01 (UTC); `ZZIP` holds the cert number.
/// - **the tutorial's database**: `failed_banks(id, name, city, state, zip,
///   close_date, updated_date)`, dates as `2010-03-26 00:00:00`, `zip` holding the cert.
///
/// The file is opened read-only and never modified (``Database/openReadOnly(path:)``).
/// Its banks come out as the rows of a CSV list in the 2010 tutorial's columns
/// (`Bank Name,City,State,CERT #,Closing Date,Updated Date`, ISO dates), so that
/// they go through the importer's checks and its upsert exactly as a CSV file's do
/// (a bad bank is reported as `STORE:LINE`, line 2 being the bank with the lowest id).
/// Core Data's to-one relationship is read from `ZDETAILS`, else from the inverse `ZINFO`.
///
///     if let store = try LegacyBankStore(path: "FailedBanksCD.sqlite") {
///         let reader = CSVReader(bytes: try store.csvBytes())
///     }
struct LegacyBankStore {
    enum Kind: Equatable {
        case coreData
        case tutorial

        var description: String {
            switch self {
            case .coreData: return "a Core Data store of the original FailedBanks app"
            case .tutorial: return "the tutorial's SQLite database"
            }
        }
    }

    let path: String
    let kind: Kind
    /// The connection (read-only, schema untrusted).
    let database: Database

    /// Reads the file at `path` when it is a SQLite database (nil when it is not: a CSV file).
    /// Throws ``BankImportError/notABankStore(path:tables:)`` for another SQLite database.
    init?(path: String) throws {
        guard Database.hasSQLiteHeader(path: path) else { return nil }
        let database: Database
        let tables: [String]
        do {
            database = try Database.openReadOnly(path: path)
            tables = try database.tableNames()
        } catch {
            throw BankImportError.unreadableStore(path: path, error)
        }
        let names = Set(tables.map { $0.uppercased() })
        if names.isSuperset(of: ["ZFAILEDBANKINFO", "ZFAILEDBANKDETAILS"]) {
            kind = .coreData
        } else if names.contains("FAILED_BANKS") {
            kind = .tutorial
        } else {
            throw BankImportError.notABankStore(path: path, tables: tables)
        }
        self.path = path
        self.database = database
    }

    static let header = ["Bank Name", "City", "State", "CERT #", "Closing Date", "Updated Date"]

    /// The store's banks as a CSV list (UTF-8, CRLF), in the order of their ids.
    func csvBytes() throws -> [UInt8] {
        let writer = CSVWriter()
        do {
            try writer.write(LegacyBankStore.header)
            switch kind {
            case .coreData:
                try database.forEachRow(
                    """
                    SELECT i.ZNAME, i.ZCITY, i.ZSTATE, coalesce(d.ZZIP, e.ZZIP),
                           coalesce(d.ZCLOSEDATE, e.ZCLOSEDATE), coalesce(d.ZUPDATEDDATE, e.ZUPDATEDDATE)
                    FROM ZFAILEDBANKINFO AS i
                    LEFT JOIN ZFAILEDBANKDETAILS AS d ON d.Z_PK = i.ZDETAILS
                    LEFT JOIN ZFAILEDBANKDETAILS AS e ON i.ZDETAILS IS NULL AND e.ZINFO = i.Z_PK
                    ORDER BY i.Z_PK
                    """
                ) { row in
                    try writer.write([
                        text(row.value(at: 0)), text(row.value(at: 1)), text(row.value(at: 2)),
                        text(row.value(at: 3)),
                        LegacyBankStore.date(sinceReferenceDate: row.value(at: 4)),
                        LegacyBankStore.date(sinceReferenceDate: row.value(at: 5)),
                    ])
                }
            case .tutorial:
                try database.forEachRow(
                    "SELECT name, city, state, zip, close_date, updated_date FROM failed_banks ORDER BY id"
                ) { row in
                    try writer.write([
                        text(row.value(at: 0)), text(row.value(at: 1)), text(row.value(at: 2)),
                        text(row.value(at: 3)),
                        LegacyBankStore.date(fromText: row.value(at: 4)),
                        LegacyBankStore.date(fromText: row.value(at: 5)),
                    ])
                }
            }
        } catch let error as BankImportError {
            throw error
        } catch {
            throw BankImportError.unreadableStore(path: path, error)
        }
        return writer.bytes
    }

    private func text(_ value: StoreValue) -> String {
        switch value {
        case .null: return ""
        case .text(let s): return s.trimmingCharacters(in: .whitespaces)
        case .integer(let i): return String(i)
        case .real(let d): return d == d.rounded() ? String(Int64(d)) : String(d)
        case .blob: return ""
        }
    }

    /// Core Data's dates: seconds since 2001-01-01 00:00 UTC → `YYYY-MM-DD` (the UTC day); "" for NULL.
    static func date(sinceReferenceDate value: StoreValue) -> String {
        let seconds: Double
        switch value {
        case .integer(let i): seconds = Double(i)
        case .real(let d): seconds = d
        case .text(let s):
            guard let d = Double(s) else { return s }
            seconds = d
        default: return ""
        }
        // 2001-01-01 is day 11,323 of the Unix epoch.
        let day = CalendarDay(dayNumber: 11_323 + Int((seconds / 86_400).rounded(.down)))
        return day.isoText
    }

    /// The tutorial's `2010-03-26 00:00:00` → `2010-03-26`; "" for NULL.
    static func date(fromText value: StoreValue) -> String {
        guard case .text(let text) = value else { return "" }
        return String(text.prefix(10))
    }
}
