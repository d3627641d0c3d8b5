import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

/// A query's result as a table of its own, brought up to each run by the difference: only the
/// rows that changed are written, each recorded by the file's history; rows keep their row ids
/// by key (or by content); as few rows as possible change place in the order.
@Suite struct QueryResultTableTests {
    static let columns = [
        QueryColumn(name: "id", declaredType: "INTEGER"), QueryColumn(name: "name", declaredType: "TEXT"),
        QueryColumn(name: "score"),
    ]

    func table(_ identity: QueryRowIdentity, _ folder: TemporaryDirectory) throws -> QueryResultTable {
        try QueryResultTable(path: folder.path("result.sqlite"), columns: Self.columns, identity: identity)
    }

    func rows(_ values: [(Int64, String, StoreValue)]) -> ValueRows {
        ValueRows(values.map { [.integer($0.0), .text($0.1), $0.2] }, columnCount: 3)
    }

    /// The rows in the query's order: (row id, id, name, score).
    func contents(_ table: QueryResultTable) throws -> [[StoreValue]] {
        try table.database.query(
            "SELECT \(table.rowIDColumn), id, name, score FROM query_result ORDER BY \(table.orderColumn)"
        )
    }

    /// The history entries past `seq`: (row id, op).
    func history(_ table: QueryResultTable, after seq: Int64 = 0) throws -> [String] {
        try table.database.query("SELECT row_id, op FROM query_history WHERE seq > ? ORDER BY seq", [.integer(seq)])
            .map { "\($0[1].string ?? "")\($0[0].int64 ?? 0)" }
    }

    @Test func theFirstRunIsWrittenInOrderWithoutHistory() throws {
        let folder = TemporaryDirectory("query-result")
        let table = try table(.key(["id"]), folder)
        try table.load(rows([(7, "Ada", 3), (3, "Brook", 1.5), (5, "Cyril", .null)]))
        #expect(try contents(table) == [[1, 7, "Ada", 3], [2, 3, "Brook", 1.5], [3, 5, "Cyril", nil]])
        #expect(try history(table).isEmpty)
        #expect(table.count == 3)
    }

    @Test func aRunWritesOnlyWhatChangedAndTheHistoryRecordsIt() throws {
        let folder = TemporaryDirectory("query-result")
        let table = try table(.key(["id"]), folder)
        try table.load(rows([(7, "Ada", 3), (3, "Brook", 1), (5, "Cyril", 2)]))
        // Brook's score changes, Cyril goes, Dana comes in second place, Ada stays.
        let change = try table.update(from: rows([(7, "Ada", 3), (8, "Dana", 4), (3, "Brook", 9)]))
        #expect(change.inserted == 1 && change.updated == 1 && change.deleted == 1 && change.moved == 0)
        #expect(try contents(table) == [[1, 7, "Ada", 3], [4, 8, "Dana", 4], [2, 3, "Brook", 9]])
        #expect(try Set(history(table)) == ["D3", "I4", "U2"])
        // The same run again changes nothing and writes nothing.
        let seq = try table.database.scalar("SELECT max(seq) FROM query_history").int64 ?? 0
        #expect(try table.update(from: rows([(7, "Ada", 3), (8, "Dana", 4), (3, "Brook", 9)])).isEmpty)
        #expect(try history(table, after: seq).isEmpty)
    }

    @Test func aRowThatMovesToTheTopIsTheOnlyOneWhosePlaceChanges() throws {
        let folder = TemporaryDirectory("query-result")
        let table = try table(.key(["id"]), folder)
        try table.load(rows((1...50).map { (Int64($0), "n\($0)", .integer(Int64($0))) }))
        let seq = try table.database.scalar("SELECT max(seq) FROM query_history").int64 ?? 0
        let moved =
            [(Int64(50), "n50", StoreValue.integer(50))] + (1...49).map { (Int64($0), "n\($0)", .integer(Int64($0))) }
        let change = try table.update(from: rows(moved))
        #expect(change.moved == 1 && change.updated == 0)
        #expect(try history(table, after: seq) == ["U50"])
        #expect(try contents(table).map { $0[1] } == moved.map { .integer($0.0) })
        // A new row at the top too: one insert, nothing else moves.
        let change2 = try table.update(from: rows([(99, "new", .null)] + moved))
        #expect(change2.inserted == 1 && change2.moved == 0)
    }

