import Foundation
import TestSupport
import Testing

/// Issue 38's data defects where they show, in a real terminal (tmux): a column named with a dot,
/// a table too wide to read, bad JSON in the browser, the sections of NULL and of empty
/// text, `list --format csv` on a terminal, and the table list after the table `--table` named was
/// altered.
@Suite(
    .serialized,
    .enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? ""))
)
struct TableDataScreenTests {
    @Test func aColumnWhoseNameHasADotShowsItsValuesInTheListAndTheDetail() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("users.sqlite").path
        try fixture.sql(
            """
            CREATE TABLE users ("user.name" TEXT, "user.email" TEXT);
            INSERT INTO users VALUES ('ada', 'ada@example.org'), ('bo', 'bo@example.org');
            """,
            database: path
        )
        let tmux = try fixture.launch([
            path, "--title", "user.name", "--subtitle", "user.email", "--sort", "user.email",
        ])
        defer { tmux.close() }
        // Before: "—" for every value (the key path read "user" then "email").
        let list = try tmux.waitUntil("the list", timeout: 10) { $0.contains("bo@example.org") && $0.contains("1/2") }
        #expect(list.contains("ada@example.org"), "\(list)")
        #expect(list.screenLines.contains { $0.hasPrefix(" ada ") }, "the title, not \"—\":\n\(list)")
        tmux.send("Enter")
        let detail = try tmux.waitUntil("the detail screen") { $0.contains("user.email") && $0.contains("Esc") }
        #expect(detail.contains("ada@example.org"), "\(detail)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
        // The grid (without --title) reads the same names.
        let grid = try fixture.launch([path, "--sort", "user.email"], width: 100)
        defer { grid.close() }
        let rows = try grid.waitUntil("the grid", timeout: 10) { $0.contains("bo@example.org") }
        #expect(rows.contains("ada@example.org") && rows.contains("user.name"), "\(rows)")
        grid.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func aTableTooWideToReadIsRefusedOnTheStatusLineNotShownAsBlankRows() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("wide.sqlite").path
        let columns = (1...2000).map { "c\($0)" }.joined(separator: ", ")
        try fixture.sql(
            "CREATE TABLE wide (\(columns)); INSERT INTO wide (c1) VALUES ('one'); CREATE TABLE narrow (a TEXT);",
            database: path
        )
        let tmux = try fixture.launch([path], width: 120)
        defer { tmux.close() }
        try tmux.waitUntil("the table list", timeout: 10) { $0.contains("wide") && $0.contains("narrow") }
        tmux.send("Up", "Up", "Down")  // `wide`, the second table by name
        tmux.send("Enter")
        // Before: the list opened with blank rows (every fetch selected 2001 columns).
        let refused = try tmux.waitFor("2000 columns")
        #expect(refused.contains("narrow"), "still the table list:\n\(refused)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func theSectionsOfNullAndOfEmptyTextHaveTwoTitles() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("tags.sqlite").path
        try fixture.sql(
            "CREATE TABLE t (name TEXT, tag TEXT); INSERT INTO t VALUES ('alpha', NULL), ('beta', ''), ('gamma', 'x');",
            database: path
        )
        let tmux = try fixture.launch([path, "--section", "tag", "--title", "name"])
        defer { tmux.close() }
        let screen = try tmux.waitUntil("the sections", timeout: 10) { $0.contains("gamma") && $0.contains("1/3") }
        // Before: both "—".
        #expect(screen.contains("— (1)"), "\(screen)")
        #expect(screen.contains("(empty) (1)"), "\(screen)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func listAsCSVOnATerminalEscapesWhatTheTerminalWouldAct() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let csv = fixture.directory.appendingPathComponent("evil.sqlite").path
        try fixture.sql(
            "CREATE TABLE t (name TEXT, n INTEGER); INSERT INTO t VALUES ('red\u{1B}[31mtext\u{7}', 1);",
            database: csv
        )
        let tmux = try fixture.launch(["list", csv, "--format", "csv"])
        defer { tmux.close() }
        let screen = try tmux.waitFor("EXITED", timeout: 10)
        // Before: the ESC sequence turned the rest red and showed nothing of it; BEL rang.
        #expect(screen.contains("red\\u{1B}[31mtext\\u{7}"), "\(screen)")
        #expect(fixture.exitStatus() == 0)
        // To a pipe, the data as it is.
        let piped = try fixture.run(["list", csv, "--format", "csv"])
        #expect(piped.standardOutput.contains("red\u{1B}[31mtext\u{7}"), "\(piped.standardOutput)")
    }

    @Test func afterTheTableOfTableIsAlteredTheOtherTablesOpenFromTheTableList() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("s.db").path
        try fixture.sql(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, note TEXT);
            CREATE TABLE other (x TEXT);
            INSERT INTO t (name, note) VALUES ('alice', 'old note');
            INSERT INTO other VALUES ('from other');
            """,
            database: path
        )
        let tmux = try fixture.launch([path, "--table", "t", "--sort", "note", "--section", "note"], width: 120)
        defer { tmux.close() }
        try tmux.waitFor("old note", timeout: 10)
        try fixture.sql("ALTER TABLE t DROP COLUMN note", database: path)
        let list = try tmux.waitFor("cannot be opened as asked")
        #expect(list.contains("other"), "\(list)")
        tmux.send("Up", "Up")  // `other`, the first table by name
        tmux.send("Enter")
        // Before: "--sort: no column "note" in table "other"", for every other table.
        let opened = try tmux.waitFor("from other")
        #expect(!opened.contains("no column"), "\(opened)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func badJSONOpenedInTheBrowserOrWatchedNamesItsLineAndColumnWithExit65() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let path = try fixture.write("bad.json", "[\n  {\"a\": 1},\n  {\"a\": 2,}\n]\n")
        // The browser: the terminal given back, then the error and 65 (as `list` says it).
        let tmux = try fixture.launch([path])
        defer { tmux.close() }
        #expect(fixture.exitStatus() == 65)
        let errors = try String(contentsOf: fixture.directory.appendingPathComponent("app.stderr"), encoding: .utf8)
        #expect(errors.contains("bad.json:3:11: expected a key"), "\(errors)")
        // watch: the same, before any snapshot.
        let watch = try fixture.run(["watch", path])
        #expect(watch.status == 65)
        #expect(watch.standardError.contains("bad.json:3:11: expected a key"), "\(watch.standardError)")
        #expect(watch.standardOutput.isEmpty, "\(watch.standardOutput)")
    }
}
