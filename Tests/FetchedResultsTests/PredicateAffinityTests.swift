import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FetchedResults

/// Issue 38.9: a predicate compares as SQLite's type affinity rules say — a value compared with a
/// column takes the column's affinity — identically in SQL and in Swift. The oracle is SQLite
/// itself running the SQL a person would type into `sqlite3` (values spliced in as literals, plain
/// columns, no help from the compiler), over a table whose columns have every affinity and hold
/// every storage class.
@Suite("Predicates compare by affinity, as sqlite3 does")
struct PredicateAffinityTests {
    /// The columns, one per affinity (and a view of them, whose computed column has none).
    static let columns: [(name: String, declared: String)] = [
        ("t", "TEXT"), ("n", "NUMERIC"), ("i", "INTEGER"), ("r", "REAL"), ("b", ""), ("d", "DATE"),
        ("v", "VARCHAR(10)"),
    ]

    /// Values of every storage class, with text that reads as a number (or nearly does).
    static let stored: [StoreValue] = [
        .null, .integer(7), .integer(2020), .integer(-3), .integer(0), .real(6.5), .real(2020.0), .real(1e20),
        .text("7"), .text(" 7 "), .text("6"), .text("2020"), .text("2019"), .text("2021-05-01"), .text("abc"),
        .text(""), .text("1e3"), .text("6.50"), .text("+5"), .text(".5"), .text("5."), .text("0x10"), .text("NA"),
        .text("Abc"), .blob([0x37]), .text("9223372036854775807"), .text("99999999999999999999"),
    ]

    /// Values written in predicates.
    static let literals: [StoreValue] = [
        .null, .integer(7), .integer(2020), .integer(6), .integer(-3), .integer(0), .real(6.5), .real(2020.0),
        .real(0.5), .real(1e20), .text("7"), .text("6"), .text("2020"), .text(" 7"), .text("abc"), .text(""),
        .text("6.5"), .text("1e3"), .text("2021"), .text("NA"), .text("ABC"),
    ]

    /// A table `mixed` with the columns above, filled with random values of every class.
    static func makeDatabase(rows: Int, rng: inout SeededGenerator) throws -> (TemporaryDirectory, String) {
        let folder = TemporaryDirectory("affinity-test")
        let path = folder.path("mixed.sqlite")
        let db = try Database(path: path)
        let definitions = columns.map { "\($0.name) \($0.declared)" }.joined(separator: ", ")
        try db.execute("CREATE TABLE mixed (id INTEGER PRIMARY KEY, \(definitions))")
        try db.execute("CREATE VIEW mixed_view AS SELECT id AS id2, t, i, i + 0 AS e FROM mixed")
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let names = columns.map(\.name).joined(separator: ", ")
        try db.transaction {
            for _ in 0..<rows {
                try db.run(
                    "INSERT INTO mixed (\(names)) VALUES (\(placeholders))",
                    columns.map { _ in stored.randomElement(using: &rng)! }
                )
            }
        }
        return (folder, path)
    }

