import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `fetchedtable FILE --query 'SELECT …'` through the built binary: `list --format json` prints
/// what `sqlite3 -json` prints for the same query; statements that are not one read-only SELECT
/// are refused with exit 64 naming why; `--param`, `@FILE` and `--key`; `watch` and the browser
/// follow another process's insert into a table the query reads.
@Suite(.serialized, .enabled(if: TableFixture.isAvailable, Comment(rawValue: TableFixture.unavailableReason ?? "")))
struct TableQueryTests {
    /// The rows of a `list --format json` output, in order, without the row's identity (`_rowid`).
    static func listed(_ output: String) throws -> [NSDictionary] {
        try TableListOutputTests.objects(output).map { object in
            var row = object
            row["_rowid"] = nil
            return row as NSDictionary
        }
    }

    /// The rows `sqlite3 -json` prints for `sql` over `path` (nothing at all for no rows).
    static func sqlite3JSON(_ sql: String, path: String) throws -> [NSDictionary] {
        let result = try ProcessRunner.run(try #require(TableFixture.sqlite3), ["-json", path, sql])
        #expect(result.status == 0, "\(result.standardError)")
        let text = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return [] }
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [NSDictionary])
    }

    /// Queries of the school (joins, aggregates, a CTE, NULLs, reals, text with quotes and accents),
    /// each ordered so that its order is total.
    static let queries = [
        "SELECT s.name, s.subject, t.name AS teacher FROM student s LEFT JOIN teacher t ON t.subject = s.subject "
            + "ORDER BY s.id",
        "SELECT subject, count(*) AS students, sum(number) AS total, avg(number) AS mean FROM student "
            + "GROUP BY subject ORDER BY students DESC, subject",
        "WITH ranked AS (SELECT name, number, row_number() OVER (PARTITION BY subject ORDER BY number, name) AS r "
            + "FROM student) SELECT * FROM ranked WHERE r = 1 ORDER BY name",
        "SELECT name, NULL AS missing, number * 1.5 AS half, 'it''s é' AS quoted FROM student ORDER BY id",
        "SELECT t.subject, group_concat(s.name, '/') AS names FROM teacher t JOIN student s USING (subject) "
            + "GROUP BY t.subject ORDER BY t.subject",
        "SELECT * FROM math ORDER BY name",
        "SELECT name FROM student WHERE number > 99",
    ]

    @Test(arguments: queries)
    func listAsJSONEqualsSqlite3sJSONForTheSameQuery(_ sql: String) throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let list = try fixture.run(["list", fixture.school, "--query", sql, "--format", "json"])
        #expect(list.status == 0, "\(list.standardError)")
        let ours = try Self.listed(list.standardOutput)
        let theirs = try Self.sqlite3JSON(sql, path: fixture.school)
        #expect(ours == theirs, "fetchedtable: \(list.standardOutput)")
        #expect(fixture.databaseFiles() == ["school.sqlite"], "listing a query writes nothing beside the file")
    }

    @Test(arguments: [
        ("DELETE FROM student", "not read-only: it would delete from student"),
        ("INSERT INTO teacher VALUES ('x', 'y', 'z')", "not read-only: it would insert into teacher"),
        ("CREATE TABLE x (a)", "not read-only: it would create a table"),
        ("SELECT 1; DELETE FROM student", "more than one statement: a query source is one SELECT (at character 11"),
        ("ATTACH 'other.sqlite' AS other", "ATTACH is refused"),
        ("PRAGMA query_only = 0", "PRAGMA query_only = … is refused"),
        ("BEGIN", "it returns no rows"),
        ("SELECT nmae FROM student", "no such column: nmae (at character 8 of the query)"),
        ("SELECT name FROM student WHERE id = ?", "the parameter ? has no name"),
        ("SELECT name FROM student WHERE id = :id", "no value for the parameter :id"),
    ])
    func statementsThatAreNotOneReadOnlySelectExitWith64NamingWhy(_ sql: String, _ why: String) throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        for command in [["list"], ["watch"], []] {
            let result = try fixture.run(command + [fixture.school, "--query", sql])
            #expect(result.status == 64, "\(command) \(sql): \(result.standardError)")
            #expect(result.standardError.contains(why), "\(command) \(sql): \(result.standardError)")
        }
        #expect(try fixture.sql("SELECT count(*) FROM student") == "8", "nothing was run")
    }

    @Test func optionsThatCannotGoWithAQueryAreRefused() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let table = try fixture.run(["list", fixture.school, "--query", "SELECT 1 AS one", "--table", "student"])
        #expect(table.status == 64 && table.standardError.contains("not with --table"), "\(table.standardError)")
        let param = try fixture.run(["list", fixture.school, "--param", "a=1"])
        #expect(param.status == 64 && param.standardError.contains("there is no --query"), "\(param.standardError)")
        let unknown = try fixture.run(["list", fixture.school, "--query", "SELECT 1 AS one", "--param", "a=1"])
        #expect(unknown.status == 64 && unknown.standardError.contains("no parameter :a"), "\(unknown.standardError)")
        let key = try fixture.run(["list", fixture.school, "--query", "SELECT 1 AS one", "--key", "two"])
        #expect(key.status == 64 && key.standardError.contains("--key: no column \"two\""), "\(key.standardError)")
        let sort = try fixture.run(["list", fixture.school, "--query", "SELECT 1 AS one", "--sort", "two"])
        #expect(
            sort.status == 64 && sort.standardError.contains("--sort: no column \"two\" in the query's result"),
            "not its result table's name: \(sort.standardError)"
        )
        let timeout = try fixture.run([
            "list", fixture.school, "--query", "SELECT 1 AS one", "--statement-timeout", "5",
        ])
        #expect(
            timeout.status == 64 && timeout.standardError.contains("a file's does not"),
            "a server's query has a timeout: \(timeout.standardError)"
        )
        let missing = try fixture.run(["list", fixture.school, "--query", "@nowhere.sql"])
        #expect(missing.status == 66, "\(missing.standardError)")
    }

    @Test func parametersAreBoundByNameAndTheQueryCanComeFromAFile() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let file = try fixture.write(
            "by-subject.sql",
            "-- students of one subject from a number on\nSELECT name FROM student\n"
                + "WHERE subject = :subject AND number >= :least ORDER BY name;\n"
        )
        let result = try fixture.run([
            "list", fixture.school, "--query", "@" + file, "--param", "subject=Math", "--param", ":least=2",
            "--format", "json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Self.listed(result.standardOutput).map { $0["name"] as? String } == ["Ada", "Farah"])
    }

    @Test func aParameterWithLeadingZerosIsBoundAsTheTextItIs() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let result = try fixture.run([
            "list", fixture.school, "--query",
            "SELECT typeof(:zip) AS zip, :zip = '007' AS matches, typeof(:n) AS n, typeof(:r) AS r",
            "--param", "zip=007", "--param", "n=42", "--param", "r=2.5", "--format", "json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let row = try #require(try Self.listed(result.standardOutput).first)
        #expect(row["zip"] as? String == "text", "a code, not the integer 7: \(result.standardOutput)")
        #expect(row["matches"] as? Int == 1, "\(result.standardOutput)")
        #expect(row["n"] as? String == "integer" && row["r"] as? String == "real", "\(result.standardOutput)")
    }

    @Test func aKeyTwoRowsShareExitsWith65NamingTheDuplicate() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let result = try fixture.run([
            "list", fixture.school, "--query", "SELECT subject, name FROM student ORDER BY name", "--key", "subject",
        ])
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.contains("--key subject is not unique: two rows have subject = 'Math'"))
    }

    @Test func watchOfAQueryPrintsTheBatchOfAnInsertIntoATableItReads() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let watch = try TableLiveTests.Watch(
            fixture,
            [
                fixture.school, "--query",
                "SELECT subject, count(*) AS students FROM student GROUP BY subject ORDER BY subject",
                "--key", "subject",
            ]
        )
        let snapshot = try watch.waitForLines(1)[0]
        #expect(snapshot == #"{"type":"snapshot","sections":[{"name":"","ids":[1,2,3,4]}]}"#)
        // Another table: nothing; then a student of a new subject: one row inserted, in the query's order.
        try fixture.sql("INSERT INTO teacher VALUES ('Mx Lee', 'Chemistry', '2024-01-01')")
        try fixture.sql("INSERT INTO student (name, subject, number) VALUES ('Ivo', 'Chemistry', 1)")
        let batch = try watch.waitForLines(2)[1]
        #expect(
            batch == #"{"type":"batch","sections":[],"objects":[{"change":"insert","id":5,"to":[0,2]}],"counts":[5]}"#
        )
        // A student more in Art: the Art row is updated in place (its key kept), not deleted and inserted.
        try fixture.sql("INSERT INTO student (name, subject, number) VALUES ('Jo', 'Art', 1)")
        let update = try watch.waitForLines(3)[2]
        #expect(
            update
                == #"{"type":"batch","sections":[],"objects":[{"change":"update","id":1,"from":[0,0],"to":[0,0]}],"counts":[5]}"#
        )
        #expect(watch.stop() == 0)
        #expect(fixture.databaseFiles() == ["school.sqlite"])
    }
}

