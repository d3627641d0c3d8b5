import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 38's defects on real data, through the built binary: `--where` on names with spaces, by
/// the columns' affinities, on real columns only; wide tables; CSV files that mix encodings, write
/// `NA` for missing numbers, or are not CSV at all; and issue 37.7's escaping of names from a file.
@Suite(.enabled(if: TableFixture.isAvailable, Comment(rawValue: TableFixture.unavailableReason ?? "")))
struct TableDataTests {
    /// The CSV output's data lines (the header left out).
    static func rows(_ output: String) -> [Substring] { output.split(separator: "\n").dropFirst().map { $0 } }

    // MARK: 38.8, 38.9, 38.10: --where

    @Test func whereNamesAColumnWithSpacesInDoubleQuotes() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write(
            "banks.csv",
            "Bank Name,Closing Date\nAlpha,2019-05-01\nBeta,2021-03-04\nGamma,2020-01-01\n"
        )
        // Before: "Closing Date" was a string constant, greater than the date: all three rows, exit 0.
        let quoted = try fixture.run(["list", csv, "--where", #""Closing Date" >= 2020-01-01"#, "--format", "csv"])
        #expect(quoted.status == 0, "\(quoted.standardError)")
        #expect(
            Self.rows(quoted.standardOutput).map { $0.split(separator: ",", omittingEmptySubsequences: false)[2] } == [
                "Beta", "Gamma",
            ]
        )
        // A comparison of two values is an error that says how to name a column, not a match of every row.
        let constant = try fixture.run(["list", csv, "--where", "'Closing Date' >= 2020-01-01"])
        #expect(constant.status == 64, "\(constant.status): \(constant.standardOutput)")
        #expect(constant.standardError.contains("compares two values"), "\(constant.standardError)")
        #expect(constant.standardError.contains("double quotes"), "\(constant.standardError)")
        // A column of dates compared with a number can never mean what was asked.
        let number = try fixture.run(["list", csv, "--where", #""Closing Date" >= 2020"#])
        #expect(number.status == 64, "\(number.standardError)")
        #expect(number.standardError.contains("holds dates"), "\(number.standardError)")
    }

    @Test func whereComparesByTheColumnsAffinityAsSqlite3Does() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("films.sqlite").path
        try fixture.sql(
            """
            CREATE TABLE films (title TEXT, year TEXT, rating INTEGER);
            INSERT INTO films VALUES ('Alpha', '2019', 5), ('Beta', '2021', 7), ('Gamma', '1999', 9),
              ('Delta', '2020', 6), ('Eps', 'unknown', 'n/a');
            """,
            database: path
        )
        for predicate in ["year >= 2020", "rating > '6'", "rating >= 6.5", "year < 2000", "rating IN {'7', 9}"] {
            let sql = predicate.replacingOccurrences(of: "{", with: "(").replacingOccurrences(of: "}", with: ")")
            let expected = try fixture.sql("SELECT title FROM films WHERE \(sql) ORDER BY rowid", database: path)
            let listed = try fixture.run(["list", path, "--where", predicate, "--format", "csv"])
            #expect(listed.status == 0, "\(predicate): \(listed.standardError)")
            let titles = Self.rows(listed.standardOutput).map {
                String($0.split(separator: ",", omittingEmptySubsequences: false)[2])
            }
            #expect(titles == expected.split(separator: "\n").map(String.init), "\(predicate)")
        }
        // The issue's two: one year from 2020 on (before: every row), two ratings above '6' (before: none).
        let years = try fixture.run(["list", path, "--where", "year >= 2020 AND year < 'a'", "--format", "csv"])
        #expect(Self.rows(years.standardOutput).count == 2, "\(years.standardOutput)")
    }

    @Test func whereIdOnATableWithoutAnIdColumnIsAnErrorNamingTheColumns() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        // teacher has no id column: before, `id = 1` matched SQLite's row number.
        let teacher = try fixture.run(["list", fixture.school, "--table", "teacher", "--where", "id = 1"])
        #expect(teacher.status == 64, "\(teacher.status): \(teacher.standardOutput)")
        #expect(teacher.standardError.contains("no column \"id\""), "\(teacher.standardError)")
        #expect(teacher.standardError.contains("its columns: name, subject, since"), "\(teacher.standardError)")
        let path = fixture.directory.appendingPathComponent("keys.sqlite").path
        try fixture.sql(
            "CREATE TABLE k (code TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID; INSERT INTO k VALUES ('b', 1), ('a', 2);",
            database: path
        )
        let withoutRowID = try fixture.run(["list", path, "--where", "id = 1"])
        #expect(withoutRowID.status == 64, "\(withoutRowID.standardError)")
        #expect(withoutRowID.standardError.contains("its columns: code, n"), "\(withoutRowID.standardError)")
        // A real column named id still works (student's INTEGER PRIMARY KEY).
        let student = try fixture.run(["list", fixture.school, "--table", "student", "--where", "id = 1"])
        #expect(student.status == 0 && student.standardOutput.contains("Ada"), "\(student.standardError)")
    }

