import Foundation
import SQLiteStore
import Testing

@testable import FetchedResults

/// A section key derived from the first sort's attribute with a `decidingBytes` promise: the
/// fetch reads the sorted attribute itself (SQLite keeps it in its sort anyway) instead of
/// having SQLite evaluate the section's SQL for every row, and computes a section in Swift
/// only where a row's text differs from the last one in its deciding bytes. The sections
/// must be those of the section's SQL, whatever the values (NULL, numbers, short texts, text
/// that is no date), and a derivation the data make non-monotonic still falls back.
@Suite struct SectionsFromSortValuesTests {
    /// The day of a timestamp, `?` for text that is no `YYYY-MM-DD…`; in SQL and Swift alike.
    static let day = DerivedAttribute(
        "day",
        .text,
        sql:
            "CASE WHEN $.ts IS NULL THEN NULL WHEN typeof($.ts) = 'text' AND $.ts GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN substr($.ts, 1, 10) ELSE '?' END",
        decidingBytes: 10
    ) { attribute in
        switch attribute("ts") {
        case .null: return .null
        case .text(let s):
            let bytes = Array(s.utf8)
            guard bytes.count >= 10 else { return .text("?") }
            let digits = [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }
            guard digits, bytes[4] == 0x2D, bytes[7] == 0x2D else { return .text("?") }
            return .text(String(decoding: bytes[0..<10], as: UTF8.self))
        default: return .text("?")
        }
    }

    static let event = Entity(
        "Event",
        attributes: [Attribute("ts", .text, optional: true), Attribute("message", .text)],
        derived: [day]
    )
    static let model = Model(version: 1, applicationID: 0x4654_4556, entities: [event])

    static func request() -> FetchRequest {
        var r = FetchRequest(entity: "Event")
        r.sortDescriptors = [FetchSort("ts", ascending: false)]
        return r
    }

    /// The controller's sections (name, count) and ids, beside the section SQL's own answer.
    /// `indexed`: with an index on `ts`, which SQLite reads backwards for `ts DESC`, so rows of one
    /// timestamp come from it in descending id order.
    static func check(
        _ values: [StoreValue],
        indexed: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let t = try TempStore(model: model)
        if indexed { try t.store.database.execute("CREATE INDEX event_ts ON event(ts)") }
        try t.store.database.transaction {
            for (i, v) in values.enumerated() {
                try t.store.database.run("INSERT INTO event(ts, message) VALUES (?, ?)", [v, .text("m\(i)")])
            }
        }
        let c = FetchedResultsController(fetchRequest: request(), context: t.context, sectionNameKeyPath: "day")
        try c.performFetch()
        let sql = try #require(c.plan?.fetchSQLWithoutSectionSort)
        #expect(!sql.contains("GLOB"), "the cheaper query should read ts, not evaluate the section's SQL: \(sql)")
        let expression = day.expression(alias: "t0")
        let expected = try t.store.database.query(
            "SELECT \(expression) AS s, count(*) FROM event AS t0 GROUP BY s ORDER BY s DESC"
        ).map { (FetchedResultsController.sectionName(for: $0[0]), Int($0[1].int64!)) }
        let got = (0..<c.numberOfSections).map { (c.sections[$0].name, c.numberOfObjects(inSection: $0)) }
        #expect(got.map(\.0) == expected.map(\.0), sourceLocation: sourceLocation)
        #expect(got.map(\.1) == expected.map(\.1), sourceLocation: sourceLocation)
        let ids = try t.store.database.query(
            "SELECT t0.id FROM event AS t0 ORDER BY \(expression) DESC, t0.ts DESC, t0.id"
        ).map { $0[0].int64! }
        var fetched: [Int64] = []
        for s in 0..<c.numberOfSections {
            for r in 0..<c.numberOfObjects(inSection: s) {
                fetched.append(c.objectID(at: IndexPath(row: r, section: s))!.rowID)
            }
        }
        #expect(fetched == ids, sourceLocation: sourceLocation)
    }

    @Test func timestampsOfManyDaysGiveTheSectionsOfTheSQL() throws {
        var values: [StoreValue] = []
        for i in 0..<3000 {
            let day = 1 + (i * 7) % 28
            let second = (i * 7919) % 86_400
            values.append(
                .text(
                    String(
                        format: "2025-%02d-%02dT%02d:%02d:%02d",
                        1 + i % 12,
                        day,
                        second / 3600,
                        second / 60 % 60,
                        second % 60
                    )
                )
            )
        }
        try Self.check(values)
    }