/// `--query` over a CSV or JSON Lines file: it reads the file's cache, whose one table is named
/// after the file as the `:` line names it; rows appended to the file reach the query (`watch`).
@Suite(.enabled(if: TableFixture.isAvailable, Comment(rawValue: TableFixture.unavailableReason ?? "")))
struct TableQueryOverCachedFileTests {
    @Test func listOfAQueryOverACSVOrJSONLinesFileReadsItsCachesTableNamedAfterTheFile() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write("pets.csv", "name,kind,age\nRex,dog,3\nTom,cat,5\nBo,dog,7\n")
        let list = try fixture.run([
            "list", csv, "--query", "SELECT kind, count(*) AS n, sum(age) AS total FROM pets GROUP BY kind",
            "--format", "json",
        ])
        #expect(list.status == 0, "\(list.standardError)")
        let rows = try TableQueryTests.listed(list.standardOutput)
        #expect(
            rows == [["kind": "cat", "n": 1, "total": 5], ["kind": "dog", "n": 2, "total": 10]] as [NSDictionary],
            "\(list.standardOutput)"
        )
        let jsonl = try fixture.write("events.jsonl", "{\"a\": 1, \"b\": \"x\"}\n{\"a\": 2, \"b\": \"y\"}\n")
        let json = try fixture.run([
            "list", jsonl, "--query", "SELECT b FROM events WHERE a >= :least", "--param", "least=2", "--format",
            "json",
        ])
        #expect(json.status == 0, "\(json.standardError)")
        #expect(try TableQueryTests.listed(json.standardOutput) == [["b": "y"]] as [NSDictionary])
    }

    @Test func watchOfAQueryOverACSVFilePrintsABatchWhenRowsAreAppendedToTheFile() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write("pets.csv", "name,kind,age\nRex,dog,3\nTom,cat,5\n")
        let watch = try TableLiveTests.Watch(
            fixture,
            [csv, "--query", "SELECT name, age FROM pets WHERE kind = 'dog'", "--key", "name"]
        )
        let snapshot = try watch.waitForLines(1)[0]
        #expect(snapshot == #"{"type":"snapshot","sections":[{"name":"","ids":[1]}]}"#)
        try TableFollowTests.append("Bo,dog,7\n", to: csv)
        let batch = try watch.waitForLines(2)[1]
        #expect(batch.contains(#""change":"insert""#), "the appended dog: \(batch)")
        #expect(watch.stop() == 0)
    }
}

