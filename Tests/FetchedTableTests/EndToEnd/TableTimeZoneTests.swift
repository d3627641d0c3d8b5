import Foundation
import TestSupport
import Testing

/// Date-times written with their offset from UTC are read in the terminal's time zone (`TZ`), in a
/// CSV file's cache and in a SQLite table alike: sectioned by the local `year()`/`month()`, sorted by
/// the instant (not by the text), shown as the local time. Before (issue 41), the sections took the
/// text's first characters: a New York evening on 31 December was in December in Tokyo too, and the
/// rows were in the text's order.
@Suite(.serialized, .enabled(if: TableFixture.isAvailable, Comment(rawValue: TableFixture.unavailableReason ?? "")))
struct TableTimeZoneTests {
    /// Five instants around the turn of 2025, written with offsets of every form; in the order of the
    /// instants: 5, 3, 2, 1, 4 (the text's order is 5, 1, 3, 2, 4).
    static let rows = [
        (1, "2024-12-31T20:30:00-05:00", "new york evening"),  // 2025-01-01 01:30 UTC
        (2, "2025-01-01T00:15:00Z", "utc quarter past"),  // 00:15 UTC
        (3, "2024-12-31 23:00:00+01", "paris late"),  // 2024-12-31 22:00 UTC
        (4, "2025-01-01T12:00:00+09:00", "tokyo noon"),  // 03:00 UTC
        (5, "2024-12-31T10:00:00+09:00", "tokyo morning"),  // 2024-12-31 01:00 UTC
    ]

    static var csv: String {
        "id,ts,what\n" + rows.map { "\($0.0),\($0.1),\($0.2)\n" }.joined()
    }

    /// `list FILE --section 'month(ts)' --sort ts --format csv` in `zone`: each row's section and id, in order.
    static func sectionsAndIDs(
        _ fixture: TableFixture,
        _ file: String,
        zone: String,
        extra: [String] = []
    ) throws
        -> [String]
    {
        fixture.timeZone = zone
        let result = try fixture.run(
            ["list", file, "--section", "month(ts)", "--sort", "ts", "--format", "csv"] + extra
        )
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            return "\(fields[0]) \(fields[2])"
        }
    }

    @Test func aCSVFilesDateTimesWithOffsetsAreSectionedAndSortedInTheTerminalsZone() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let file = try fixture.write("events.csv", Self.csv)
        #expect(
            try Self.sectionsAndIDs(fixture, file, zone: "America/New_York") == [
                "2024-12 5", "2024-12 3", "2024-12 2", "2024-12 1", "2024-12 4",
            ]
        )
        #expect(
            try Self.sectionsAndIDs(fixture, file, zone: "Asia/Tokyo") == [
                "2024-12 5", "2025-01 3", "2025-01 2", "2025-01 1", "2025-01 4",
            ]
        )
        // Sorted without sections: by the instant, in either zone.
        fixture.timeZone = "Asia/Tokyo"
        let sorted = try fixture.run(["list", file, "--sort", "ts desc", "--columns", "id", "--format", "csv"])
        #expect(
            sorted.standardOutput.split(separator: "\n").dropFirst().map { $0.split(separator: ",").last ?? "" } == [
                "4", "1", "2", "3", "5",
            ],
            "\(sorted.standardOutput)"
        )
    }

    @Test func aSQLiteTablesDateTimesWithOffsetsAreSectionedInTheTerminalsZone() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let database = fixture.directory.appendingPathComponent("events.sqlite").path
        let inserts = Self.rows.map { "INSERT INTO events VALUES (\($0.0), '\($0.1)', '\($0.2)');" }
        try fixture.sql(
            "CREATE TABLE events (id INTEGER PRIMARY KEY, ts TEXT, what TEXT);\n" + inserts.joined(separator: "\n"),
            database: database
        )
        #expect(
            try Self.sectionsAndIDs(fixture, database, zone: "America/New_York") == [
                "2024-12 5", "2024-12 3", "2024-12 2", "2024-12 1", "2024-12 4",
            ]
        )
        #expect(
            try Self.sectionsAndIDs(fixture, database, zone: "Asia/Tokyo") == [
                "2024-12 5", "2025-01 3", "2025-01 2", "2025-01 1", "2025-01 4",
            ]
        )
    }

    /// The grid shows the local time: in Tokyo, the New York evening is the next morning.
    @Test(.enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? "")))
    func theGridShowsTheLocalTime() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let file = try fixture.write("events.csv", Self.csv)
        fixture.timeZone = "Asia/Tokyo"
        let tmux = try fixture.launch([file, "--sort", "ts"], width: 100, height: 12)
        defer { tmux.close() }
        let grid = try tmux.waitUntil("the grid") { $0.contains("new york evening") && $0.contains("1/5") }
        let line = try #require(grid.screenLines.first { $0.contains("new york evening") })
        #expect(line.contains("2025-01-01T10:30:00"), "\(grid)")
        #expect(!grid.contains("-05:00"), "\(grid)")
        let paris = try #require(grid.screenLines.first { $0.contains("paris late") })
        #expect(paris.contains("2025-01-01 07:00:00"), "\(grid)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }
}
