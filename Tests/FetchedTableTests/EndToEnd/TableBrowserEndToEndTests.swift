import Foundation
import TestSupport
import Testing

/// The browser in a real terminal: tmux panes driven by keys, screens read back with
/// `capture-pane`, the database made and checked with the `sqlite3` shell (no triggers,
/// rollback journal, several tables). Serialized: the machine's two cores are shared.
@Suite(
    .serialized,
    .enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? ""))
)
struct TableBrowserEndToEndTests {
    static let students = [
        "--table", "student", "--sort", "subject, number", "--section", "subject",
        "--title", "name", "--subtitle", "number",
    ]

    /// The index of the first line containing `text`, after line `after`.
    private func line(_ text: String, in screen: String, after: Int = -1) -> Int? {
        screen.screenLines.indices.first { $0 > after && screen.screenLines[$0].contains(text) }
    }

    @Test func studentsShowSectionsWithCountsInOrderAndTheIndexOnTheRight() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let tmux = try fixture.launch([fixture.school] + TableBrowserEndToEndTests.students)
        defer { tmux.close() }
        // Both: a provisional first page may show the headers before the position.
        let screen = try tmux.waitUntil("the loaded list", timeout: 10) { $0.contains("Art (2)") && $0.contains("1/8") }
        // Sections in the order of the sort, each with its count; rows ordered by number within them.
        let art = try #require(line("Art (2)", in: screen))
        let brook = try #require(line("Brook", in: screen, after: art))
        let emil = try #require(line("Emil", in: screen, after: brook))
        let biology = try #require(line("Biology (1)", in: screen, after: emil))
        let history = try #require(line("History (2)", in: screen, after: biology))
        #expect(line("Gus", in: screen, after: history) != nil)
        #expect(screen.screenLines[brook + 1].contains("1"), "the subtitle (number) under the title:\n\(screen)")
        #expect(screen.contains("1/8"))
        // The index sidebar on the right edge: short names whole, long ones by their initial.
        let rightEdge = screen.screenLines.map { String($0.suffix(6)) }
        #expect(rightEdge.contains { $0.contains("Art") }, "Art in the index:\n\(screen)")
        #expect(rightEdge.contains { $0.contains("Math") }, "Math in the index:\n\(screen)")
        // f then a title jumps to its section: History's first row is the 4th (the only H: no Enter needed).
        tmux.send("f")
        tmux.type("H")
        try tmux.waitFor("4/8")
        // } goes to the next section (Math), { back.
        tmux.send("}")
        try tmux.waitFor("6/8")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func severalTablesShowTheTableListWithRowCountsEnterOpensEscReturnsCountedAgain() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let tmux = try fixture.launch([fixture.school])
        defer { tmux.close() }
        let list = try tmux.waitFor("teacher", timeout: 10)
        #expect(list.contains("8 rows"), "\(list)")
        #expect(list.contains("2 rows"), "\(list)")
        #expect(list.contains("view · 3 rows"), "\(list)")
        let math = try #require(line("math", in: list))
        let student = try #require(line("student", in: list, after: math))
        #expect(line("teacher", in: list, after: student) != nil)
        tmux.send("Down")
        tmux.send("Enter")
        // The student table, by id: the grid of its columns, the file and the count in the title bar.
        let table = try tmux.waitUntil("the student table") {
            $0.contains("id  name   subject  number") && $0.contains("1/8")
        }
        #expect(table.contains("  1  Ada    Math          3"), "\(table)")
        #expect(table.contains("student — school.sqlite"), "\(table)")
        // Ada (Math) deleted: back in the list, the table and the view over it count one fewer.
        tmux.send("d")
        try tmux.waitFor("Delete")
        tmux.send("Enter")
        try tmux.waitFor("u to undo")
        tmux.send("Escape")
        let counted = try tmux.waitUntil("the table list again, counted after the delete") {
            $0.contains("view · 2 rows") && !$0.contains("subject  number")
        }
        #expect(line("7 rows", in: counted) == line("student", in: counted), "\(counted)")
        // The view: its rows by position; d says why it cannot delete.
        tmux.send("Up")
        tmux.send("Enter")
        try tmux.waitUntil("the math view") { $0.contains("1/2") }
        tmux.send("d")
        try tmux.waitFor("Delete is disabled: a view has no row id")
        tmux.send("Escape")
        try tmux.waitFor("view · 2 rows")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func aLargeTableLoadsInTheBackgroundAnsweringKeysMeanwhile() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let big = fixture.directory.appendingPathComponent("big.sqlite").path
        // 1.5 million rows: the debug build's full fetch takes seconds; the first rows show at once.
        try fixture.sql(
            """
            CREATE TABLE events (id INTEGER PRIMARY KEY, ts TEXT, level TEXT);
            WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 1500000)
            INSERT INTO events SELECT i, printf('2026-%02d-%02dT%05d', i % 12 + 1, i % 28 + 1, i), 'INFO' FROM k;
            CREATE INDEX events_ts ON events(ts);
            """,
            database: big
        )
        let tmux = try fixture.launch(
            [big, "--sort", "ts desc", "--section", "day(ts)", "--read-only"],
            width: 100,
            height: 40
        )
        defer { tmux.close() }
        try tmux.waitFor("Loading…", timeout: 10)
        // ? is answered while the rows are still being read: the help and "Loading…" on one screen.
        tmux.send("?")
        let help = try tmux.waitFor("Press any key to close")
        #expect(help.contains("Loading…"), "the help waited for the fetch:\n\(help)")
        tmux.send("Escape")
        // G typed while loading acts on the results once they are in: the last row.
        tmux.send("G")
        try tmux.waitFor("1500000/1500000", timeout: 120)
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func anotherProcessInsertingIntoANewSectionShowsItLive() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let tmux = try fixture.launch([fixture.school] + TableBrowserEndToEndTests.students)
        defer { tmux.close() }
        try tmux.waitFor("Art (2)", timeout: 10)
        try fixture.sql("INSERT INTO student (name, subject, number) VALUES ('Ivo', 'Chemistry', 1)")
        // The new section's header shows in the insert's first frame and its row as the gap opens:
        // the screen once both are drawn and it no longer changes.
        let screen = try tmux.waitUntilWhole("Ivo under Chemistry (1)", timeout: 10) { screen in
            line("Chemistry (1)", in: screen).map { line("Ivo", in: screen, after: $0) != nil } ?? false
        }
        let chemistry = try #require(line("Chemistry (1)", in: screen))
        #expect(line("Ivo", in: screen, after: chemistry) != nil)
        #expect(line("History (2)", in: screen, after: chemistry) != nil, "between Biology and History:\n\(screen)")
        try tmux.waitFor("1/9")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func deleteRemovesTheRowFromTheFileAndUndoPutsItBack() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let tmux = try fixture.launch([fixture.school, "--table", "student"])
        defer { tmux.close() }
        try tmux.waitFor("Ada", timeout: 10)
        tmux.send("d")
        try tmux.waitFor("Delete")
        tmux.send("Enter")
        try tmux.waitFor("u to undo")
        try fixture.waitUntil("Ada deleted in the file") {
            (try? fixture.sql("SELECT count(*) FROM student WHERE name = 'Ada'")) == "0"
        }
        #expect(try fixture.sql("SELECT count(*) FROM student") == "7")
        tmux.send("u")
        try tmux.waitFor("Undone")
        try fixture.waitUntil("Ada back in the file") {
            (try? fixture.sql("SELECT id FROM student WHERE name = 'Ada'")) == "1"
        }
        #expect(try fixture.sql("SELECT name, subject, number FROM student WHERE id = 1") == "Ada|Math|3")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func aReadOnlySessionRefusesDeleteAndLeavesTheFileByteIdentical() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: fixture.school))
        let tmux = try fixture.launch([fixture.school, "--read-only"] + TableBrowserEndToEndTests.students)
        defer { tmux.close() }
        try tmux.waitFor("Art (2)", timeout: 10)
        tmux.send("Down", "Down", "End", "Home", "}")
        tmux.send("d")
        try tmux.waitFor("Delete is disabled")
        tmux.send("Enter")
        try tmux.waitFor("number")  // the detail screen: every column's label
        tmux.send("Escape")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
        let after = try Data(contentsOf: URL(fileURLWithPath: fixture.school))
        #expect(before == after, "the file changed")
        #expect(fixture.databaseFiles() == ["school.sqlite"], "nothing left beside the file")
    }

    @Test func aCSVFileSortedAndSectionedByDay() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = try fixture.write(
            "events.csv",
            """
            id,ts,level,message
            1,2025-06-26T09:00:00,info,started
            2,2025-06-27T10:00:00,warn,disk low
            3,2025-06-27T08:00:00,info,rotated
            4,2025-06-25T12:00:00,error,crashed

            """
        )
        let tmux = try fixture.launch([csv, "--sort", "ts desc", "--section", "day(ts)", "--title", "message"])
        defer { tmux.close() }
        let screen = try tmux.waitFor("2025-06-25 (1)", timeout: 20)
        let june27 = try #require(line("2025-06-27 (2)", in: screen))
        let low = try #require(line("disk low", in: screen, after: june27))
        let rotated = try #require(line("rotated", in: screen, after: low))
        let june26 = try #require(line("2025-06-26 (1)", in: screen, after: rotated))
        #expect(line("2025-06-25 (1)", in: screen, after: june26) != nil)
        tmux.send("d")
        try tmux.waitFor("Delete is disabled")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }
}
