import BulkImport
import CSVImport
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// Rows of `values` (Int64, String, or nil for NULL) in one batch.
private func batch(_ rows: [[Any?]]) -> BulkRowBatch {
    let batch = BulkRowBatch(capacity: max(rows.count, 1))
    for (index, row) in rows.enumerated() {
        for value in row {
            switch value {
            case let n as Int64: batch.append(n)
            case let text as String:
                var text = text
                text.withUTF8 { batch.append(utf8: UnsafeRawBufferPointer($0)) }
            default: batch.appendNull()
            }
        }
        batch.endRow(line: index + 2)
    }
    return batch
}

private func personSchema() throws -> Database {
    let db = try Database(path: ":memory:")
    try db.execute("CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT, city TEXT)")
    try db.execute(
        "CREATE TABLE passport(id INTEGER PRIMARY KEY, person_id INTEGER, number INTEGER UNIQUE, issued TEXT, note TEXT)"
    )
    return db
}

@Suite struct MultiRowInsertWriterSeveralTablesTests {
    @Test func oneBatchFillsARootAndAToOneTableSharingTheId() throws {
        let db = try personSchema()
        let people = try MultiRowInsertWriter(
            database: db,
            table: "person",
            columns: ["name", "city"],
            values: 0..<2,
            rowIDs: .init(),
            rowsPerStatement: 4
        )
        let passports = try MultiRowInsertWriter(
            database: db,
            table: "passport",
            columns: ["number", "issued", "note"],
            values: 2..<5,
            rowIDs: .init(column: "person_id"),
            rowsPerStatement: 4
        )
        let rows: [[Any?]] = (1...6).map { i in
            ["P\(i)", "C\(i)", Int64(100 + i), "2024-01-0\(i)", i % 2 == 0 ? nil : "n\(i)"]
        }
        let first = batch(Array(rows[0..<5]))
        let second = batch(Array(rows[5...]))
        for b in [first, second] {
            try people.write(b)
            try passports.write(b)
        }
        #expect(people.count == 6 && passports.count == 6)
        let joined = try db.query(
            """
            SELECT p.id, p.name, p.city, d.id, d.person_id, d.number, d.issued, d.note
            FROM person p JOIN passport d ON d.person_id = p.id ORDER BY p.id
            """
        )
        #expect(joined.count == 6)
        #expect(
            joined[0] == [
                .integer(1), .text("P1"), .text("C1"), .integer(1), .integer(1), .integer(101), .text("2024-01-01"),
                .text("n1"),
            ]
        )
        #expect(
            joined[5] == [
                .integer(6), .text("P6"), .text("C6"), .integer(6), .integer(6), .integer(106), .text("2024-01-06"),
                .null,
            ]
        )
    }

    @Test func idsOtherThanCountedAreRefused() throws {
        let db = try personSchema()
        try db.execute("INSERT INTO person(id, name) VALUES (7, 'there already')")
        let people = try MultiRowInsertWriter(
            database: db,
            table: "person",
            columns: ["name", "city"],
            values: 0..<2,
            rowIDs: .init()
        )
        #expect(throws: MultiRowInsertWriter.UnexpectedRowID.self) { try people.write(batch([["A", "B"]])) }
    }
}

@Suite struct ToOneUpsertWriterTests {
    private func writer(_ db: Database, absent: Set<String> = []) throws -> ToOneUpsertWriter {
        try ToOneUpsertWriter(
            database: db,
            rootTable: "person",
            rootColumns: ["name", "city"],
            table: "passport",
            foreignKey: "person_id",
            columns: ["number", "issued", "note"],
            key: "number",
            absentColumns: absent
        )
    }

    private func all(_ db: Database) throws -> [[StoreValue]] {
        try db.query(
            """
            SELECT p.id, p.name, p.city, d.person_id, d.number, d.issued, d.note
            FROM passport d LEFT JOIN person p ON p.id = d.person_id ORDER BY d.id
            """
        )
    }

