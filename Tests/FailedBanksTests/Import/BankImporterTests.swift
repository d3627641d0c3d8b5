import BulkImport
import CSVImport
import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FailedBanksKit

@Suite struct BankImporterTests {
    @Test func theSchemaHasTheDocumentedTablesColumnsAndIndexes() throws {
        let sandbox = ImportSandbox()
        defer { sandbox.remove() }
        let store = try FailedBankStore.open(path: sandbox.storePath)
        let db = store.database
        func columns(_ table: String) throws -> Set<String> {
            Set(try db.query("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { $0[0].string })
        }
        #expect(try columns("failed_bank_info") == ["id", "name", "city", "state"])
        #expect(
            try columns("failed_bank_details") == [
                "id", "info_id", "close_date", "updated_date", "cert", "acquiring_institution", "fund",
            ]
        )
        #expect(
            try db.query("SELECT \"table\", \"to\" FROM pragma_foreign_key_list('failed_bank_details')") == [
                [.text("failed_bank_info"), .text("id")]
            ]
        )
        let indexes = Set(
            try db.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'failed_bank_details'")
                .compactMap { $0[0].string }
        )
        #expect(
            indexes.isSuperset(of: [
                "failed_bank_details_close_date", "failed_bank_details_unique_info_id",
                "failed_bank_details_unique_cert",
            ])
        )
        #expect(try db.applicationID() == FailedBankModel.applicationID)
    }

    @Test func closeYearIsTheSameInSQLAndSwift() throws {
        let entity = try #require(FailedBankModel.model.entity(named: FailedBankModel.details))
        let derived = try #require(entity.derivedAttribute(named: "closeYear"))
        #expect(derived.compute { $0 == "closeDate" ? .text("2023-03-10") : .null } == .text("2023"))
        #expect(derived.compute { _ in .null } == .null)
        #expect(derived.expression(alias: "t1").contains("THEN substr(t1.close_date, 1, 4)"))
        #expect(derived.compute { $0 == "closeDate" ? .text("yesterday") : .null } == .null, "not a date: no year")
    }

    @Test func theDefaultStorePathFollowsTheEnvironment() {
        #expect(
            FailedBankStore.defaultPath(environment: ["FAILEDBANKS_DB": "/x/y.sqlite", "HOME": "/h"]) == "/x/y.sqlite"
        )
        #expect(
            FailedBankStore.defaultPath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/h"])
                == "/data/failedbanks/failedbanks.sqlite"
        )
        #expect(
            FailedBankStore.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/share/failedbanks/failedbanks.sqlite"
        )
        #expect(
            FailedBankStore.defaultPath(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"])
                == "/h/.local/share/failedbanks/failedbanks.sqlite"
        )
    }

    @Test func openingCreatesTheDirectories() throws {
        let sandbox = ImportSandbox()
        defer { sandbox.remove() }
        let path = sandbox.directory + "/a/b/c/banks.sqlite"
        _ = try FailedBankStore.open(path: path)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func theBulkPathLeavesAValidWALStoreWithEveryIndex() throws {
        let sandbox = ImportSandbox()
        defer { sandbox.remove() }
        let path = sandbox.directory + "/gen.csv"
        try BankListGenerator(seed: 9).write(rows: 5_000, to: path)
        let store = try FailedBankStore.open(path: sandbox.storePath)
        let summary = try BankImporter(store: store).importFile(path)
        #expect(summary.usedBulkLoad)
        #expect(summary.added == 5_000)
        let db = store.database
        #expect(try db.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
        #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
        #expect(try db.query("PRAGMA foreign_key_check").isEmpty)
        #expect(try db.scalar("SELECT count(*) FROM failed_bank_details WHERE info_id IS NOT id") == .integer(0))
        #expect(
            try db.scalar(
                "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'failed_bank_details'"
            ) == .integer(3)
        )
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") == .integer(6))
        // Readers learn of the bulk load through one reset marker, not 5,000 history rows.
        #expect(try db.scalar("SELECT count(*) FROM store_history WHERE op = 'R'") == .integer(1))
        #expect(try db.scalar("SELECT count(*) FROM store_history WHERE op <> 'R'") == .integer(0))
        // What was written equals what the generator made.
        let banks = Array(BankListGenerator(seed: 9).banks(count: 5_000))
        let rows = try db.query(
            """
            SELECT i.name, i.city, i.state, d.cert, d.acquiring_institution, d.close_date, d.fund
            FROM failed_bank_details d JOIN failed_bank_info i ON i.id = d.info_id ORDER BY d.id
            """
        )
        #expect(rows.count == banks.count)
        for (row, bank) in zip(rows, banks) {
            #expect(
                row == [
                    .text(bank.name), .text(bank.city), .text(bank.state), .integer(Int64(bank.cert)),
                    .text(bank.acquiringInstitution), .text(bank.closingDate.isoText), .integer(Int64(bank.fund)),
                ]
            )
        }
    }

    @Test func theBulkPathKeepsWALWhenAnotherConnectionIsOpen() throws {
        let sandbox = ImportSandbox()
        defer { sandbox.remove() }
        let store = try FailedBankStore.open(path: sandbox.storePath)
        let reader = try FailedBankStore.open(path: sandbox.storePath, readOnly: true)
        _ = try reader.database.scalar("SELECT count(*) FROM failed_bank_info")
        let path = sandbox.file("good.csv", MalformedImportTests.good)
        let summary = try BankImporter(store: store).importFile(path)
        #expect(summary.added == 2 && summary.usedBulkLoad)
        #expect(try store.database.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(try reader.database.scalar("SELECT count(*) FROM failed_bank_info") == .integer(2))
    }

    @Test func reimportingWritesNothingAndRecordsNoHistory() throws {
        let sandbox = ImportSandbox()
        defer { sandbox.remove() }
        let path = sandbox.file("good.csv", MalformedImportTests.good)
        #expect(sandbox.run([path]).status == 0)
        let before = try sandbox.snapshot()
        let store = try FailedBankStore.open(path: sandbox.storePath)
        let version = try store.database.dataVersion()
        let again = try BankImporter(store: store).importFile(path)
        #expect(again.added == 0 && again.updated == 0 && again.unchanged == 2)
        #expect(try sandbox.snapshot() == before)
        // Another connection would see no commit either.
        #expect(try store.database.dataVersion() == version)
    }

    @Test func anUpdateChangesOnlyWhatDiffersAndRecordsHistory() throws {
        let sandbox = ImportSandbox()
        defer { sandbox.remove() }
        #expect(sandbox.run([sandbox.file("good.csv", MalformedImportTests.good)]).status == 0)
        let historyBefore = try sandbox.snapshot().historyCount
        let changed = sandbox.file(
            "changed.csv",
            currentHeader
                + "First Bank,Reno,NV,1001,Third Bank,26-Apr-24,10001\r\n"
                + "\"Security Bank, N.A.\",Elko,NV,1002,No Acquirer,3-Nov-23,10002\r\n"
                + "New Bank,Ely,NV,1003,,1-Jan-25,\r\n"
        )
        let result = sandbox.run([changed])
        #expect(
            result.output.first?.contains(": 1 added, 1 updated, 1 unchanged, 0 skipped") == true,
            "\(result.output)"
        )
        let after = try sandbox.snapshot()
        #expect(after.bankCount == 3)
        #expect(after.historyCount > historyBefore)
        let db = try Database(path: sandbox.storePath)
        #expect(
            try db.scalar("SELECT acquiring_institution FROM failed_bank_details WHERE cert = 1001")
                == .text("Third Bank")
        )
        // A file without an acquirer column leaves acquirers alone.
        let noAcquirer = sandbox.file(
            "old.csv",
            "Bank Name,City,ST,CERT #,Closing Date,Updated Date\r\nFirst Bank,Reno,NV,1001,26-Apr-24,1-May-24\r\n"
        )
        let old = sandbox.run([noAcquirer])
        #expect(old.output.first?.contains(": 0 added, 1 updated, 0 unchanged") == true, "\(old.output)")
        #expect(
            try db.query("SELECT acquiring_institution, updated_date, fund FROM failed_bank_details WHERE cert = 1001")
                == [[.text("Third Bank"), .text("2024-05-01"), .integer(10001)]]
        )
    }

    @Test func progressIsReportedAndFinishes() throws {
        let sandbox = ImportSandbox()
        defer { sandbox.remove() }
        let path = sandbox.directory + "/gen.csv"
        try BankListGenerator(seed: 3).write(rows: 20_000, to: path)
        let store = try FailedBankStore.open(path: sandbox.storePath)
        let reports = Reports()
        _ = try BankImporter(store: store).importFile(path) { reports.append($0) }
        #expect(reports.last?.isFinished == true)
        #expect(reports.last?.rows == 20_000)
        #expect(reports.last?.fraction == 1)
        let line = ImportProgressBar.line(
            label: "x.csv",
            progress: ImportProgress(
                rows: 250_000,
                bytesRead: 50,
                totalBytes: 100,
                elapsed: 2,
                isFinished: false
            ),
            width: 80
        )
        #expect(
            line.contains("250,000 rows") && line.contains("125,000 rows/s") && line.contains("50%")
                && line.contains("ETA 2 s")
        )
    }

    @Test func summaryLineHasTheAgreedForm() {
        var summary = ImportSummary(path: "b.csv")
        summary.added = 3
        summary.updated = 1
        summary.unchanged = 568
        summary.skipped = 2
        summary.seconds = 0.0449
        #expect(
            summary.summaryLine
                == "imported 572 rows from b.csv: 3 added, 1 updated, 568 unchanged, 2 skipped in 0.04 s"
        )
        summary.seconds = 12.5
        #expect(summary.summaryLine.hasSuffix("in 12.50 s"))
    }

    @Test func issueMessagesHaveTheAgreedForm() {
        let issue = ImportIssue(
            path: "b.csv",
            line: 42,
            reason: "not a valid date",
            column: "Closing Date",
            value: "31-Foo-24"
        )
        #expect(issue.description == "b.csv:42: not a valid date (column \"Closing Date\", value \"31-Foo-24\")")
        #expect(
            ImportIssue(path: "b.csv", line: 3, reason: "expected 7 fields, found 6").description
                == "b.csv:3: expected 7 fields, found 6"
        )
    }

    @Test func theKeySetFindsRepeatsInAndOutsideTheBitmap() {
        var set = KeySet()
        for value: Int64 in [0, 1, 63, 64, 24735, 4_000_000, KeySet.bitmapLimit - 1, KeySet.bitmapLimit, -5, Int64.max]
        {
            let first = set.insert(value)
            let second = set.insert(value)
            #expect(first)
            #expect(!second)
            #expect(set.contains(value))
        }
        #expect(!set.contains(2))
    }

    @Test func fieldTrimmingOnBytesMatchesUnicodeWhitespace() {
        for text in ["  a b ", "\u{a0}Bank\u{a0}", "\u{2003}x\u{3000}", "\u{feff}y", "ñ\u{85}", "\u{a0}", "", "é"] {
            var copy = text
            let trimmed = copy.withUTF8 { utf8 -> String in
                let raw = UnsafeRawBufferPointer(utf8)
                return String(decoding: raw[CSVFieldText.trimmedRange(utf8: raw)], as: UTF8.self)
            }
            #expect(trimmed == CSVFieldText.trimmed(text), "\(Array(text.unicodeScalars))")
        }
    }
}

/// Collects progress reports (called from the importer's parsing thread).
final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [ImportProgress] = []
    func append(_ report: ImportProgress) {
        lock.lock()
        reports.append(report)
        lock.unlock()
    }
    var last: ImportProgress? {
        lock.lock()
        defer { lock.unlock() }
        return reports.last
    }
}
