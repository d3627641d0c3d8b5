import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FailedBanksKit

/// A bank with two `failed_bank_details` rows: version-1 stores
/// allowed them (a `sqlite3` shell inserts one); version 2 forbids new ones with a
/// unique index, but a store that already has them keeps opening, and `list`, `watch`
/// and the controller show every bank once, with its lowest-id details row.
@Suite struct DuplicatedDetailsTests {
    /// Turns the store at `path` into one from before version 2 (no unique index on
    /// `info_id`, the plain one back) and gives bank `bank` a second details row.
    static func makeVersion1WithDuplicate(_ path: String, bank: Int64, closeDate: String, cert: Int64) throws {
        let db = try Database(path: path)
        try db.execute(
            """
            DROP INDEX IF EXISTS failed_bank_details_unique_info_id;
            CREATE INDEX IF NOT EXISTS failed_bank_details_info_id ON failed_bank_details(info_id);
            PRAGMA user_version = 1;
            INSERT INTO failed_bank_details(close_date, cert, info_id) VALUES ('\(closeDate)', \(cert), \(bank));
            """
        )
    }

    @Test("a new store refuses a second details row for a bank (unique info_id)")
    func newStoresForbidDuplicates() throws {
        let store = try CommandTestStore("dup-new", banks: WatchCommandTests.banks)
        let shell = try store.connection()
        #expect(throws: SQLiteError.self) {
            try shell.execute("INSERT INTO failed_bank_details(close_date, cert, info_id) VALUES ('2001-01-01', 99, 1)")
        }
        let opened = try Store(path: store.path, model: FailedBankModel.model)
        #expect(try opened.enforcesUniqueKey(["info"], of: FailedBankModel.details))
    }

    @Test("a version-1 store without duplicates is migrated to the unique index (the plain one is dropped)")
    func migrationWithoutDuplicates() throws {
        let store = try CommandTestStore("dup-migrate", banks: WatchCommandTests.banks)
        do {
            let db = try Database(path: store.path)
            try db.execute(
                """
                DROP INDEX failed_bank_details_unique_info_id;
                CREATE INDEX failed_bank_details_info_id ON failed_bank_details(info_id);
                PRAGMA user_version = 1;
                """
            )
        }
        #expect(ListRun(["--db", store.path]).status == 0)
        let opened = try Store(path: store.path, model: FailedBankModel.model)
        #expect(try opened.database.userVersion() == 2)
        #expect(try opened.enforcesUniqueKey(["info"], of: FailedBankModel.details))
        let plain = try opened.database.scalar(
            "SELECT count(*) FROM sqlite_master WHERE name = 'failed_bank_details_info_id'"
        )
        #expect(plain == .integer(0))
    }

    @Test(
        "the bundled list with a bank's details row duplicated: list shows every bank once (ids = rows = banks), the lowest-id row's date"
    )
    func bundledStoreWithDuplicateListsEachBankOnce() throws {
        let scratch = TemporaryDirectory("dup-bundled")
        defer { scratch.remove() }
        let path = try scratch.bundledStore(named: "banks.sqlite")
        let banks: Int64
        do {
            let db = try Database(path: path)
            banks = try db.scalar("SELECT count(*) FROM failed_bank_info").int64!
        }
        try Self.makeVersion1WithDuplicate(path, bank: 5, closeDate: "1999-01-01", cert: 999_999)

        let csv = ListRun(["--db", path, "--format", "csv"])
        #expect(csv.status == 0, "\(csv.errors)")
        let rows = csv.lines.dropFirst().filter { !$0.isEmpty }
        let ids = rows.map { $0.split(separator: ",", omittingEmptySubsequences: false)[1] }
        #expect(rows.count == Int(banks))
        #expect(Set(ids).count == Int(banks))
        #expect(!csv.output.contains("1999-01-01"), "the later details row is shown")
        #expect(!csv.output.contains("999999"))

        let text = ListRun(["--db", path])
        #expect(text.lines.filter { $0.hasPrefix("  ") }.count == Int(banks))

        // The store was migrated, kept its rows, and does not enforce the key (it cannot).
        let opened = try Store(path: path, model: FailedBankModel.model)
        #expect(try opened.database.userVersion() == 2)
        #expect(try !opened.enforcesUniqueKey(["info"], of: FailedBankModel.details))
        #expect(try opened.database.scalar("SELECT count(*) FROM failed_bank_details").int64 == banks + 1)
        // The controller counts every bank once.
        let controller = ListCommand.makeController(tab: .date, filter: nil, context: ObjectContext(store: opened))
        try controller.performFetch()
        #expect(controller.fetchedObjects.count == Int(banks))
        #expect(controller.sections.reduce(0) { $0 + $1.numberOfObjects } == Int(banks))
    }

    @Test("watch over a store with duplicated details rows: every batch applies, and the result is what list prints")
    func watchWithDuplicates() throws {
        let store = try CommandTestStore("dup-watch", banks: WatchCommandTests.banks)
        try Self.makeVersion1WithDuplicate(store.path, bank: 2, closeDate: "2021-03-01", cert: 50)
        let shell = try store.connection()
        let steps = [
            // A third row for bank 2 at a lower id than its others: it becomes the one shown (2023).
            "INSERT INTO failed_bank_details(id, close_date, cert, info_id) VALUES (0, '2023-02-02', 51, 2)",
            // A new date on a row that is not shown: nothing moves.
            "UPDATE failed_bank_details SET close_date = '2019-09-09' WHERE cert = 50",
            // The shown row deleted: the next-lowest shows (back to 2025).
            "DELETE FROM failed_bank_details WHERE id = 0",
            // A duplicate for bank 3, then its original row moved to bank 4 (which then has two).
            "INSERT INTO failed_bank_details(close_date, cert, info_id) VALUES ('2022-01-01', 52, 3)",
            "UPDATE failed_bank_details SET info_id = 4 WHERE cert = 3",
            "BEGIN; DELETE FROM failed_bank_details WHERE cert = 2; UPDATE failed_bank_details SET close_date = '2026-01-01' WHERE cert = 50; COMMIT;",
        ]
        let run = try WatchRun(["--db", store.path], steps: steps.map { sql in { try shell.execute(sql) } })
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.initial == [WatchCommandTests.snapshot])
        let watched = try WatchedState(jsonLines: run.lines.joined(separator: "\n"))
        #expect(watched.problems.isEmpty, "\(watched.problems)")
        let listed = try WatchedState.Section.list(fromJSON: ListRun(["--db", store.path, "--format", "json"]).output)
        #expect(watched.sections == listed)
        #expect(listed.flatMap(\.ids).sorted() == [1, 2, 3, 4])
        #expect(listed.map(\.name) == ["2026", "2025", "2024", "2022"], "\(listed)")
    }
}