    @Test func addsUpdatesOnlyWhatDiffersAndLeavesIdenticalRows() throws {
        let db = try personSchema()
        let w = try writer(db)
        #expect(try w.apply(batch([["Ada", "London", Int64(1), "2024-01-01", nil]]), row: 0) == .added)
        #expect(try w.apply(batch([["Bob", "", Int64(2), "2024-01-02", "x"]]), row: 0) == .added)
        #expect(try w.apply(batch([["Ada", "London", Int64(1), "2024-01-01", nil]]), row: 0) == .unchanged)
        #expect(try w.apply(batch([["Bob", "", Int64(2), "2024-01-02", "x"]]), row: 0) == .unchanged)
        #expect(try w.apply(batch([["Ada", "Paris", Int64(1), "2024-01-01", "new"]]), row: 0) == .updated)
        try db.execute("CREATE TABLE log(sql TEXT)")
        try db.execute(
            "CREATE TRIGGER t AFTER UPDATE OF issued ON passport BEGIN INSERT INTO log VALUES ('issued'); END"
        )
        #expect(try w.apply(batch([["Bob", "", Int64(2), "2024-01-02", nil]]), row: 0) == .updated)
        #expect(try db.query("SELECT count(*) FROM log") == [[.integer(0)]])  // only the note was written
        #expect(
            try all(db) == [
                [
                    .integer(1), .text("Ada"), .text("Paris"), .integer(1), .integer(1), .text("2024-01-01"),
                    .text("new"),
                ],
                [.integer(2), .text("Bob"), .text(""), .integer(2), .integer(2), .text("2024-01-02"), .null],
            ]
        )
    }

    @Test func absentColumnsAreInsertedAsNullButNeverComparedOrUpdated() throws {
        let db = try personSchema()
        _ = try writer(db).apply(batch([["Ada", "London", Int64(1), "2024-01-01", "kept"]]), row: 0)
        let without = try writer(db, absent: ["note"])
        #expect(try without.apply(batch([["Ada", "London", Int64(1), "2024-01-01", nil]]), row: 0) == .unchanged)
        #expect(try without.apply(batch([["Eve", "Rome", Int64(3), "2024-03-03", nil]]), row: 0) == .added)
        #expect(try all(db).map { $0[6] } == [.text("kept"), .null])
    }

    @Test func aToOneRowWithoutItsRootGetsANewRoot() throws {
        let db = try personSchema()
        let w = try writer(db)
        _ = try w.apply(batch([["Ada", "London", Int64(1), "2024-01-01", nil]]), row: 0)
        try db.execute("INSERT INTO person(id, name) VALUES (5, 'other')")
        try db.execute("UPDATE passport SET person_id = NULL")  // what deleting the root does (SET NULL)
        try db.execute("DELETE FROM person WHERE id = 1")
        #expect(try w.apply(batch([["Ada", "London", Int64(1), "2024-01-01", nil]]), row: 0) == .updated)
        #expect(
            try all(db) == [
                [.integer(6), .text("Ada"), .text("London"), .integer(6), .integer(1), .text("2024-01-01"), .null]
            ]
        )
    }
}

@Suite struct DuplicateKeysTests {
    @Test func namesTheFirstLineOfEachListedRepeat() throws {
        let folder = TemporaryDirectory("duplicate-keys")
        defer { folder.remove() }
        let path = folder.path("keys.csv")
        #expect(
            FileManager.default.createFile(atPath: path, contents: Data("Name,Cert\nA,5\nB,6\nC,5\nD,6\nE,6\n".utf8))
        )
        var keys = DuplicateKeys(name: "cert")
        var issues: [ImportIssue] = []
        for (line, key) in [(2, Int64(5)), (3, 6), (4, 5), (5, 6), (6, 6)] where !keys.insert(key) {
            let problem = keys.problem(column: "Cert", value: String(key))
            issues.append(
                ImportIssue(
                    path: "f.csv",
                    line: line,
                    reason: problem.reason,
                    column: problem.column,
                    value: problem.value
                )
            )
            keys.listed(key, issue: issues.count - 1)
        }
        #expect(issues.map(\.reason) == ["duplicate cert", "duplicate cert", "duplicate cert"])
        keys.nameFirstLines(in: &issues, rereading: path, keyField: 1)
        #expect(
            issues.map(\.reason) == [
                "duplicate cert, first on line 2", "duplicate cert, first on line 3",
                "duplicate cert, first on line 3",
            ]
        )
    }
}
