import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

@Suite("StoreValue and StoreDate")
struct StoreValueTests {
    @Test func compareAgreesWithSQLiteOrderByForRandomValues() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE v(id INTEGER PRIMARY KEY, x)")
        let seed = PropertySettings.seed(default: 0x5107_E5EE)
        var rng = SeededGenerator(seed: seed)
        let words = [
            "a", "A", "b", "B", "_", "é", "É", "z", "Z", "ß", "銀行", "🏦", "First–Citizens", "first", "First", "", " ",
            "a\u{301}", "á",
        ]
        func randomValue() -> StoreValue {
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: return .null
            case 1: return .integer(Int64.random(in: -5...5, using: &rng))
            case 2: return .integer(Int64.random(in: Int64.min...Int64.max, using: &rng))
            case 3: return .real(Double(Int.random(in: -10...10, using: &rng)) / 2)
            case 4:
                return .real(
                    [9.223372036854775807e18, -9.223372036854775808e18, 1e300, -0.0][Int.random(in: 0..<4, using: &rng)]
                )
            case 5, 6:
                let n = Int.random(in: 0...3, using: &rng)
                return .text((0..<n).map { _ in words.randomElement(using: &rng)! }.joined())
            default:
                return .blob(
                    (0..<Int.random(in: 0...3, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                )
            }
        }
        for round in 0..<PropertySettings.cases(normal: 20, long: 1_000) {
            try db.execute("DELETE FROM v")
            var values: [StoreValue] = []
            for _ in 0..<40 {
                let value = randomValue()
                values.append(value)
                try db.run("INSERT INTO v(x) VALUES (?)", [value])
            }
            for collation in [Collation.binary, .nocase] {
                // Order by the value, ties by insertion order, in SQL and in Swift.
                let sqlOrder = try db.query("SELECT id FROM v ORDER BY x COLLATE \(collation.sqlName), id").map {
                    Int($0[0].int64!) - 1
                }
                let swiftOrder = values.indices.sorted { i, j in
                    let c = StoreValue.compare(values[i], values[j], collation: collation)
                    return c != 0 ? c < 0 : i < j
                }
                #expect(
                    sqlOrder == swiftOrder,
                    "seed \(seed) round \(round) collation \(collation): \(PropertySettings.replay(seed))"
                )
                if sqlOrder != swiftOrder { return }
            }
        }
    }

    @Test func integersAndRealsCompareNumerically() {
        #expect(StoreValue.compare(.integer(2), .real(2.5)) == -1)
        #expect(StoreValue.compare(.real(2.0), .integer(2)) == 0)
        #expect(StoreValue.compare(.integer(Int64.max), .real(9.223372036854775807e18)) == -1)
        #expect(StoreValue.compare(.null, .integer(Int64.min)) == -1)
        #expect(StoreValue.compare(.text(""), .real(1e300)) == 1)
        #expect(StoreValue.compare(.blob([]), .text("zzz")) == 1)
    }

    @Test func nocaseFoldsOnlyASCII() {
        #expect(StoreValue.compare("ABC", "abc", collation: .nocase) == 0)
        #expect(StoreValue.compare("É", "é", collation: .nocase) != 0)
        #expect(StoreValue.compare("_", "a", collation: .nocase) == -1)  // folds to lower case, as SQLite does
    }

    @Test func datesRoundTripAsISOText() {
        let d = Date(timeIntervalSince1970: 1_311_897_600)  // 2011-07-29
        #expect(StoreDate.text(from: d) == "2011-07-29")
        #expect(StoreDate.date(from: "2011-07-29") == d)
        #expect(StoreDate.dateTimeText(from: d.addingTimeInterval(3723)) == "2011-07-29T01:02:03Z")
        #expect(StoreDate.dateTime(from: "2011-07-29T01:02:03Z") == d.addingTimeInterval(3723))
        #expect(StoreDate.text(from: Date(timeIntervalSince1970: -1)) == "1969-12-31")
        #expect(StoreDate.date(from: "2011-02-29") == nil)
        #expect(StoreDate.date(from: "2012-02-29") != nil)
        #expect(StoreDate.date(from: "29/07/2011") == nil)
    }

    @Test func datesAgreeWithSQLiteDateFunctions() throws {
        let db = try Database(path: ":memory:")
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<200 {
            let secs = Int64.random(in: -3_000_000_000...4_000_000_000, using: &rng)
            let date = Date(timeIntervalSince1970: TimeInterval(secs))
            let sql = try db.scalar("SELECT strftime('%Y-%m-%dT%H:%M:%SZ', ?, 'unixepoch')", [.integer(secs)])
            #expect(sql == .text(StoreDate.dateTimeText(from: date)))
        }
    }
}
