import Foundation
import TestSupport
import Testing

/// The built `fetchedtable` run without a terminal: every refusal with its exit status
/// and sentence, and `list` against the order SQL gives.
@Suite(.enabled(if: TableFixture.isAvailable, Comment(rawValue: TableFixture.unavailableReason ?? "")))
struct TableCommandLineTests {
    @Test func everyRefusalExitsWithItsStatusAndSaysWhy() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let binary = try fixture.write(
            "binary.dat",
            String(decoding: [0x00, 0x01, 0x02, 0xFF, 0x00, 0x10], as: UTF8.self)
        )
        let empty = try fixture.write("empty.csv", "")
        let damaged = try fixture.write(
            "damaged.sqlite",
            "SQLite format 3\u{0}" + String(repeating: "garbage!", count: 600)
        )
        let missing = fixture.directory.appendingPathComponent("missing.sqlite").path
        let cases: [(arguments: [String], status: Int32, says: String)] = [
            ([missing], 66, "no such file"),
            (["list", missing], 66, "no such file"),
            (["list", fixture.directory.path], 66, "directory"),
            (["list", binary], 65, "neither a SQLite database nor a CSV file"),
            ([binary], 65, "neither a SQLite database nor a CSV file"),
            (["list", empty], 65, "empty"),
            (["list", damaged], 65, "damaged"),
            ([], 64, "missing FILE"),
            (["list", fixture.school, "--table", "pupil"], 64, "its tables: math (view), student, teacher"),
            ([fixture.school, "--table", "pupil"], 64, "its tables: math (view), student, teacher"),
            (["list", fixture.school], 64, "choose one with --table"),
            (
                ["list", fixture.school, "--table", "student", "--sort", "grade desc"], 64,
                "--sort: no column \"grade\" in table \"student\"; its columns: id, name, subject, number"
            ),
            (
                [fixture.school, "--table", "student", "--section", "grade"], 64,
                "its columns: id, name, subject, number"
            ),
            (["list", fixture.school, "--table", "student", "--section", "week(name)"], 64, "unknown key \"week(…)\""),
            (["list", fixture.school, "--table", "student", "--title", "grade"], 64, "--title: no column \"grade\""),
            (
                ["list", fixture.school, "--table", "student", "--subtitle", "subject, grade"], 64,
                "--subtitle: no column \"grade\""
            ),
            (
                ["list", fixture.school, "--table", "student", "--where", "grade > 2"], 64,
                "--where: no column \"grade\""
            ),
            (["list", fixture.school, "--table", "student", "--where", "number >"], 64, "--where:"),
            (
                ["list", fixture.school, "--table", "student", "--format", "xml"], 64,
                "--format must be text, json or csv"
            ),
            (["list", fixture.school, "--table", "student", "--colour"], 64, "unknown option '--colour'"),
            ([fixture.school, "--table", "student", "--read-only", "--track"], 64, "cannot go with --read-only"),
            (["watch", fixture.school, "--table", "math", "--track"], 64, "--track"),
            ([fixture.school, "--table", "student"], 1, "needs a terminal"),
        ]
        for (arguments, status, says) in cases {
            let result = try fixture.run(arguments)
            #expect(result.status == status, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(says), "\(arguments): \(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "one line: \(result.standardError)")
        }
        #expect(fixture.databaseFiles() == ["school.sqlite"], "no refusal left a file behind")
    }

    @Test func listJSONHasTheSectionsAndRowsInTheOrderOfSQL() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let result = try fixture.run([
            "list", fixture.school, "--table", "student", "--sort", "subject, number desc",
            "--section", "subject", "--format", "json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        )
        let sections = try #require(json["sections"] as? [[String: Any]])
        let names = sections.compactMap { $0["name"] as? String }
        #expect(
            names.joined(separator: "\n") == (try fixture.sql("SELECT DISTINCT subject FROM student ORDER BY subject"))
        )
        let objects = sections.flatMap { ($0["objects"] as? [[String: Any]]) ?? [] }
        let ids = objects.compactMap { ($0["id"] as? NSNumber)?.intValue }.map(String.init)
        #expect(
            ids.joined(separator: "\n") == (try fixture.sql("SELECT id FROM student ORDER BY subject, number DESC, id"))
        )
        let first = try #require(objects.first)
        #expect(first["name"] as? String == "Emil")
        #expect((first["number"] as? NSNumber)?.intValue == 2)
        #expect(first["subject"] as? String == "Art")
        #expect(sections.first?["indexTitle"] as? String == "Art")
    }

    @Test func listTextAndCSVHaveTheFormatsOfEveryAppsList() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let base = [
            "list", fixture.school, "--table", "student", "--sort", "subject, number", "--section", "subject",
            "--title", "name", "--subtitle", "number",
        ]
        let text = try fixture.run(base)
        #expect(text.status == 0, "\(text.standardError)")
        #expect(
            text.standardOutput.hasPrefix("Art (2 rows)\n  Brook, 1\n  Emil, 2\nBiology (1 row)\n  Hana, 1\n"),
            "\(text.standardOutput)"
        )
        let csv = try fixture.run(base + ["--format", "csv"])
        #expect(
            csv.standardOutput.hasPrefix("section,_rowid,id,name,subject,number\nArt,2,2,Brook,Art,1\n"),
            "\(csv.standardOutput)"
        )
    }

    @Test func listOfACSVFileByDayAndItsCacheIsReused() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write(
            "events.csv",
            "id;ts;level\n1;2025-06-26 09:00;info\n2;2025-06-27 10:00;warn\n3;2025-06-27 08:00;info\n"
        )
        let arguments = ["list", csv, "--sort", "ts desc", "--section", "day(ts)", "--format", "json"]
        let first = try fixture.run(arguments)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(
            first.standardOutput.contains(
                "{\"name\":\"2025-06-27\",\"indexTitle\":\"06-27\",\"objects\":[{\"_rowid\":2,\"id\":2,"
            ),
            "\(first.standardOutput)"
        )
        let cached = try FileManager.default.contentsOfDirectory(atPath: fixture.cache + "/fetchedtable")
        #expect(!cached.isEmpty)
        let second = try fixture.run(arguments)
        #expect(second.standardOutput == first.standardOutput)
    }
}