    /// `value` as a SQL literal (what a person types): text quoted, reals with every digit, blobs as X'…'.
    static func literal(_ value: StoreValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let i): return String(i)
        case .real(let d):
            return String(format: "%.17g", d).contains(where: { $0 == "." || $0 == "e" })
                ? String(format: "%.17g", d) : String(format: "%.17g", d) + ".0"
        case .text(let s): return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let b): return "X'" + b.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    struct Generator {
        var rng: SeededGenerator
        let keyPaths: [String]

        mutating func pick<T>(_ a: [T]) -> T { a.randomElement(using: &rng)! }
        mutating func chance(_ n: Int) -> Bool { Int.random(in: 0..<n, using: &rng) == 0 }

        /// A comparison and the SQL a person would write for it.
        mutating func comparison() -> (PredicateTree, String) {
            let k = pick(keyPaths)
            let ci = chance(5)
            let collate = ci ? " COLLATE NOCASE" : ""
            switch Int.random(in: 0..<10, using: &rng) {
            case 0:
                let list = (0..<Int.random(in: 1...3, using: &rng)).map { _ in pick(PredicateAffinityTests.literals) }
                let sql = "(\(k)\(collate) IN (\(list.map(PredicateAffinityTests.literal).joined(separator: ", "))))"
                return (.comparison(PredicateComparison(.keyPath(k), .in, list: list, caseInsensitive: ci)), sql)
            case 1:
                let (a, b) = (pick(PredicateAffinityTests.literals), pick(PredicateAffinityTests.literals))
                let sql =
                    "(\(k)\(collate) >= \(PredicateAffinityTests.literal(a)) AND \(k)\(collate) <= "
                    + "\(PredicateAffinityTests.literal(b)))"
                return (
                    .comparison(PredicateComparison(.keyPath(k), .between, list: [a, b], caseInsensitive: ci)), sql
                )
            default:
                let ops: [(PredicateOperator, String)] = [
                    (.equal, "="), (.notEqual, "<>"), (.less, "<"), (.lessOrEqual, "<="), (.greater, ">"),
                    (.greaterOrEqual, ">="),
                ]
                let (op, sqlOp) = pick(ops)
                if chance(4) {
                    let other = pick(keyPaths)
                    let tree = PredicateTree.comparison(
                        PredicateComparison(.keyPath(k), op, .keyPath(other), caseInsensitive: ci)
                    )
                    return (tree, "(\(k)\(collate) \(sqlOp) \(other))")
                }
                let value = pick(PredicateAffinityTests.literals)
                let lit = PredicateAffinityTests.literal(value)
                if value == .null {
                    // `x == nil` tests for NULL, as `IS NULL` does.
                    guard op == .equal || op == .notEqual else {
                        return (.comparison(PredicateComparison(.keyPath(k), op, .value(.null))), "NULL")
                    }
                    let test = op == .equal ? "IS NULL" : "IS NOT NULL"
                    return (.comparison(PredicateComparison(.keyPath(k), op, .value(.null))), "(\(k) \(test))")
                }
                if chance(4) {
                    let tree = PredicateTree.comparison(
                        PredicateComparison(.value(value), op, .keyPath(k), caseInsensitive: ci)
                    )
                    return (tree, "(\(lit)\(collate) \(sqlOp) \(k))")
                }
                let tree = PredicateTree.comparison(
                    PredicateComparison(.keyPath(k), op, .value(value), caseInsensitive: ci)
                )
                return (tree, "(\(k)\(collate) \(sqlOp) \(lit))")
            }
        }

        mutating func expression(depth: Int = 0) -> (PredicateTree, String) {
            if depth >= 2 || chance(depth == 0 ? 3 : 2) { return comparison() }
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                let (x, s) = expression(depth: depth + 1)
                return (.not(x), "(NOT \(s))")
            case 1:
                let (a, sa) = expression(depth: depth + 1)
                let (b, sb) = expression(depth: depth + 1)
                return (.and(a, b), "(\(sa) AND \(sb))")
            default:
                let (a, sa) = expression(depth: depth + 1)
                let (b, sb) = expression(depth: depth + 1)
                return (.or(a, b), "(\(sa) OR \(sb))")
            }
        }
    }

    /// Random predicates over `table` (of `keyPaths`): the rows SQLite selects with the SQL a person
    /// writes, with our compiled SQL, and the rows Swift matches, all the same.
    func check(table: String, keyPaths: [String], seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let (folder, path) = try Self.makeDatabase(rows: 160, rng: &rng)
        _ = folder
        let catalog = try DatabaseCatalog(path: path)
        let catalogTable = try #require(catalog.table(named: table))
        let entity = catalogTable.entity(named: table)
        let model = Model(version: 1, applicationID: 0, entities: [entity])
        let store = try Store(foreignDatabaseAt: path, model: model, readOnly: true)
        let db = store.database
        let id = entity.idColumn == "rowid" || catalogTable.isView ? nil : entity.idColumn
        let idSQL = id ?? "rowid"
        // Every row's values, by its id (a view's rows by their position).
        var rows: [(Int64, [String: StoreValue])] = []
        let select =
            catalogTable.isView ? "SELECT row_number() OVER (), * FROM \(table)" : "SELECT \(idSQL), * FROM \(table)"
        try db.forEachRow(select) { row in
            var values: [String: StoreValue] = [:]
            for (index, column) in catalogTable.columns.enumerated() {
                values[column.name] = row.value(at: Int32(index + 1))
            }
            rows.append((row.int64(at: 0), values))
        }
        var gen = Generator(rng: SeededGenerator(seed: seed &* 31 &+ 11), keyPaths: keyPaths)
        let count = PropertySettings.isLong ? 20_000 : PropertySettings.isQuick ? 150 : 600
        let source = try model.sqlSource(root: table, keyPaths: keyPaths)
        for n in 0..<count {
            let (tree, sql) = gen.expression()
            let predicate = FetchPredicate(tree)
            // SQLite on the SQL a person types (sqlite3's answer).
            var expected = Set<Int64>()
            let numbered =
                catalogTable.isView
                ? "SELECT n FROM (SELECT row_number() OVER () AS n, * FROM \(table))" : "SELECT \(idSQL) FROM \(table)"
            try db.forEachRow("\(numbered) WHERE \(sql)") { expected.insert($0.int64(at: 0)) }
            // Our SQL.
            let fragment = try predicate.sql(in: source)
            var compiled = Set<Int64>()
            let from =
                catalogTable.isView ? "(SELECT row_number() OVER () AS n, * FROM \(table)) AS t0" : "\(table) AS t0"
            let idColumn = catalogTable.isView ? "t0.n" : "t0.\(idSQL)"
            try db.forEachRow("SELECT \(idColumn) FROM \(from) WHERE \(fragment.sql)", fragment.arguments) {
                compiled.insert($0.int64(at: 0))
            }
            // Swift, with the columns' affinities.
            var swift = Set<Int64>()
            for (rowID, values) in rows
            where predicate.matches(
                { values[$0] ?? .null },
                affinity: { (try? source.affinity(forKeyPath: $0)) ?? nil }
            ) {
                swift.insert(rowID)
            }
            if expected != compiled || expected != swift {
                let differing = expected.symmetricDifference(swift).union(expected.symmetricDifference(compiled))
                let examples = rows.filter { differing.contains($0.0) }.prefix(3).map { "\($0.0): \($0.1)" }
                Issue.record(
                    "seed \(seed) #\(n): \(sql)\nsqlite3 \(expected.count) rows, compiled \(compiled.count), Swift \(swift.count); e.g. \(examples)\nSQL: \(fragment.sql) \(fragment.arguments)"
                )
                return
            }
        }
    }

    static let seeds: [UInt64] = [1, 2, 3, 0xAFF1_4177, 20_251_206]

    @Test(arguments: seeds)
    func aTableOfEveryAffinitySelectsWhatSQLiteSelects(seed: UInt64) throws {
        try check(table: "mixed", keyPaths: Self.columns.map(\.name), seed: seed)
    }

    @Test(arguments: seeds.prefix(2))
    func aViewsComputedColumnHasNoAffinityAsInSQLite(seed: UInt64) throws {
        try check(table: "mixed_view", keyPaths: ["t", "i", "e"], seed: seed)
    }

    @Test func theIssuesExamplesCompareAsSqlite3Does() throws {
        // year TEXT holding years: `year >= 2020` is text against '2020' (one row), not every row.
        let years = try FetchPredicate("year >= 2020")
        let texts: [StoreValue] = [.text("2019"), .text("2020"), .text("1999")]
        #expect(texts.filter { v in years.matches({ _ in v }, affinity: { _ in .text }) }.count == 1)
        // rating INTEGER: `rating > '6'` is against 6 (two of 5, 7, 9 match), not none.
        let ratings = try FetchPredicate("rating > '6'")
        let numbers: [StoreValue] = [.integer(5), .integer(7), .integer(9)]
        #expect(numbers.filter { v in ratings.matches({ _ in v }, affinity: { _ in .integer }) }.count == 2)
    }

    @Test func numbersReadFromTextAsSQLiteReadsThem() {
        #expect(TypeAffinity.number(fromText: " 7 ") == .integer(7))
        #expect(TypeAffinity.number(fromText: "+5") == .integer(5))
        #expect(TypeAffinity.number(fromText: "5.") == .real(5))
        #expect(TypeAffinity.number(fromText: ".5") == .real(0.5))
        #expect(TypeAffinity.number(fromText: "-.5e1") == .real(-5))
        #expect(TypeAffinity.number(fromText: "1e") == nil)
        #expect(TypeAffinity.number(fromText: "0x10") == nil)
        #expect(TypeAffinity.number(fromText: "") == nil)
        #expect(TypeAffinity.number(fromText: "9223372036854775807") == .integer(.max))
        #expect(TypeAffinity.number(fromText: "99999999999999999999") == .real(1e20))
        #expect(TypeAffinity.text(of: 100) == "100.0")
        #expect(TypeAffinity.text(of: 1e20) == "1.0e+20")
        #expect(TypeAffinity.text(of: 0.1) == "0.1")
        #expect(TypeAffinity(declaredType: "VARCHAR(3)") == .text)
        #expect(TypeAffinity(declaredType: "DATE") == .numeric)
        #expect(TypeAffinity(declaredType: "FLOATING POINT") == .integer)  // "INT" comes first, as in SQLite
        #expect(TypeAffinity(declaredType: "") == .blob)
    }
}