/// The browser over a query in a real terminal (tmux): a join with an aggregate, sectioned,
/// changes on screen when another process inserts into a table it reads — without a key.
@Suite(
    .serialized,
    .enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? ""))
)
struct TableQueryEndToEndTests {
    @Test func aSectionedJoinWithAnAggregateChangesOnScreenWhenAnotherProcessInserts() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let query = """
            SELECT s.subject, t.name AS teacher, count(*) AS students, sum(s.number) AS total
            FROM student s JOIN teacher t ON t.subject = s.subject
            GROUP BY s.subject, t.name ORDER BY s.subject
            """
        let tmux = try fixture.launch(
            [fixture.school, "--query", query, "--key", "subject, teacher", "--section", "subject"],
            width: 90,
            height: 16
        )
        defer { tmux.close() }
        let first = try tmux.waitUntil("the query's rows", timeout: 10) { $0.contains("Ms Ito") && $0.contains("1/2") }
        #expect(first.contains("Art (1)") && first.contains("Math (1)"), "\(first)")
        let math = try #require(first.screenLines.first { $0.contains("Ms Ito") })
        #expect(math.contains(" 3 ") && math.contains(" 6"), "Math: 3 students, 6 in all:\n\(first)")
        // Another process: a student of Math (the query's row changes), a teacher of History (a new row).
        try fixture.sql(
            """
            INSERT INTO student (name, subject, number) VALUES ('Ivo', 'Math', 4);
            INSERT INTO teacher VALUES ('Mr Eze', 'History', '2020-02-02');
            """
        )
        let after = try tmux.waitUntil("the re-run's rows, without a key", timeout: 20) {
            $0.contains("Mr Eze") && $0.contains("History (1)")
        }
        let mathAfter = try #require(after.screenLines.first { $0.contains("Ms Ito") })
        #expect(mathAfter.contains(" 4 ") && mathAfter.contains(" 10"), "Math: 4 students, 10 in all:\n\(after)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }
}

