import Foundation
import SQLiteStore
import Testing

/// The section keys every app uses: their SQL and their Swift twin agree on every kind of stored value.
@Suite("Derived section keys: SQL and Swift agree")
struct DerivedSectionKeyTests {
    /// Dates, near-dates, text that is no date, numbers, BLOBs and NULL.
    static let dateValues: [StoreValue] = [
        .text("2025-06-27"), .text("2025-06-27T10:30:00"), .text("2025-06-27 10:30"), .text("2025-06"), .text("2025"),
        .text("20250627"), .text("2025-6-27"), .text("6/27/2025"), .text("yesterday"), .text(""), .text("१९९९-०१-०१"),
        .text("2025-06-2"), .text("20x5-06-27"), .text("2025-06-27é"), .integer(20_250_627), .integer(2025),
        .real(2025.5), .real(2024), .blob(Array("2025-06-27".utf8)), .null,
        // Code points of two, three and four bytes, a combining accent: a prefix counts code points, as `substr`.
        .text("2025-06-2\u{301}7"), .text("日本語のテキストは十文字より長い"), .text("👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽"), .text("é"),
        .text("2025-06-27\u{301}"), .text("ÀÁÂÃÄÅÆÇÈÉ"), .text("ÀÁÂÃÄÅÆÇÈÉÊ"),
    ]

    /// Letters of both cases, digits, punctuation, non-ASCII letters, control characters, numbers, BLOBs, NULL.
    static let nameValues: [StoreValue] = [
        .text("apple"), .text("Zebra"), .text("zulu"), .text("42nd Street"), .text("#hash"), .text(" space"),
        .text("élan"), .text("Ärger"), .text("ß"), .text("ﬁne"), .text(""), .text("\u{1B}[31mred"), .text("\tTab"),
        .text("[bracket"), .text("@at"), .text("`tick"), .text("{brace"), .integer(7), .integer(-3), .real(1.5),
        .blob(Array("bank".utf8)), .blob([0x5A, 0xFF]), .blob([0xC3, 0xA9]), .blob([]), .null,
    ]

    /// `attribute`'s SQL run on `value` and its Swift computation on the same value.
    private func both(
        _ attribute: DerivedAttribute,
        of key: String,
        _ value: StoreValue,
        db: Database
    ) throws
        -> (sql: StoreValue, swift: StoreValue)
    {
        let sql = try db.scalar("SELECT " + attribute.expression(alias: "t") + " FROM (SELECT ?1 AS c) AS t", [value])
        return (sql, attribute.compute { $0 == key ? value : .null })
    }

    @Test("year, month and day: the same part of a date, NULL for NULL, (not a date) for anything else")
    func datePartsAgree() throws {
        let db = try Database(path: ":memory:")
        let parts: [DerivedAttribute] = [
            .year("y", of: "d", column: "c"), .month("m", of: "d", column: "c"), .day("x", of: "d", column: "c"),
            .year("y", of: "d", column: "c", notADate: .null),
            .year("y", of: "d", column: "c", valuesAreDates: true),
            .day("x", of: "d", column: "c", valuesAreDates: true),
        ]
        for part in parts {
            for value in Self.dateValues {
                let (sql, swift) = try both(part, of: "d", value, db: db)
                #expect(sql == swift, "\(part.sql) on \(value)")
            }
        }
        let year = DerivedAttribute.year("y", of: "d", column: "c")
        #expect(year.compute { _ in .text("2025-06-27") } == .text("2025"))
        #expect(year.compute { _ in .text("yesterday") } == .text(DerivedAttribute.notADate))
        #expect(year.compute { _ in .integer(20_250_627) } == .text("(not a date)"))
        #expect(year.compute { _ in .null } == .null)
        #expect(DerivedAttribute.month("m", of: "d").compute { _ in .text("2025-06-27") } == .text("2025-06"))
        #expect(DerivedAttribute.day("x", of: "d").compute { _ in .text("2025-06-27T10:30") } == .text("2025-06-27"))
        // Its section sorts after the dates in both directions; a NULL or an unchecked part has no such value.
        #expect(year.sortsLast == .text("(not a date)"))
        #expect(DerivedAttribute.year("y", of: "d", notADate: .null).sortsLast == Optional.none)
        #expect(DerivedAttribute.day("x", of: "d", valuesAreDates: true).sortsLast == Optional.none)
        #expect(DerivedAttribute.initial("i", of: "n").sortsLast == Optional.none)
    }

    @Test("initial: an ASCII letter upper-cased, # for digits, punctuation, other letters, numbers and NULL")
    func initialsAgree() throws {
        let db = try Database(path: ":memory:")
        let initial = DerivedAttribute.initial("i", of: "n", column: "c")
        for value in Self.nameValues {
            let (sql, swift) = try both(initial, of: "n", value, db: db)
            #expect(sql == swift, "\(value)")
        }
        #expect(DerivedAttribute.initial(of: .text("apple")) == .text("A"))
        #expect(DerivedAttribute.initial(of: .text("42nd Street")) == .text("#"))
        #expect(DerivedAttribute.initial(of: .text("élan")) == .text("#"))
        #expect(DerivedAttribute.initial(of: .null) == .text("#"))
    }

    @Test("a column whose name is not a plain identifier is quoted in the SQL")
    func quotedColumn() throws {
        let db = try Database(path: ":memory:")
        let initial = DerivedAttribute.initial("i", of: "first name")
        #expect(initial.sql.contains("$.\"first name\""))
        let sql = initial.expression(alias: "t")
        #expect(try db.scalar("SELECT \(sql) FROM (SELECT 'bob' AS \"first name\") AS t") == .text("B"))
    }
}
