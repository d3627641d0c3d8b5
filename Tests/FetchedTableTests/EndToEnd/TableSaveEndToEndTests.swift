import Foundation
import TestSupport
import Testing

/// Saving the view in a real terminal (tmux): a JSON Lines file opened with no option,
/// filtered, saved with Ctrl-S as the rows shown; saved again over the same name only
/// when the person says so.
@Suite(
    .serialized,
    .enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? ""))
)
struct TableSaveEndToEndTests {
    @Test func ctrlSSavesTheFilteredRowsOfAJSONFileAndAsksBeforeReplacing() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let lines = try fixture.write(
            "people.jsonl",
            """
            {"name": "Ada", "n": 1, "tags": ["a"]}
            {"name": "Bo", "n": 2, "tags": null}
            {"name": "Cy, Jr.", "n": 3, "tags": ["b", "c"]}

            """
        )
        // The cache built first: the browser opens on it directly, without the loading screen
        // (which takes only the keys that move its selection).
        #expect(try fixture.run(["list", lines]).status == 0)
        let tmux = try fixture.launch([lines], width: 100, height: 14)
        defer { tmux.close() }
        _ = try tmux.waitUntil("the grid") { $0.contains("Cy, Jr.") && $0.contains("3 rows") }
        tmux.type("\\")
        tmux.type("n >= 2")
        tmux.press("Enter")
        _ = try tmux.waitUntil("the filter") { !$0.contains("Ada") && $0.contains("Cy, Jr.") }
        tmux.press("C-s")
        _ = try tmux.waitFor("Save as:", timeout: 10)
        tmux.type("out.csv")
        tmux.press("Enter")
        _ = try tmux.waitFor("Saved 2 rows to out.csv", timeout: 20)
        let out = fixture.directory.appendingPathComponent("out.csv").path
        let saved = try String(contentsOfFile: out, encoding: .utf8)
        #expect(
            saved == "name,n,tags\r\nBo,2,\r\n\"Cy, Jr.\",3,\"[\"\"b\"\",\"\"c\"\"]\"\r\n",
            "the rows shown, their columns in order, RFC 4180: \(saved)"
        )
        // The same name again: asked, Cancel highlighted; Enter keeps the file as it was.
        tmux.press("C-s")
        _ = try tmux.waitFor("Save as: out.csv", timeout: 10)
        tmux.press("Enter")
        _ = try tmux.waitFor("out.csv exists. Replace it?", timeout: 10)
        tmux.press("Enter")
        _ = try tmux.waitFor("Not saved: out.csv is as it was", timeout: 10)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == saved)
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func ctrlSOfAQueryTabIntoASQLiteFileOffersATableNamedAfterTheQueryAndRefusesATakenOrBadName() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let out = fixture.directory.appendingPathComponent("out.sqlite").path
        try fixture.sql("CREATE TABLE teacher_query (x); INSERT INTO teacher_query VALUES (1);", database: out)
        let tmux = try fixture.launch([fixture.school], width: 120, height: 16)
        defer { tmux.close() }
        _ = try tmux.waitUntil("the table list", timeout: 10) { $0.contains("teacher") }
        tmux.type(":")
        tmux.type("SELECT name, subject FROM teacher")
        tmux.press("Enter")
        _ = try tmux.waitUntil("the query's tab", timeout: 40) {
            $0.contains(":1 SELECT name, subject") && $0.contains("Ms Ito")
        }
        tmux.press("C-s")
        _ = try tmux.waitFor("Save as:", timeout: 10)
        tmux.type("out.sqlite")
        tmux.press("Enter")
        // The one table the query reads, and _query: taken in out.sqlite, so _2 is offered.
        _ = try tmux.waitFor("Table in out.sqlite: teacher_query_2", timeout: 10)
        tmux.press("C-u")
        tmux.type("teacher_query")
        tmux.press("Enter")
        _ = try tmux.waitFor("out.sqlite has a table teacher_query already: give another name", timeout: 10)
        tmux.press("C-u")
        tmux.type("2nd-try")
        tmux.press("Enter")
        _ = try tmux.waitFor("2nd-try is not a table name", timeout: 10)
        tmux.press("C-u")
        tmux.type("staff")
        tmux.press("Enter")
        _ = try tmux.waitFor("Saved 2 rows to staff in out.sqlite", timeout: 20)
        #expect(
            try fixture.sql("SELECT name, subject FROM staff ORDER BY name;", database: out)
                == "Mr Obi|Art\nMs Ito|Math"
        )
        #expect(try fixture.sql("SELECT count(*) FROM teacher_query;", database: out) == "1", "left as it was")
        let tables = try fixture.sql(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name;",
            database: out
        )
        #expect(tables == "staff\nteacher_query", "no query_result: \(tables)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }
}
