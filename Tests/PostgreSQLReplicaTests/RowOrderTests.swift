import Foundation
import PostgreSQLClient
import SQLiteStore
import TestSupport
import Testing

@testable import PostgreSQLReplica

/// The order a copy sorts its rows in as they arrive must be SQLite's `ORDER BY column
/// [DESC], id` of the replica it wrote, exactly: texts byte for byte (prefixes shared past
/// 24 bytes, a zero byte, one text the start of another), NULL first ascending and last
/// descending, ties by id — however the rows fall into runs.
@Suite struct RowOrderCollectorTests {
    static func values(seed: UInt64, count: Int) -> [(id: Int64, text: [UInt8]?)] {
        var random = SeededGenerator(seed: seed)
        let stems = [
            "", "a", "2024-12-13 05:19:30", "2024-12-13 05:19:30.123456", "a long common stem of thirty bytes",
        ]
        return (0..<count).map { index in
            if random.below(7) == 0 { return (Int64(index + 1), nil) }
            var text = Array(stems[random.below(stems.count)].utf8)
            for _ in 0..<random.below(3) { text.append([0x00, 0x41, 0x7A, 0xC3][random.below(4)]) }
            return (Int64(index + 1), text)
        }.shuffled(using: &random)
    }

    /// The order by a plain comparison of the whole texts.
    static func expected(_ rows: [(id: Int64, text: [UInt8]?)], ascending: Bool) -> [Int64] {
        rows.sorted { a, b in
            if a.text == b.text { return a.id < b.id }
            guard let x = a.text else { return ascending }
            guard let y = b.text else { return !ascending }
            return ascending ? x.lexicographicallyPrecedes(y) : y.lexicographicallyPrecedes(x)
        }.map(\.id)
    }

    @Test(arguments: [true, false]) func theRunsMergeIntoSQLitesOrder(ascending: Bool) throws {
        for seed in PropertySettings.seeds(default: [7, 8]) {
            let rows = Self.values(seed: seed, count: PropertySettings.cases(normal: 3000, long: 100_000))
            for runLength in [1, 13, 1 << 16] {
                var collector = RowOrderCollector(
                    term: OrderTerm("ts", ascending: ascending),
                    valueField: 1,
                    idField: 0,
                    runLength: runLength
                )
                for row in rows {
                    let added =
                        row.text.map { text in text.withUnsafeBytes { collector.add(id: row.id, text: $0) } }
                        ?? collector.add(id: row.id, text: nil)
                    #expect(added)
                }
                let order = collector.sorted()
                let expected = Self.expected(rows, ascending: ascending)
                #expect(order.ids == expected, "\(PropertySettings.replay(seed)), runs of \(runLength)")
                let texts = rows.reduce(into: [Int64: [UInt8]?]()) { $0[$1.id] = $1.text }
                for (index, id) in order.ids.enumerated() {
                    let text = Array(order.text[Int(order.offsets[index])..<Int(order.offsets[index + 1])])
                    #expect(order.isNull[index] ? texts[id]! == nil : texts[id]! == text)
                }
            }
        }
    }
}
