import Foundation
import TestSupport
import Testing

/// The order of `fetchedtable list --sort` over a server table is the server's `ORDER BY`,
/// for every supported type, ascending and descending, in the `C` collation and in an ICU
/// collation (`en-US`): numbers as numbers (`numeric`, `money`, domains), `NaN` and
/// `±Infinity` where PostgreSQL puts them, enums in their declared order, NULL last
/// ascending and first descending, ties by the primary key. One table, one column per case.
@Suite(.enabled(if: PostgresFixture.isAvailable, Comment(rawValue: PostgresFixture.unavailableReason ?? "")))
struct PostgresOrderConformanceTests {
    /// 24 rows; each column's values by row (`NULL` for NULL), duplicates and NULLs among them.
    static let values: [(column: String, type: String, values: [String])] = {
        let texts = [
            "apple", "Apple", "Äpfel", "zebra", "Zebra", "éclair", "eclair", "Eclair", "1abc", "_under", "a-b", "ab",
            "a b", "", "NULL", "ß", "ss", "Œuvre", "oeuvre", "résumé", "resume", "Zürich", "zulu", "apple",
        ]
        let numbers = [
            "-2.00", "10.00", "100.25", "9.50", "-10", "0", "0.000", "1e3", "NaN", "NULL", "2.5", "2.50", "-0.5",
            "123456789012345678901234567890.5", "-123456789012345678901234567890", "0.0001", "Infinity", "-Infinity",
            "NULL", "7", "3.14159", "-3.14", "42", "1e-20",
        ]
        let floats = [
            "NaN", "Infinity", "-Infinity", "0", "-0.25", "1.5", "-1.5", "1e300", "-1e-300", "NULL", "2", "2", "10",
            "9.5", "NaN", "NULL", "0.1", "-1e300", "3", "100", "-2", "5e-324", "7", "Infinity",
        ]
        let integers = (0..<24).map { [3, -7, 12, 0, 100, -100, 5, 5, 9, 10, 11, 2][$0 % 12] + $0 / 12 }.map(
            String.init
        )
        let withNulls = integers.enumerated().map { $0.offset % 5 == 4 ? "NULL" : $0.element }
        let money = withNulls.map { $0 == "NULL" ? $0 : "\($0).25" }
        let days = [
            "2024-01-01", "infinity", "-infinity", "1999-12-31", "NULL", "2024-01-01", "0001-01-01", "9999-12-31",
            "2000-02-29", "1970-01-01", "NULL", "2023-06-15", "2023-06-14", "2024-12-31", "1900-01-01", "2024-01-02",
            "1969-07-20", "2001-09-09", "2038-01-19", "NULL", "1582-10-15", "2024-02-29", "2010-10-10", "2020-20-20",
        ].map { $0 == "2020-20-20" ? "2020-12-20" : $0 }
        let times = days.enumerated().map { index, day in
            day == "NULL" || day.hasSuffix("infinity")
                ? day
                : "\(day) \(String(format: "%02d:%02d:%02d.%d", index % 24, index * 7 % 60, index * 13 % 60, index))"
        }
        let uuids = (0..<24).map { index in
            index % 7 == 6
                ? "NULL"
                : String(format: "%08x-0000-4000-8000-%012x", (index * 2_654_435_761) & 0xFFFF_FFFF, index * 977)
        }
        let moods = (0..<24).map { ["sad", "ok", "happy", "meh", "NULL", "happy"][$0 % 6] }
        let flags = (0..<24).map { ["true", "false", "NULL"][$0 % 3] }
        return [
            ("i2", "smallint", withNulls), ("i4", "integer", withNulls), ("i8", "bigint", integers),
            (
                "f4", "real",
                floats.map { ["1e300": "1e30", "-1e300": "-1e30", "-1e-300": "-1e-30", "5e-324": "1e-40"][$0] ?? $0 }
            ), ("f8", "double precision", floats), ("num", "numeric", numbers),
            ("price", "price", withNulls.map { $0 == "NULL" ? $0 : "\($0).5" }), ("qty", "quantity", withNulls),
            ("cash", "money", money), ("flag", "boolean", flags), ("day", "date", days), ("at", "timestamp", times),
            ("at_tz", "timestamptz", times), ("uid", "uuid", uuids), ("mood", "mood", moods),
            ("t_c", "text COLLATE \"C\"", texts), ("t_default", "text", texts),
            ("t_icu", "text COLLATE en_us_icu", texts), ("v_icu", "varchar(20) COLLATE en_us_icu", texts),
            ("c_icu", "char(8) COLLATE en_us_icu", texts.map { String($0.prefix(8)) }),
        ]
    }()

    static var schema: String {
        let columns = values.map { "\($0.column) \($0.type)" }.joined(separator: ", ")
        let rows = (0..<24).map { row in
            "(" + ([String(row + 1)] + values.map { literal($0.values[row]) }).joined(separator: ", ") + ")"
        }
        return """
            SET client_encoding = 'UTF8';
            CREATE COLLATION en_us_icu (provider = icu, locale = 'en-US');
            CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
            ALTER TYPE mood ADD VALUE 'meh' BEFORE 'ok';
            CREATE DOMAIN price AS numeric(12, 2);
            CREATE DOMAIN quantity AS integer;
            CREATE TABLE sorts (id int PRIMARY KEY, \(columns));
            INSERT INTO sorts VALUES \(rows.joined(separator: ",\n"));
            """
    }

    static func literal(_ value: String) -> String {
        value == "NULL" ? "NULL" : "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
    }

    @Test func listSortsEveryTypeAsTheServersOrderByBothWays() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(Self.schema)
        var mismatches: [String] = []
        for (column, type, _) in Self.values {
            for descending in [false, true] {
                let direction = descending ? " DESC" : ""
                let expected = try fixture.psql("SELECT id FROM sorts ORDER BY \(column)\(direction), id")
                    .split(separator: "\n").compactMap { Int($0) }
                let result = try fixture.run([
                    "list", fixture.uri, "--table", "sorts", "--sort", "\(column)\(direction.lowercased())",
                    "--format", "json",
                ])
                guard result.status == 0 else {
                    mismatches.append("\(column) \(type)\(direction): exit \(result.status): \(result.standardError)")
                    continue
                }
                let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
                let sections = json?["sections"] as? [[String: Any]] ?? []
                let ids = sections.flatMap { ($0["objects"] as? [[String: Any]]) ?? [] }.map {
                    ($0["_rowid"] as? Int) ?? -1
                }
                if ids != expected {
                    mismatches.append("\(column) \(type)\(direction): list \(ids), psql \(expected)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }
}
