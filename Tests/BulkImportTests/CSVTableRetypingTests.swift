import CSVImport
import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import BulkImport

/// A CSV file's cache column given another type: the values stored as it, losslessly, the
/// declared type rewritten, all or nothing.
@Suite struct CSVTableRetypingTests {
    /// `codes.csv` loaded: a text column of numbers and a code, a real column written two ways,
    /// flags, days in another form.
    func loaded(_ f: CSVLoaderFixture) throws -> CSVTable {
        let path = f.file(
            "codes.csv",
            "code,amount,flag,day,note\n42,1.5,yes,27-Jun-25,NA\n7,2.50,No,3-Nov-23,x\n,3,true,1-Jan-24,NA\n"
        )
        return try f.loader(path).load()
    }

    func declared(_ table: CSVTable, _ column: String) throws -> String? {
        let db = try Database(path: table.databasePath, options: CSVLoaderFixture().readOnly)
        return try db.query(
            "SELECT type FROM pragma_table_info(?) WHERE name = ?",
            [
                .text(table.tableName), .text(column),
            ]
        ).first?[0].string
    }

    func column(_ table: CSVTable, _ name: String) throws -> [StoreValue] {
        let db = try Database(path: table.databasePath, options: CSVLoaderFixture().readOnly)
        return try db.query("SELECT \(Database.quote(identifier: name)) FROM codes ORDER BY rowid").map { $0[0] }
    }

    @Test func numbersBecomeTextAsTheFileWroteThemAndBackAgain() throws {
        let f = CSVLoaderFixture()
        let table = try loaded(f)
        let retyping = CSVTableRetyping(databasePath: table.databasePath, table: table.tableName)
        #expect(table.columns.map(\.type) == [.integer, .real, .text, .date, .text])
        let outcome = try retyping.retype("amount", to: .text)
        #expect(outcome.converted == 3)
        #expect(try column(table, "amount") == [.text("1.5"), .text("2.50"), .text("3")], "as written")
        #expect(try declared(table, "amount") == "TEXT")
        try retyping.retype("amount", to: .real)
        // 2.50 and 3 as numbers, their written forms kept beside them again (the loader's companion).
        #expect(try column(table, "amount") == [.real(1.5), .real(2.5), .real(3)])
        #expect(try column(table, CSVTable.writtenFormColumn(of: "amount")) == [.null, .text("2.50"), .text("3")])
        #expect(try declared(table, "amount") == "REAL")
    }

    @Test func aValueThatDoesNotReadAsTheTypeRefusesTheWholeColumn() throws {
        let f = CSVLoaderFixture()
        let table = try loaded(f)
        let retyping = CSVTableRetyping(databasePath: table.databasePath, table: table.tableName)
        #expect(throws: CSVTableRetyping.Refusal(column: "note", target: .integer, count: 3, example: "NA", row: 1)) {
            try retyping.retype("note", to: .integer)
        }
        #expect(try column(table, "note") == [.text("NA"), .text("x"), .text("NA")], "nothing changed")
        #expect(try declared(table, "note") == "TEXT")
        // With NA a missing value, only x is left to refuse.
        let refusal = #expect(throws: CSVTableRetyping.Refusal.self) {
            try retyping.retype("note", to: .integer, missingValues: ["NA"])
        }
        #expect(refusal?.count == 1 && refusal?.example == "x" && refusal?.row == 2)
        #expect(refusal?.description == "1 value of note is not an integer (the first: 'x' on row 2)")
    }

    @Test func flagsBecomeBooleansDaysISODatesAndTokensNull() throws {
        let f = CSVLoaderFixture()
        let table = try loaded(f)
        let retyping = CSVTableRetyping(databasePath: table.databasePath, table: table.tableName)
        try retyping.retype("flag", to: .boolean)
        #expect(try column(table, "flag") == [.integer(1), .integer(0), .integer(1)])
        #expect(try declared(table, "flag") == "BOOLEAN")
        try retyping.retype("code", to: .text)
        #expect(try column(table, "code") == [.text("42"), .text("7"), .null])
        try retyping.retype("code", to: .integer)
        #expect(try column(table, "code") == [.integer(42), .integer(7), .null])
        let reread = try CSVTable.read(databasePath: table.databasePath, tableName: "codes")
        #expect(reread.columns.first { $0.name == "code" }?.type == .integer, "the cache keeps the type")
        try retyping.retype("day", to: .dateTime)
        #expect(try declared(table, "day") == "DATETIME")
    }
}