/// The browser's `:` line in a real terminal (tmux): a join with an aggregate run as a new tab
/// that changes on screen when another process inserts, without a key; a slow query's first
/// run cancelled with Esc — at launch (`--query`: exit 130) and from the line (the line kept).
@Suite(
    .serialized,
    .enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? ""))
)
struct TableQueryLineEndToEndTests {
    static let slow =
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) FROM c"

    @Test func theQueryLineRunsAJoinWithAnAggregateAsATabThatChangesWhenAnotherProcessInserts() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let tmux = try fixture.launch([fixture.school], width: 100, height: 16)
        defer { tmux.close() }
        _ = try tmux.waitUntil("the table list", timeout: 10) { $0.contains("teacher") }
        tmux.type(":")
        tmux.type(
            "SELECT s.subject, t.name AS teacher, count(*) AS students, sum(s.number) AS total "
                + "FROM student s JOIN teacher t ON t.subject = s.subject GROUP BY s.subject, t.name"
        )
        tmux.press("Enter")
        let first = try tmux.waitUntil("the query's tab", timeout: 40) {
            $0.contains(":1 SELECT s.subject") && $0.contains("Ms Ito")
        }
        let math = try #require(first.screenLines.first { $0.contains("Ms Ito") })
        #expect(math.contains(" 3 ") && math.contains(" 6"), "Math: 3 students, 6 in all:\n\(first)")
        try fixture.sql("INSERT INTO student (name, subject, number) VALUES ('Ivo', 'Math', 4);")
        let after = try tmux.waitUntil("the re-run's rows, without a key", timeout: 20) { screen in
            screen.screenLines.contains { $0.contains("Ms Ito") && $0.contains(" 4 ") && $0.contains(" 10") }
        }
        #expect(after.contains("after a change to student"), "\(after)")
        tmux.press("Escape")
        _ = try tmux.waitUntil("the table list with the query's tab", timeout: 10) {
            $0.contains("teacher") && $0.contains(":1 SELECT s.subject")
        }
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
        let history = try String(
            contentsOfFile: fixture.directory.appendingPathComponent(".local/state/fetchedtable/query-history").path,
            encoding: .utf8
        )
        #expect(history.hasPrefix("\"SELECT s.subject, t.name AS teacher"), "\(history)")
    }

    @Test func aQueryTabRunOverATableOpenedWithTableIsReachedAgainFromTheTableListEscFromTheTableShows() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let tmux = try fixture.launch([fixture.school, "--table", "student"], width: 100, height: 16)
        defer { tmux.close() }
        _ = try tmux.waitUntil("the table", timeout: 10) { $0.contains("student — school.sqlite") }
        // Back from the table: the file's table list, as without --table — the tables, then the query.
        try expectAQueryTabFromATableIsListedAfterTheTables(
            tmux,
            tab: QueryTab(
                sql: "SELECT name AS who, subject FROM teacher",
                title: ":1 SELECT name AS who",
                row: "Ms Ito",
                listed: "query · 2 rows"
            ),
            table: ["student — school.sqlite"],
            tables: ["teacher", "student"]
        )
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func aBrowserOfAQueryListsTheFilesTablesAndEveryQueryTabTheLaunchQueryFirstEscFromItShows() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let launch = QueryTab(
            sql: "SELECT name AS who, subject FROM teacher",
            title: "SELECT name AS who",
            row: "Ms Ito",
            listed: "query · 2 rows"
        )
        let tmux = try fixture.launch([fixture.school, "--query", launch.sql], width: 100, height: 16)
        defer { tmux.close() }
        _ = try tmux.waitUntil("the query's rows", timeout: 10) { $0.contains("Ms Ito") && $0.contains("Mr Obi") }
        try expectTheLaunchQueryAndTheLinesTabAreListedAfterTheTables(
            tmux,
            launch: launch,
            line: QueryTab(
                sql: "SELECT name AS pupil FROM student WHERE subject = 'Math'",
                title: ":1 SELECT name AS pupil",
                row: "Farah",
                listed: "query · 3 rows"
            ),
            tables: ["teacher", "student"],
            firstTable: ["— school.sqlite"]
        )
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func aQueryTabOfACSVFileIsReachedAgainFromTheTableListEscFromTheFilesTableShows() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = try fixture.write("pets.csv", "name,kind,age\nRex,dog,3\nTom,cat,5\nBo,dog,1\n")
        let tmux = try fixture.launch([path], width: 100, height: 16)
        defer { tmux.close() }
        _ = try tmux.waitUntil("the file's rows", timeout: 20) { $0.contains("Rex") && $0.contains("3 rows") }
        // Back from the file's table: its cache's table, then the query.
        let list = try expectAQueryTabFromATableIsListedAfterTheTables(
            tmux,
            tab: QueryTab(
                sql: "SELECT kind, count(*) AS n FROM pets GROUP BY kind",
                title: ":1 SELECT kind",
                row: "dog",
                listed: "query · 2 rows"
            ),
            table: ["Rex"],
            tableRow: "Rex",
            tables: ["pets"]
        )
        #expect(list.screenLines.contains { $0.contains("pets") && $0.contains("3 rows") }, "\(list)")
        tmux.press("Home")
        tmux.press("Enter")
        _ = try tmux.waitUntil("the file's rows again", timeout: 10) { $0.contains("Rex") && !$0.contains("query ·") }
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func aQueryOverACSVFileIsBrowsedAndChangesOnScreenWhenRowsAreAppendedToTheFile() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = try fixture.write("pets.csv", "name,kind,age\nRex,dog,3\nTom,cat,5\nBo,dog,1\n")
        let tmux = try fixture.launch(
            [path, "--query", "SELECT kind, count(*) AS n, sum(age) AS total FROM pets GROUP BY kind"],
            width: 100,
            height: 16
        )
        defer { tmux.close() }
        let first = try tmux.waitUntil("the query's rows", timeout: 20) { $0.contains("dog") && $0.contains("cat") }
        let cat = try #require(first.screenLines.first { $0.contains("cat") })
        #expect(cat.contains(" 1 ") && cat.contains(" 5"), "one cat, 5 years:\n\(first)")
        try TableFollowTests.append("Ivo,cat,2\n", to: path)
        _ = try tmux.waitUntil("the appended cat counted", timeout: 20) { screen in
            screen.screenLines.contains { $0.contains("cat") && $0.contains(" 2 ") && $0.contains(" 7") }
        }
        tmux.send("d")
        _ = try tmux.waitUntil("d refused: the rows are a query's of the cache", timeout: 10) {
            $0.contains("disabled")
        }
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func aSlowQueryAtLaunchShowsItsProgressAndEscCancelsItWithStatus130() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let tmux = try fixture.launch([fixture.school, "--query", Self.slow], width: 90, height: 16)
        defer { tmux.close() }
        try expectEscCancelsTheQueryAtLaunch(tmux, exitStatus: { fixture.exitStatus() }, directory: fixture.directory)
        #expect(fixture.databaseFiles() == ["school.sqlite"], "nothing left beside the file")
    }

    @Test func aLineQueryNamingAParameterIsGivenTheLaunchsParamValueWithoutOneTheLineSaysWhichOptionGivesIt()
        throws
    {
        let sql = "SELECT name, number FROM student WHERE number >= :least ORDER BY name"
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let tmux = try fixture.launch([fixture.school, "--param", "least=2"], width: 100, height: 16)
        defer { tmux.close() }
        _ = try tmux.waitUntil("the table list", timeout: 10) { $0.contains("teacher") }
        tmux.type(":")
        tmux.type(sql)
        tmux.press("Enter")
        let rows = try tmux.waitUntil("the query's tab", timeout: 40) {
            $0.contains(":1 SELECT name") && $0.contains("Farah")
        }
        for name in ["Ada", "Dana", "Emil", "Farah"] { #expect(rows.contains(name), "number >= 2:\n\(rows)") }
        for name in ["Brook", "Cyril", "Gus", "Hana"] { #expect(!rows.contains(name), "number < 2:\n\(rows)") }
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)

        let without = try fixture.launch([fixture.school], width: 120, height: 16)
        defer { without.close() }
        _ = try without.waitUntil("the table list", timeout: 10) { $0.contains("teacher") }
        without.type(":")
        without.type(sql)
        without.press("Enter")
        _ = try without.waitUntil("the line, saying which option gives the value", timeout: 20) {
            $0.contains("no value for the parameter :least (launch with --param least=VALUE)")
        }
        without.press("Escape")
        without.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func aSlowQueryFromTheLineIsCancelledWithEscAndTheLineKept() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let tmux = try fixture.launch([fixture.school], width: 140, height: 16)
        defer { tmux.close() }
        _ = try tmux.waitUntil("the table list", timeout: 10) { $0.contains("teacher") }
        tmux.type(":")
        tmux.type(Self.slow)
        tmux.press("Enter")
        _ = try tmux.waitUntil("the query's progress", timeout: 20) { $0.contains("Running…") }
        tmux.press("Escape")
        let back = try tmux.waitUntil("the line, cancelled", timeout: 20) {
            $0.contains("cancelled") && $0.contains("teacher")
        }
        #expect(back.contains("WITH RECURSIVE") || back.contains("count(*) FROM c"), "\(back)")
        tmux.press("Escape")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }
}
