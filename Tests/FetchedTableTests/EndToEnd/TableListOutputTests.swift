import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `fetchedtable list --format json|csv` through the built binary: every column under its own
/// name beside the row's identity (`_rowid`), booleans as a script reads them, CSV fields as
/// their bytes say.
@Suite(.enabled(if: TableFixture.isAvailable, Comment(rawValue: TableFixture.unavailableReason ?? "")))
struct TableListOutputTests {
    /// The objects of a `list --format json` output, in order.
    static func objects(_ output: String) throws -> [[String: Any]] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let sections = try #require(json["sections"] as? [[String: Any]])
        return sections.flatMap { ($0["objects"] as? [[String: Any]]) ?? [] }
    }

    @Test func aCSVColumnNamedIdKeepsItsValuesBesideTheRowID() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write("ids.csv", "id,name\n100,alpha\n7,beta\n")
        let json = try fixture.run(["list", csv, "--format", "json"])
        #expect(json.status == 0, "\(json.standardError)")
        // In the file's order (the default sort is the row id, not the file's own id column), each row whole.
        let objects = try TableListOutputTests.objects(json.standardOutput)
        #expect(objects.map { ($0["id"] as? NSNumber)?.intValue } == [100, 7], "\(json.standardOutput)")
        #expect(objects.map { ($0["_rowid"] as? NSNumber)?.intValue } == [1, 2])
        #expect(objects.map { $0["name"] as? String } == ["alpha", "beta"])
        let table = try fixture.run(["list", csv, "--sort", "id", "--format", "csv"])
        #expect(table.standardOutput == "section,_rowid,id,name\n,2,7,beta\n,1,100,alpha\n", "\(table.standardOutput)")
    }

    @Test func anIntegerPrimaryKeyAndATextColumnNamedIdAreTwoKeys() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("alias.sqlite").path
        try fixture.sql(
            "CREATE TABLE t (rowid_alias INTEGER PRIMARY KEY, id TEXT); INSERT INTO t VALUES (5, 'x-1'), (9, 'x-2');",
            database: path
        )
        let json = try fixture.run(["list", path, "--format", "json"])
        #expect(json.status == 0, "\(json.standardError)")
        #expect(!json.standardOutput.contains("\"id\":5"), "the row id is not under the column's name")
        #expect(json.standardOutput.components(separatedBy: "\"id\":").count == 3, "one id key per object")
        let objects = try TableListOutputTests.objects(json.standardOutput)
        #expect(objects.map { $0["id"] as? String } == ["x-1", "x-2"])
        #expect(objects.map { ($0["rowid_alias"] as? NSNumber)?.intValue } == [5, 9])
        #expect(objects.map { ($0["_rowid"] as? NSNumber)?.intValue } == [5, 9])
    }

    @Test func aColumnNamedLikeTheIdentityPushesTheIdentityKeyAside() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write("under.csv", "_rowid,name\n42,alpha\n")
        let json = try fixture.run(["list", csv, "--format", "json"])
        #expect(json.status == 0, "\(json.standardError)")
        let objects = try TableListOutputTests.objects(json.standardOutput)
        #expect((objects.first?["_rowid"] as? NSNumber)?.intValue == 42)
        #expect((objects.first?["__rowid"] as? NSNumber)?.intValue == 1)
        let table = try fixture.run(["list", csv, "--format", "csv"])
        #expect(table.standardOutput.hasPrefix("section,__rowid,_rowid,name\n"), "\(table.standardOutput)")
    }

    @Test func booleansAreTrueAndFalseForScriptsAndYesAndNoForPeople() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("mail.sqlite").path
        try fixture.sql(
            "CREATE TABLE mail (subject TEXT, read BOOLEAN); INSERT INTO mail VALUES ('hello', 0), ('news', 1), ('odd', NULL);",
            database: path
        )
        let json = try fixture.run(["list", path, "--format", "json"])
        #expect(json.status == 0, "\(json.standardError)")
        #expect(json.standardOutput.contains("\"read\":false"), "\(json.standardOutput)")
        #expect(json.standardOutput.contains("\"read\":true"))
        #expect(json.standardOutput.contains("\"read\":null"))
        let objects = try TableListOutputTests.objects(json.standardOutput)
        #expect(objects.map { $0["read"] as? Bool } == [false, true, nil])
        let table = try fixture.run(["list", path, "--format", "csv"])
        #expect(table.standardOutput == "section,_rowid,subject,read\n,1,hello,false\n,2,news,true\n,3,odd,\n")
        let text = try fixture.run(["list", path, "--title", "subject", "--subtitle", "read"])
        #expect(text.standardOutput.contains("  hello, no\n  news, yes\n"), "\(text.standardOutput)")
    }

    @Test func aCRLFInsideAQuotedFieldComesBackAsCRLF() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write("story.csv", "a,b,c\r\n1,2,3\r\n\"Once upon \r\na time\",5,6\r\n7,8,9\r\n")
        let json = try fixture.run(["list", csv, "--format", "json"])
        #expect(json.status == 0, "\(json.standardError)")
        #expect(json.standardOutput.contains("\"a\":\"Once upon \\r\\na time\""), "\(json.standardOutput)")
        let table = try fixture.run(["list", csv, "--format", "csv"])
        #expect(table.standardOutput.contains(",\"Once upon \r\na time\",5,6\n"), "quoted, its CRLF kept")
    }

    @Test func aCSVColumnOfDecimalsListsItsNumbersAsWritten() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write("prices.csv", "item,price\nbolt,3\nnut,1.10\nwasher,2.5\nspring,1e3\n")
        let json = try fixture.run(["list", csv, "--sort", "price", "--format", "json"])
        #expect(json.status == 0, "\(json.standardError)")
        #expect(
            json.standardOutput.contains(
                #""price":1.10},{"_rowid":3,"item":"washer","price":2.5},{"_rowid":1,"item":"bolt","price":3},"#
                    + #"{"_rowid":4,"item":"spring","price":1e3}"#
            ),
            "sorted as numbers, written as the file wrote them: \(json.standardOutput)"
        )
        let table = try fixture.run(["list", csv, "--sort", "price", "--format", "csv"])
        #expect(
            table.standardOutput == "section,_rowid,item,price\n,2,nut,1.10\n,3,washer,2.5\n,1,bolt,3\n,4,spring,1e3\n"
        )
        let text = try fixture.run(["list", csv, "--title", "item", "--subtitle", "price"])
        #expect(text.standardOutput.contains("  bolt, 3\n  nut, 1.10\n"), "\(text.standardOutput)")
        let filtered = try fixture.run(["list", csv, "--where", "price > 2.9", "--format", "csv"])
        #expect(filtered.standardOutput == "section,_rowid,item,price\n,1,bolt,3\n,4,spring,1e3\n")
    }

    @Test func valuesThatAreNotDatesAreOneSectionAfterTheDates() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write(
            "mixed.csv",
            "d,name\n2024-03-01,a\ngarbage,b\n2023-12-31,c\n20240101,d\n2024-07-04,e\n"
        )
        let json = try fixture.run(["list", csv, "--sort", "d desc", "--section", "year(d)", "--format", "json"])
        #expect(json.status == 0, "\(json.standardError)")
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        )
        let sections = try #require(root["sections"] as? [[String: Any]])
        #expect(
            sections.compactMap { $0["name"] as? String } == ["2024", "2023", "(not a date)"],
            "\(json.standardOutput)"
        )
        let names = (sections.last?["objects"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names.map { Set($0) } == ["b", "d"])
        let path = fixture.directory.appendingPathComponent("days.sqlite").path
        try fixture.sql("CREATE TABLE t (d); INSERT INTO t VALUES (20240101), ('2024-05-06');", database: path)
        let month = try fixture.run(["list", path, "--sort", "d desc", "--section", "month(d)"])
        #expect(month.standardOutput.hasPrefix("2024-05 (1 row)\n"), "\(month.standardOutput)")
        #expect(month.standardOutput.contains("(not a date) (1 row)\n"), "not \"2024010\": \(month.standardOutput)")
    }

    @Test func valuesThatAreNotDatesAreTheLastSectionAscendingAndDescending() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write(
            "mixed.csv",
            "d,name\n2024-03-01,a\ngarbage,b\n2023-12-31,c\n20240101,d\n2024-07-04,e\n(paren),f\n,g\n"
        )
        for (sort, years) in [("d", ["", "2023", "2024"]), ("d desc", ["2024", "2023", ""])] {
            let json = try fixture.run(["list", csv, "--sort", sort, "--section", "year(d)", "--format", "json"])
            #expect(json.status == 0, "\(json.standardError)")
            let root = try #require(
                try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
            )
            let sections = try #require(root["sections"] as? [[String: Any]])
            #expect(
                sections.compactMap { $0["name"] as? String } == years + ["(not a date)"],
                "--sort \(sort): \(json.standardOutput)"
            )
            #expect(sections.last?["indexTitle"] as? String == "?", "--sort \(sort): \(json.standardOutput)")
            let names = (sections.last?["objects"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names.map { Set($0) } == ["b", "d", "f"], "--sort \(sort)")
        }
        let path = fixture.directory.appendingPathComponent("days.sqlite").path
        try fixture.sql(
            "CREATE TABLE t (d, n); INSERT INTO t VALUES (20240101, 'x'), ('2024-05-06', 'y'), ('2023-01-02', 'z'),"
                + " ('soon', 'w');",
            database: path
        )
        let ascending = try fixture.run(["list", path, "--sort", "d", "--section", "month(d)", "--title", "n"])
        #expect(ascending.status == 0, "\(ascending.standardError)")
        #expect(
            ascending.standardOutput.hasPrefix(
                "2023-01 (1 row)\n  z, 2023-01-02\n2024-05 (1 row)\n  y, 2024-05-06\n(not a date) (2 rows)\n"
            ),
            "\(ascending.standardOutput)"
        )
        let descending = try fixture.run(["list", path, "--sort", "d desc", "--section", "month(d)", "--title", "n"])
        #expect(
            descending.standardOutput.hasPrefix(
                "2024-05 (1 row)\n  y, 2024-05-06\n2023-01 (1 row)\n  z, 2023-01-02\n(not a date) (2 rows)\n"
            ),
            "\(descending.standardOutput)"
        )
    }

    @Test func aFileReplacedByAnotherOfTheSameSizeAndTimeIsListedAnew() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write("events.csv", "id,name\n1,alpha\n")
        let first = try fixture.run(["list", csv, "--format", "csv"])
        #expect(first.standardOutput == "section,_rowid,id,name\n,1,1,alpha\n", "\(first.standardError)")
        var info = stat()
        stat(csv, &info)
        // `mv other events.csv` of a file with the same size, its times set as `touch -r` does.
        let other = try fixture.write("other.csv", "id,name\n2,gamma\n")
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, other, &times, 0) == 0)
        #expect(rename(other, csv) == 0)
        let second = try fixture.run(["list", csv, "--format", "csv"])
        #expect(second.standardOutput == "section,_rowid,id,name\n,1,2,gamma\n", "the new file's rows, not the cache's")
    }
}