    // MARK: 38.12: a table of 2,000 columns

    @Test func aTableOfTwoThousandColumnsIsRefusedInAFewWordsWithoutItsSQL() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("wide.sqlite").path
        let columns = (1...2000).map { "c\($0)" }.joined(separator: ", ")
        try fixture.sql("CREATE TABLE wide (\(columns)); INSERT INTO wide (c1) VALUES (1);", database: path)
        let result = try fixture.run(["list", path])
        // Before: exit 74 and 19 KB of error holding the whole SELECT.
        #expect(result.status == 65, "\(result.status)")
        #expect(!result.standardError.contains("SELECT"), "no SQL: \(result.standardError.prefix(300))")
        #expect(result.standardError.count < 300, "\(result.standardError.count) characters")
        #expect(result.standardError.contains("2000 columns"), "\(result.standardError)")
    }

    // MARK: 38.14, 38.15, 38.16: CSV files

    @Test func aCSVFileThatMixesEncodingsIsDecodedFieldByFieldAndSaysSo() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("names.csv").path
        // UTF-8 `café` and `naïve`, then one Windows-1252 byte (0xE9, é) on line 4.
        let bytes = Array("name\ncafé\nnaïve\nRen".utf8) + [0xE9] + Array("e\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        for run in ["load", "reuse"] {
            let result = try fixture.run(["list", path, "--format", "csv"])
            #expect(result.status == 0, "\(result.standardError)")
            // Before: the whole file as Windows-1252, `café` read as `cafÃ©`.
            #expect(
                Self.rows(result.standardOutput).map { $0.split(separator: ",", omittingEmptySubsequences: false)[2] }
                    == ["café", "naïve", "Renée"]
            )
            #expect(result.standardError.contains("names.csv mixes encodings"), "\(run): \(result.standardError)")
            #expect(result.standardError.contains("line 4"), "\(run): \(result.standardError)")
        }
    }

    @Test func missingValueTokensAreNullInAColumnOfNumbersOnRealFlights() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let flights = TableFixture.packageRoot.appendingPathComponent(
            "Tests/Fixtures/nycflights13_2013-01-09_and_big_delays.csv"
        ).path
        try #require(FileManager.default.fileExists(atPath: flights), "the nycflights13 fixture")
        // Before: dep_delay was text (NA among the numbers), and `> 1000` compared text: every row.
        let late = try fixture.run(["list", flights, "--where", "dep_delay > 1000", "--format", "json"])
        #expect(late.status == 0, "\(late.standardError)")
        let objects = try TableListOutputTests.objects(late.standardOutput)
        #expect(
            objects.compactMap { ($0["dep_delay"] as? NSNumber)?.intValue }.sorted() == [1005, 1014, 1126, 1137, 1301]
        )
        let missing = try fixture.run(["list", flights, "--where", "dep_delay == nil", "--format", "csv"])
        #expect(Self.rows(missing.standardOutput).count == 5, "the five cancelled flights: \(missing.standardOutput)")
        // --na changes the set; a column of text keeps its tokens as written.
        let csv = try fixture.write("n.csv", "n,label\n1,x\n-,NA\n3,y\n")
        let dashes = try fixture.run(["list", csv, "--na", "-", "--where", "n >= 1", "--format", "csv"])
        #expect(
            Self.rows(dashes.standardOutput) == [",1,1,x", ",3,3,y"],
            "\(dashes.standardOutput) \(dashes.standardError)"
        )
        let labels = try fixture.run(["list", csv, "--na", "-", "--where", "label == 'NA'", "--format", "csv"])
        #expect(Self.rows(labels.standardOutput) == [",2,,NA"], "\(labels.standardOutput)")
        let none = try fixture.run(["list", csv, "--na", "", "--where", "n == '-'", "--format", "csv"])
        #expect(Self.rows(none.standardOutput) == [",2,-,NA"], "no tokens: n is text: \(none.standardOutput)")
        let sqlite = try fixture.run(["list", fixture.school, "--table", "student", "--na", "NA"])
        #expect(sqlite.status == 64 && sqlite.standardError.contains("--na"), "\(sqlite.standardError)")
    }

    @Test func jsonAndJSONLinesOpenLikeACSVFileToldApartByTheirContent() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let lines = try fixture.write(
            "people.txt",
            "{\"Name\": \"Ada\", \"n\": 1, \"ok\": true}\n{\"Name\": \"Bo\", \"n\": 2, \"tags\": [1, 2]}\n"
        )
        // Before (issue 38): refused with 65, "not read (yet)".
        let jsonLines = try fixture.run(["list", lines, "--columns", "Name, n, ok, tags", "--format", "csv"])
        #expect(jsonLines.status == 0, "\(jsonLines.standardError)")
        #expect(
            Self.rows(jsonLines.standardOutput) == [",1,Ada,1,true,", ",2,Bo,2,,\"[1,2]\""],
            "\(jsonLines.standardOutput)"
        )
        let json = try fixture.write(
            "people.json",
            "[\n  {\"Name\": \"Ada\", \"n\": \"NA\"},\n  {\"Name\": \"Bo\", \"n\": 2}\n]\n"
        )
        let document = try fixture.run(["list", json, "--sort", "n", "--format", "csv"])
        #expect(Self.rows(document.standardOutput) == [",1,Ada,", ",2,Bo,2"], "NA is NULL: \(document.standardOutput)")
        let brackets = try fixture.write("brackets.csv", "[id],[name]\n1,Ada\n")
        #expect(try fixture.run(["list", brackets]).status == 0, "a CSV header in brackets is a CSV file")
    }

    @Test func aCSVFileWithAnIDColumnListsInFileOrderByDefault() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write("ids.csv", "id,name\n3,c\n1,a\n2,b\n")
        let result = try fixture.run(["list", csv, "--format", "csv"])
        // Before: sorted by the file's own id column (1, 2, 3): on 3.4 million rows, 0.9 s before
        // the first screen, the column not being indexed.
        #expect(Self.rows(result.standardOutput) == [",1,3,c", ",2,1,a", ",3,2,b"], "\(result.standardOutput)")
        let sorted = try fixture.run(["list", csv, "--sort", "id", "--format", "csv"])
        #expect(Self.rows(sorted.standardOutput) == [",2,1,a", ",3,2,b", ",1,3,c"], "\(sorted.standardOutput)")
    }

    @Test func badJSONNamesItsLineAndColumnWithExit65() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = try fixture.write("bad.jsonl", "{\"a\": 1}\n{\"a\": tru}\n")
        let result = try fixture.run(["list", path])
        #expect(result.status == 65)
        #expect(
            result.standardError.contains("bad.jsonl:2:7: invalid literal (expected true)"),
            "\(result.standardError)"
        )
    }

    // MARK: 38.19

    @Test func aLoopOfSymbolicLinksIsSaidToBeOne() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let a = fixture.directory.appendingPathComponent("a.csv").path
        let b = fixture.directory.appendingPathComponent("b.csv").path
        #expect(symlink(b, a) == 0 && symlink(a, b) == 0)
        let result = try fixture.run(["list", a])
        #expect(result.status == 66)
        // Before: "no such file".
        #expect(result.standardError.contains("loop of symbolic links"), "\(result.standardError)")
    }

    @Test func theSectionsOfNullAndOfEmptyTextAreToldApart() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("tags.sqlite").path
        try fixture.sql(
            "CREATE TABLE t (name TEXT, tag TEXT); INSERT INTO t VALUES ('a', NULL), ('b', ''), ('c', 'x');",
            database: path
        )
        let result = try fixture.run(["list", path, "--section", "tag"])
        #expect(result.status == 0, "\(result.standardError)")
        // Before: both "(none)".
        #expect(result.standardOutput.contains("(none) (1 row)"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("(empty) (1 row)"), "\(result.standardOutput)")
    }

    @Test func listTextEscapesRightToLeftOverridesAndLineSeparators() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("names.sqlite").path
        try fixture.sql(
            "CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('abc\u{202E}fed\u{2028}next');",
            database: path
        )
        let result = try fixture.run(["list", path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("abc\\u{202E}fed\\u{2028}next"), "\(result.standardOutput)")
        #expect(!result.standardOutput.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{2028}" })
    }

    @Test func aUTF16FileIsNamedSo() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("wide-chars.csv").path
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "name,n\nAda,1\n".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try fixture.run(["list", path])
        #expect(result.status == 65)
        // Before: "it holds binary data".
        #expect(result.standardError.contains("UTF-16"), "\(result.standardError)")
        #expect(result.standardError.contains("iconv"), "\(result.standardError)")
    }

    // MARK: 37.7: names from a file reach the terminal escaped

    @Test func namesFromTheFileAndOptionValuesReachStandardErrorEscaped() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("evil.sqlite").path
        try fixture.sql(
            "CREATE TABLE \"red\u{1B}[31mtable\" (\"col\u{7}umn\" TEXT); CREATE TABLE plain (a TEXT);",
            database: path
        )
        for arguments in [
            ["list", path],  // "its tables: …"
            ["list", path, "--table", "red\u{1B}[31mtable", "--sort", "x"],  // "its columns: …"
            ["list", path, "--table", "plain", "--sort", "\u{1B}]52;c;aGk=\u{7}"],  // an option's value
            ["list", fixture.directory.appendingPathComponent("no\u{1B}[2Jsuch.csv").path],  // a file name
        ] {
            let result = try fixture.run(arguments)
            #expect(result.status != 0)
            // Before: the ESC and BEL bytes themselves.
            #expect(!result.standardError.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" }, "\(arguments)")
            #expect(result.standardError.contains("\\u{1B}"), "\(arguments): \(result.standardError)")
        }
    }
}