    @Test func withoutAKeyAChangedRowIsADeleteAndAnInsertAndEqualRowsAreToldApart() throws {
        let folder = TemporaryDirectory("query-result")
        let table = try table(.content, folder)
        try table.load(rows([(1, "x", 1), (1, "x", 1), (2, "y", 2)]))
        let change = try table.update(from: rows([(1, "x", 1), (2, "y", 5)]))
        #expect(change.deleted == 2 && change.inserted == 1 && change.updated == 0)
        #expect(try contents(table).map { Array($0.dropFirst()) } == [[1, "x", 1], [2, "y", 5]])
        let ids = try contents(table).map { $0[0].int64 ?? 0 }
        #expect(ids[0] == 1 || ids[0] == 2)
        #expect(ids[1] == 4, "a new row id, never one given before")
    }

    @Test func aRepeatedKeyIsRefusedNamingItsValues() throws {
        let folder = TemporaryDirectory("query-result")
        let table = try table(.key(["name"]), folder)
        #expect(throws: QueryResultError.duplicateKey(columns: ["name"], values: [.text("Ada")])) {
            try table.load(rows([(1, "Ada", 1), (2, "Brook", 1), (3, "Ada", 2)]))
        }
        #expect(try table.database.scalar("SELECT count(*) FROM query_result").int64 == 0)
        try table.load(rows([(1, "Ada", 1)]))
        #expect(throws: QueryResultError.self) { try table.update(from: rows([(1, "Ada", 1), (2, "Ada", 1)])) }
        #expect(try contents(table) == [[1, 1, "Ada", 1]], "a refused run leaves the result as it was")
    }

    /// Rows that read back from the table as they were written (a server's): the first run only
    /// writes them, their key checked as they come, and the index is read back before a re-run.
    final class ReadBackRows: QueryRows {
        let rows: ValueRows
        init(_ rows: ValueRows) { self.rows = rows }
        var columnCount: Int { rows.columnCount }
        func next() throws -> Bool { try rows.next() }
        func field(_ index: Int) -> QueryField { rows.field(index) }
        var readsBackAsWritten: Bool { true }
    }

    @Test func rowsThatReadBackAsWrittenAreIndexedAfterTheFirstRunTheirKeyCheckedAsTheyAreWritten() throws {
        let folder = TemporaryDirectory("query-result")
        let table = try table(.key(["name"]), folder)
        #expect(throws: QueryResultError.duplicateKey(columns: ["name"], values: [.text("Ada")])) {
            try table.load(ReadBackRows(rows([(1, "Ada", 1), (2, "Brook", 1), (3, "Ada", 2)])))
        }
        #expect(try table.database.scalar("SELECT count(*) FROM query_result").int64 == 0)
        try table.load(ReadBackRows(rows([(7, "Ada", 3), (3, "Brook", 1), (5, "Cyril", 2)])))
        #expect(!table.isIndexed && table.count == 3, "the load only wrote the rows")
        let change = try table.update(from: ReadBackRows(rows([(7, "Ada", 3), (8, "Dana", 4), (3, "Brook", 9)])))
        #expect(change.inserted == 1 && change.updated == 1 && change.deleted == 1 && change.moved == 0)
        #expect(try contents(table) == [[1, 7, "Ada", 3], [4, 8, "Dana", 4], [2, 3, "Brook", 9]])
        #expect(try Set(history(table)) == ["D3", "I4", "U2"])
        #expect(table.isIndexed && table.count == 3)
        // A table's key (not given by the user) is checked when the index is read back.
        let otherFolder = TemporaryDirectory("query-result")
        let unchecked = try self.table(.key(["name"]), otherFolder)
        try unchecked.load(ReadBackRows(rows([(1, "Ada", 1), (2, "Ada", 2)])), checksKey: false)
        #expect(throws: QueryResultError.duplicateKey(columns: ["name"], values: [.text("Ada")])) {
            try unchecked.buildIndex()
        }
    }

    @Test func anUnknownKeyColumnIsRefused() throws {
        let folder = TemporaryDirectory("query-result")
        #expect(throws: QueryResultError.unknownKeyColumn("code", columns: ["id", "name", "score"])) {
            try table(.key(["code"]), folder)
        }
    }

    @Test func hiddenColumnsNeverClashWithTheResultsOwn() throws {
        let folder = TemporaryDirectory("query-result")
        let table = try QueryResultTable(
            path: folder.path("result.sqlite"),
            columns: [QueryColumn(name: "query_row"), QueryColumn(name: "QUERY_ORDER")],
            identity: .content
        )
        #expect(table.rowIDColumn == "query_row_2" && table.orderColumn == "query_order_2")
    }

    /// Runs that insert, delete, move, change and repeat rows, at random: after each, the table
    /// is the run, in its order; a row told apart by its key keeps its row id while it stays.
    /// (A re-run finds a row's slot where the last run's order expects it, else by its digest.)
    @Test(arguments: [true, false])
    func everyRunLeavesTheTableAsTheRunWhateverMoved(byKey: Bool) throws {
        let folder = TemporaryDirectory("query-result")
        let table = try table(byKey ? .key(["id"]) : .content, folder)
        var rng = SplitMix64(seed: byKey ? 0x51DE : 0xC0DE)
        var run: [(Int64, String, StoreValue)] = (1...30).map { ($0, "n\($0 % 4)", .integer($0 % 3)) }
        try table.load(rows(run))
        var nextID: Int64 = 31
        for step in 0..<150 {
            // By key: each id's row id before the run.
            let before = byKey ? try contents(table) : []
            let rowIDs = Dictionary(uniqueKeysWithValues: before.map { ($0[1], $0[0]) })
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let place = Int.random(in: 0...run.count, using: &rng)
                switch Int.random(in: 0..<6, using: &rng) {
                case 0:
                    run.insert((nextID, "new", .integer(nextID % 5)), at: place)
                    nextID += 1
                case 1 where !run.isEmpty:
                    run.remove(at: Int.random(in: 0..<run.count, using: &rng))
                case 2 where !run.isEmpty:
                    let row = run.remove(at: Int.random(in: 0..<run.count, using: &rng))
                    run.insert(row, at: min(place, run.count))
                case 3 where !run.isEmpty:
                    run[Int.random(in: 0..<run.count, using: &rng)].2 = .integer(Int64.random(in: 0...4, using: &rng))
                case 4 where !run.isEmpty && !byKey:
                    run.insert(run[Int.random(in: 0..<run.count, using: &rng)], at: place)  // an equal row
                default:
                    break
                }
            }
            let change = try table.update(from: rows(run))
            let written = try contents(table)
            #expect(
                written.map { Array($0.dropFirst()) } == run.map { [.integer($0.0), .text($0.1), $0.2] },
                "step \(step): the table is the run"
            )
            #expect(change.count == run.count)
            for row in written where rowIDs[row[1]] != nil {
                #expect(rowIDs[row[1]] == row[0], "step \(step): the row of id \(row[1]) kept its row id")
            }
        }
    }

    @Test(arguments: [0, 1, 2])
    func placesKeepTheLongestIncreasingRunAndStayInOrder(_ seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &+ 0x0DE5)
        var old: [Double?] = (1...40).map { Double($0) }
        for _ in 0..<200 {
            old.shuffle(using: &rng)
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                old.insert(nil, at: Int.random(in: 0...old.count, using: &rng))
            }
            let places = QueryOrdering.places(old: old)
            #expect(zip(places, places.dropFirst()).allSatisfy { $0 < $1 }, "strictly increasing")
            let kept = zip(old, places).filter { $0.0 == $0.1 }.count
            let longest = QueryOrdering.longestIncreasing(old).filter { $0 }.count
            #expect(kept >= longest || places == QueryOrdering.renumbered(places.count))
            old = places.map { $0 }
        }
    }
}
