import Foundation
import SQLiteStore
import Testing

@testable import FailedBanksKit

/// Imports of the real FDIC files in Tests/Fixtures.
@Suite
struct RealFileImportTests {
    @Test(arguments: [
        ("banklist_2024_fdic_original_cp1252.csv", 569),
        ("banklist_2025_resaved_mojibake.csv", 572),
        ("banklist_2018_updated_date.csv", 555),
        ("banklist_2014_cert_hash.csv", 465),
        ("banklist_2010_tutorial.csv", 233),
        ("banklist_2025_scraped_longdates_sample.csv", 10),
    ])
    func everyRealFileImportsWithItsRowCount(file: String, rows: Int) throws {
        let sandbox = ImportSandbox()
        defer { sandbox.remove() }
        let result = sandbox.run([fixtureFile(file)])
        #expect(result.status == 0, "\(result.errorText)")
        #expect(result.output.count == 1)
        #expect(
            result.output.first?.hasPrefix(
                "imported \(rows) rows from \(fixtureFile(file)): \(rows) added, 0 updated, 0 unchanged, 0 skipped in "
            ) == true,
            "\(result.output)"
        )
        let snapshot = try sandbox.snapshot()
        #expect(snapshot.bankCount == rows)
        #expect(snapshot.infoCount == Int64(rows))
        // Every date is ISO, every bank has its info row.
        for row in snapshot.rows {
            #expect(row[0] != .null)
            #expect(row[6].string.map { $0.count == 10 && $0.hasPrefix("20") } == true, "\(row)")
        }
    }

    @Test func siliconValleyBankIsReadExactlyFromTheWindows1252File() throws {
        let sandbox = ImportSandbox()
        defer { sandbox.remove() }
        #expect(sandbox.run([fixtureFile("banklist_2024_fdic_original_cp1252.csv")]).status == 0)
        let db = try Database(path: sandbox.storePath)
        let row = try db.query(
            """
            SELECT i.name, i.city, i.state, d.cert, d.close_date, d.acquiring_institution, d.fund, d.updated_date
            FROM failed_bank_details d JOIN failed_bank_info i ON i.id = d.info_id WHERE d.cert = 24735
            """
        )
        #expect(
            row == [
                [
                    .text("Silicon Valley Bank"), .text("Santa Clara"), .text("CA"), .integer(24735),
                    .text("2023-03-10"),
                    .text("First–Citizens Bank & Trust Company"), .integer(10539), .null,
                ]
            ]
        )
        let newest = try db.query(
            "SELECT i.name, d.close_date FROM failed_bank_details d JOIN failed_bank_info i ON i.id = d.info_id ORDER BY d.close_date DESC LIMIT 1"
        )
        #expect(newest == [[.text("Republic First Bank dba Republic Bank"), .text("2024-04-26")]])
        // Day not padded: 3-Nov-23.
        #expect(try db.scalar("SELECT close_date FROM failed_bank_details WHERE cert = 8758") == .text("2023-11-03"))
        // Quoted acquirer with a comma.
        #expect(
            try db.scalar("SELECT acquiring_institution FROM failed_bank_details WHERE cert = 27332")
                == .text("Fulton Bank, National Association")
        )
    }

    @Test func olderFormatsKeepTheirColumns() throws {
        let sandbox = ImportSandbox()
        defer { sandbox.remove() }
        #expect(sandbox.run([fixtureFile("banklist_2010_tutorial.csv")]).status == 0)
        let db = try Database(path: sandbox.storePath)
        // No acquirer or fund column in 2010; updated dates present.
        #expect(
            try db.scalar(
                "SELECT count(*) FROM failed_bank_details WHERE acquiring_institution IS NOT NULL OR fund IS NOT NULL"
            ) == .integer(0)
        )
        #expect(
            try db.query("SELECT close_date, updated_date FROM failed_bank_details WHERE cert = 57060") == [
                [.text("2010-03-26"), .text("2010-03-26")]
            ]
        )
        // 2000 closings with two-digit years: 13-Oct-00.
        #expect(try db.scalar("SELECT close_date FROM failed_bank_details WHERE cert = 21029") == .text("2000-10-13"))

        let sandbox2 = ImportSandbox()
        defer { sandbox2.remove() }
        #expect(sandbox2.run([fixtureFile("banklist_2025_scraped_longdates_sample.csv")]).status == 0)
        let db2 = try Database(path: sandbox2.storePath)
        #expect(
            try db2.query("SELECT close_date, fund FROM failed_bank_details WHERE cert = 5520") == [
                [.text("2025-06-27"), .integer(10549)]
            ]
        )
        #expect(
            try db2.scalar("SELECT acquiring_institution FROM failed_bank_details WHERE cert = 4134")
                == .text("First Bank & Trust Co., Duncan, OK")
        )
    }

    @Test func namesEndingInSpacesAreTrimmed() throws {
        let sandbox = ImportSandbox()
        defer { sandbox.remove() }
        #expect(sandbox.run([fixtureFile("banklist_2018_updated_date.csv")]).status == 0)
        let db = try Database(path: sandbox.storePath)
        #expect(
            try db.scalar("SELECT count(*) FROM failed_bank_info WHERE name <> trim(name) OR city <> trim(city)")
                == .integer(0)
        )
        #expect(
            try db.scalar(
                "SELECT i.name FROM failed_bank_info i JOIN failed_bank_details d ON d.info_id = i.id WHERE d.cert = 30003"
            )
                == .text("Guaranty Bank, (d/b/a BestBank in Georgia & Michigan)")
        )
        #expect(
            try db.query("SELECT close_date, updated_date FROM failed_bank_details WHERE cert = 30570") == [
                [.text("2017-12-15"), .text("2018-02-21")]
            ]
        )
    }

    @Test func importing2024Then2025AddsExactlyTheNewBanks() throws {
        let sandbox = ImportSandbox()
        defer { sandbox.remove() }
        #expect(sandbox.run([fixtureFile("banklist_2024_fdic_original_cp1252.csv")]).status == 0)
        let before = try sandbox.snapshot()
        let result = sandbox.run([fixtureFile("banklist_2025_resaved_mojibake.csv")])
        #expect(result.status == 0, "\(result.errorText)")
        // The 2025 file was re-saved through the wrong code page: Silicon Valley Bank's acquirer now reads
        // "FirstñCitizens", which is a real difference, so exactly that bank is updated.
        #expect(result.output.first?.contains("572 rows") == true)
        #expect(
            result.output.first?.contains(": 3 added, 1 updated, 568 unchanged, 0 skipped") == true,
            "\(result.output)"
        )
        let after = try sandbox.snapshot()
        let oldCerts = Set(before.rows.map { $0[8] })
        let newCerts = Set(after.rows.map { $0[8] })
        #expect(newCerts.subtracting(oldCerts) == [.integer(5520), .integer(28611), .integer(4134)])
        #expect(oldCerts.isSubset(of: newCerts))
        // History: 3 new banks and one update were recorded for running browsers.
        #expect(after.historyCount > before.historyCount)

        // Re-importing writes nothing and records no history.
        let again = sandbox.run([fixtureFile("banklist_2025_resaved_mojibake.csv")])
        #expect(again.status == 0)
        #expect(
            again.output.first?.contains(": 0 added, 0 updated, 572 unchanged, 0 skipped") == true,
            "\(again.output)"
        )
        #expect(try sandbox.snapshot() == after)
    }

    @Test func importingAllFilesInAnyOrderGivesOneBankPerCert() throws {
        let sandbox = ImportSandbox()
        defer { sandbox.remove() }
        let files = [
            "banklist_2010_tutorial.csv", "banklist_2014_cert_hash.csv", "banklist_2018_updated_date.csv",
            "banklist_2024_fdic_original_cp1252.csv", "banklist_2025_resaved_mojibake.csv",
            "banklist_2025_scraped_longdates_sample.csv",
        ].map(fixtureFile)
        let result = sandbox.run(files)
        #expect(result.status == 0, "\(result.errorText)")
        #expect(result.output.count == 6)
        let snapshot = try sandbox.snapshot()
        #expect(snapshot.bankCount == 572)
        #expect(snapshot.infoCount == 572)
        // The 2010 list had no acquirers: importing it first and newer lists later filled them in.
        #expect(snapshot.rows.filter { $0[9] == .null }.isEmpty)
    }
}