    @Test func nullsShortTextsAndTextThatIsNoDateAreSectionedAsTheSQLSays() throws {
        let values: [StoreValue] = [
            .text("2025-03-01T10:00:00"), .text("2025-03-01"), .text("2025-03-0"), .text("2025-03-01T09:00"),
            .null, .text("garbage that is long"), .text("garbage that is longer"), .text("zz"), .null,
            .text("2025-03-02T00:00:00"), .text("2025-03-01é"), .text(""), .text("2024-12-31T23:59:59"),
        ]
        try Self.check(values)
    }

    /// Runs of equal timestamps (the query leaves them in SQLite's order) come out in id order:
    /// runs of one, of many (longer than a chunk of ids), of NULLs, at either end, with and
    /// without an index on `ts`.
    @Test(arguments: [false, true]) func rowsOfOneTimestampComeInIDOrder(indexed: Bool) throws {
        var values: [StoreValue] = []
        for i in 0..<600 {
            let second = (i * 7919) % 40
            values.append(.text(String(format: "2025-%02d-%02dT00:00:%02d", 1 + i % 3, 1 + i % 2, second)))
        }
        values += Array(repeating: .text("2025-02-02T12:00:00"), count: 150)
        values += [.null, .text("2026-01-01T00:00:00"), .null, .text("2026-01-01T00:00:00"), .text("zz"), .text("zz")]
        values += Array(repeating: .text("2024-01-01T00:00:00"), count: 3)
        try Self.check(values.reversed(), indexed: indexed)
        try Self.check(values, indexed: indexed)
    }

    @Test func anIntegerAndARealOfOneNumberFallBackToTheSectionSort() throws {
        try Self.check([.integer(5), .real(5.0), .integer(5), .text("2025-01-01T00:00:00")], indexed: true)
        try Self.check([.real(5.0), .integer(5), .real(5.0)], indexed: true)
    }

    /// The cheaper query drops the id term only where the fetch can restore the order of equal
    /// values: one binary sort, no limit. With a limit, SQLite's order within a run would choose
    /// which rows the limit keeps.
    @Test func aLimitOrASecondSortKeepsTheIDInTheQuery() throws {
        let t = try TempStore(model: Self.model)
        try t.store.database.execute("CREATE INDEX event_ts ON event(ts)")
        try t.store.database.transaction {
            for i in 0..<10 {
                try t.store.database.run(
                    "INSERT INTO event(ts, message) VALUES ('2025-01-01T00:00:00', ?)",
                    [.text("m\(i)")]
                )
            }
        }
        var one = Self.request()
        let plain = FetchedResultsController(fetchRequest: one, context: t.context, sectionNameKeyPath: "day")
        try plain.performFetch()
        #expect(plain.plan?.fetchSQLWithoutSectionSort?.hasSuffix("DESC") == true)
        #expect((0..<10).map { plain.objectID(at: IndexPath(row: $0, section: 0))!.rowID } == Array(1...10))

        one.fetchLimit = 3
        let limited = FetchedResultsController(fetchRequest: one, context: t.context, sectionNameKeyPath: "day")
        try limited.performFetch()
        #expect(limited.plan?.fetchSQLWithoutSectionSort?.contains("t0.id ASC") == true)
        #expect(
            (0..<limited.numberOfObjects(inSection: 0)).map {
                limited.objectID(at: IndexPath(row: $0, section: 0))!.rowID
            } == [1, 2, 3]
        )

        var two = Self.request()
        two.sortDescriptors.append(FetchSort("message", ascending: false))
        let twoSorts = FetchedResultsController(fetchRequest: two, context: t.context, sectionNameKeyPath: "day")
        try twoSorts.performFetch()
        #expect(twoSorts.plan?.fetchSQLWithoutSectionSort?.contains("t0.id ASC") == true)
        let messages = (0..<10).map { twoSorts.objectID(at: IndexPath(row: $0, section: 0))!.rowID }
        #expect(messages == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
    }

    @Test func numbersThatSortBeforeTextFallBackToTheSectionSort() throws {
        // Numbers sort below every text: their section '?' comes after the dates, descending,
        // while '?' sorts above digits: not monotonic, so the query with the section sort decides.
        let values: [StoreValue] = [
            .text("2025-01-01T00:00:00"), .integer(20_250_101), .real(3.5), .text("2024-06-01T00:00:00"),
            .text("no date"),
        ]
        try Self.check(values)
    }
}
