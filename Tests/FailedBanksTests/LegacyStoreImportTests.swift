import BulkImport
import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FailedBanksKit

/// `failedbanks import` reads the original app's SQLite stores, recognised by
/// their content and never modified, and they give the same banks and dates as
/// the tutorial's CSV of the same year.
@Suite struct LegacyStoreImportTests {
    static let fixtures = BrowserFixture.packageRoot.appendingPathComponent("Tests/Fixtures")
    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }
    static let coreData = fixture("FailedBanksCD_2011_coredata.sqlite")
    static let tutorialSQLite = fixture("banklist_2010_tutorial.sqlite3")
    static let tutorialCSV = fixture("banklist_2010_tutorial.csv")

    struct Bank: Hashable, CustomStringConvertible {
        var cert: Int64, name: String, city: String, state: String, closeDate: String, updatedDate: String?
        var description: String {
            "\(cert) \(name), \(city), \(state): closed \(closeDate), updated \(updatedDate ?? "—")"
        }
    }

    /// Imports `file` into a new store and reads its banks back, by cert.
    static func importedBanks(
        _ file: String,
        scratch: TemporaryDirectory,
        as name: String
    ) throws -> (ImportSummary, [Int64: Bank]) {
        let store = try FailedBankStore.open(path: scratch.path(name))
        let summary = try BankImporter(store: store).importFile(file)
        var banks: [Int64: Bank] = [:]
        for row in try store.database.query(
            """
            SELECT d.cert, i.name, i.city, i.state, d.close_date, d.updated_date
            FROM failed_bank_info AS i JOIN failed_bank_details AS d ON d.info_id = i.id
            """
        ) {
            let bank = Bank(
                cert: row[0].int64 ?? -1,
                name: row[1].string ?? "",
                city: row[2].string ?? "",
                state: row[3].string ?? "",
                closeDate: row[4].string ?? "",
                updatedDate: row[5].string
            )
            banks[bank.cert] = bank
        }
        return (summary, banks)
    }

    /// The file's bytes and whether anything appeared beside it (`-wal`, `-shm`, `-journal`).
    static func untouched(_ path: String) throws -> ([UInt8], [String]) {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let beside = ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: path + $0) }
        return (bytes, beside)
    }

    @Test(arguments: ["FailedBanksCD_2011_coredata.sqlite", "banklist_2010_tutorial.sqlite3"])
    func anOldStoreGivesTheSameBanksAndDatesAsTheTutorialCSV(store name: String) throws {
        let scratch = TemporaryDirectory("legacy")
        defer { scratch.remove() }
        // A copy under a name that says nothing: the kind is found by content.
        let copy = scratch.path("old-store.csv")
        try FileManager.default.copyItem(atPath: Self.fixture(name), toPath: copy)
        let before = try Self.untouched(copy)

        let (csvSummary, expected) = try Self.importedBanks(Self.tutorialCSV, scratch: scratch, as: "from-csv.sqlite")
        let (summary, banks) = try Self.importedBanks(copy, scratch: scratch, as: "from-store.sqlite")
        #expect(csvSummary.added == 233)
        #expect(summary.added == 233 && summary.skipped == 0)
        #expect(banks.count == expected.count)
        for (cert, bank) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(banks[cert] == bank, "cert \(cert)")
        }
        #expect(
            banks[57060]?.description == "57060 Desert Hills Bank, Phoenix, AZ: closed 2010-03-26, updated 2010-03-26"
        )
        #expect(try Self.untouched(copy) == before, "the old store is left exactly as it was, nothing beside it")
    }

    @Test func reImportingAnOldStoreOverTheCSVChangesNothing() throws {
        let scratch = TemporaryDirectory("legacy-again")
        defer { scratch.remove() }
        let store = try FailedBankStore.open(path: scratch.path("banks.sqlite"))
        let importer = BankImporter(store: store)
        _ = try importer.importFile(Self.tutorialCSV)
        for old in [Self.coreData, Self.tutorialSQLite] {
            let summary = try importer.importFile(old)
            #expect(
                summary.added == 0 && summary.updated == 0 && summary.unchanged == 233,
                "\(old): \(summary.summaryLine)"
            )
        }
    }

    @Test func aStoreInAFolderThatCannotBeWrittenIsRead() throws {
        let scratch = TemporaryDirectory("legacy-ro")
        defer { scratch.remove() }
        let folder = scratch.path("ro")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let copy = folder + "/FailedBanksCD.sqlite"
        try FileManager.default.copyItem(atPath: Self.coreData, toPath: copy)
        chmod(copy, 0o444)
        chmod(folder, 0o555)
        defer { chmod(folder, 0o755) }
        let (summary, _) = try Self.importedBanks(copy, scratch: scratch, as: "banks.sqlite")
        #expect(summary.added == 233)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["FailedBanksCD.sqlite"])
    }

    @Test func anotherSQLiteDatabaseIsRefusedWith65NamingItsTables() throws {
        let scratch = TemporaryDirectory("legacy-other")
        defer { scratch.remove() }
        let other = scratch.path("notes.db")
        do {
            let db = try Database(path: other)
            try db.execute("PRAGMA journal_mode = DELETE; CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT)")
        }
        let store = try FailedBankStore.open(path: scratch.path("banks.sqlite"))
        #expect {
            _ = try BankImporter(store: store).importFile(other)
        } throws: { error in
            guard let error = error as? BankImportError, case .notABankStore = error else { return false }
            return error.exitStatus == 65 && error.messages.first?.contains("not a bank list") == true
                && error.messages.first?.contains("\"notes\"") == true
        }
        #expect(try store.database.scalar("SELECT count(*) FROM failed_bank_info").int64 == 0)
    }
}
