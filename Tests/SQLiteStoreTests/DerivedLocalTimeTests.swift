import Foundation
import SQLiteStore
import Testing

/// Date-times with an offset read in the local time zone (issue 41): the SQL of
/// `DerivedAttribute.localTime` and of the date parts in local time agree with their Swift twins on
/// every kind of value, in the zone the tests run in (the zones themselves are the end-to-end tests'
/// business: `TableTimeZoneTests` runs the program under `TZ=America/New_York` and `TZ=Asia/Tokyo`).
@Suite("Derived local times: SQL and Swift agree")
struct DerivedLocalTimeTests {
    /// Offsets of every form, around the turn of a year, outside 1971–2037, with fractions, out of
    /// SQLite's ranges, without an offset, and values that are no date-time.
    static let values: [StoreValue] = [
        .text("2024-12-31T20:30:00-05:00"), .text("2024-12-31 20:30:00+01"), .text("2024-12-31T23:59:59Z"),
        .text("2025-01-01T00:15:00Z"), .text("2024-12-31T20:30-05:00"), .text("2024-12-31 20:30Z"),
        .text("2024-06-30T12:00:00.250+09:00"), .text("2024-06-30T12:00:00.9999+09:00"),
        .text("1965-03-01T08:00:00+02:00"),
        .text("2050-07-04T18:00:00-07:00"), .text("2024-02-31T10:00:00Z"), .text("2024-13-01T10:00:00Z"),
        .text("2024-12-31T25:00:00Z"), .text("2024-12-31T20:30:00+15:00"), .text("2024-12-31T20:30:00-05:60"),
        .text("2024-12-31T20:30:00 -05:00"), .text("2024-12-31T20:30:00"), .text("2024-12-31"),
        .text("2024-12-31T20:30:00z"), .text("2024-12-31T20:30:00x-05:00"), .text("garbage-05:00"), .text(""),
        .text("0000-01-01T00:00:00Z"), .text("2024-12-31T24:00:00+00:00"), .integer(20_241_231), .real(2024.5),
        .blob(Array("2024-12-31T20:30:00Z".utf8)), .null,
    ]

    private func both(
        _ attribute: DerivedAttribute,
        _ value: StoreValue,
        db: Database
    ) throws -> (StoreValue, StoreValue) {
        let sql = try db.scalar("SELECT " + attribute.expression(alias: "t") + " FROM (SELECT ?1 AS c) AS t", [value])
        return (sql, attribute.compute { $0 == "d" ? value : .null })
    }

    @Test func localTimeAndTheDatePartsInLocalTimeAgree() throws {
        let db = try Database(path: ":memory:")
        let attributes: [DerivedAttribute] = [
            .localTime("l", of: "d", column: "c"),
            .year("y", of: "d", column: "c", inLocalTime: true), .month("m", of: "d", column: "c", inLocalTime: true),
            .day("x", of: "d", column: "c", inLocalTime: true),
            .day("x", of: "d", column: "c", valuesAreDates: true, inLocalTime: true),
        ]
        for attribute in attributes {
            for value in Self.values {
                let (sql, swift) = try both(attribute, value, db: db)
                #expect(sql == swift, "\(attribute.name) on \(value)")
            }
        }
    }

    @Test func aValueWithoutAnOffsetOrNoDateTimeStaysAsItIs() {
        for value in [
            StoreValue.text("2024-12-31T20:30:00"), .text("2024-12-31"), .text("x-05:00"), .integer(1), .null,
        ] {
            #expect(DerivedAttribute.localTime(of: value) == value)
        }
        // In any zone, a converted value keeps its separator and loses its offset.
        guard case .text(let local) = DerivedAttribute.localTime(of: .text("2024-12-31 20:30:00+01")) else {
            Issue.record("not converted")
            return
        }
        #expect(local.count == 19 && Array(local.utf8)[10] == UInt8(ascii: " "), "\(local)")
    }
}
