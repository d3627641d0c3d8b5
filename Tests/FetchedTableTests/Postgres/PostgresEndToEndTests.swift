import Foundation
import PostgreSQLClient
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The built `fetchedtable` over tables of a throwaway PostgreSQL server, through their
/// local copy: `list` in the SQL order, `watch` of another client's insert, `--track`
/// then `untrack` leaving the schema as it was, and the browser in tmux (the table list
/// with counts, sections and index, a live insert into a new section, delete and undo
/// checked on the server, a cell edited and a row added there (a conflict with another
/// session named), a table without a primary key refused with its reason).
/// Serialized: the machine's two cores are shared.
@Suite(
    .serialized,
    .enabled(if: PostgresFixture.isAvailable, Comment(rawValue: PostgresFixture.unavailableReason ?? ""))
)
struct PostgresEndToEndTests {
    static let schema = """
        CREATE TABLE student (id bigint PRIMARY KEY, name text NOT NULL, subject text NOT NULL, number int,
                              enrolled date, fee numeric(8,2), active boolean, tags text[], meta jsonb);
        CREATE TABLE teacher (name text, room int);
        CREATE VIEW math AS SELECT id, name, number FROM student WHERE subject = 'Math';
        INSERT INTO student VALUES
            (1, 'Ada', 'Math', 3, '2024-09-01', 120.50, true, '{a,b}', '{"k": 1}'),
            (2, 'Brook', 'Art', 1, '2023-09-01', 99.00, false, NULL, NULL),
            (3, 'Cyril', 'Math', 1, '2024-09-02', NULL, true, '{}', '[1, 2]'),
            (4, 'Dana', 'History', 2, '2022-01-15', 10.00, NULL, NULL, NULL),
            (5, 'Emil', 'Art', 2, '2024-03-01', 15.25, true, NULL, NULL);
        INSERT INTO teacher VALUES ('Turing', 101), ('Hopper', 102);
        """

    @Test func listJSONHasTheSectionsAndRowsInTheOrderOfSQL() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresEndToEndTests.schema)
        let arguments = [
            "--table", "student", "--sort", "subject, number desc", "--section", "subject", "--format", "json",
        ]
        let result = try fixture.run(["list", fixture.uri] + arguments)
        #expect(result.status == 0, "\(result.standardError)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        )
        let sections = try #require(json["sections"] as? [[String: Any]])
        #expect(sections.map { $0["name"] as? String } == ["Art", "History", "Math"])
        let ids = sections.flatMap { ($0["objects"] as? [[String: Any]]) ?? [] }.map { ($0["_rowid"] as? Int) ?? -1 }
        let sqlOrder = try fixture.psql("SELECT id FROM student ORDER BY subject, number DESC, id")
            .split(separator: "\n").compactMap { Int($0) }
        #expect(ids == sqlOrder, "the primary key is each object's id, in SQL's order")
        let ada = try #require(
            sections.last.flatMap { ($0["objects"] as? [[String: Any]])?.first { $0["name"] as? String == "Ada" } }
        )
        #expect(ada["fee"] as? String == "120.50", "numeric exact: \(ada)")
        #expect(ada["active"] as? Bool == true)
        #expect(ada["enrolled"] as? String == "2024-09-01")
        #expect(ada["tags"] as? String == "{a,b}")
        #expect(ada["meta"] as? String == "{\"k\":1}")
        // --pg and libpq's environment: the same output.
        let viaEnvironment = try fixture.run(["list", "--pg"] + arguments, environment: fixture.pgEnvironment())
        #expect(viaEnvironment.status == 0, "\(viaEnvironment.standardError)")
        #expect(viaEnvironment.standardOutput == result.standardOutput)
        // A SELECT-only role lists as well, and a view.
        let reader = "reader_\(fixture.database)"
        try fixture.psql("CREATE ROLE \(reader) LOGIN; GRANT SELECT ON student, math TO \(reader)")
        let view = try fixture.run(["list", fixture.uri(user: reader), "--table", "math", "--format", "csv"])
        #expect(view.status == 0, "\(view.standardError)")
        #expect(view.standardOutput.contains("Ada") && view.standardOutput.contains("Cyril"))
        #expect(!view.standardOutput.contains("Brook"))
    }

    @Test func watchPrintsAnotherClientsInsertAndUntrackLeavesTheSchemaAsItWas() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresEndToEndTests.schema)
        let before = try fixture.server.schemaDump(database: fixture.database)
        let watch = try fixture.startWatch([fixture.uri, "--table", "student", "--section", "subject", "--track"])
        defer { kill(watch.pid, SIGTERM) }
        try fixture.waitUntil("the snapshot line") { fixture.lines(watch.output).count >= 1 }
        #expect(fixture.lines(watch.output)[0].contains("\"Math\""))
        try fixture.psql("INSERT INTO student (id, name, subject, number) VALUES (6, 'Zed', 'Zoology', 1)")
        do {
            try fixture.waitUntil("the insert's batch") { fixture.lines(watch.output).count >= 2 }
        } catch {
            let stderr = (try? String(contentsOfFile: watch.output.path + ".stderr", encoding: .utf8)) ?? ""
            throw EndToEndError("no batch line; watch's stderr: \(stderr)")
        }
        let stderr = (try? String(contentsOfFile: watch.output.path + ".stderr", encoding: .utf8)) ?? ""
        #expect(stderr.isEmpty, "\(stderr)")
        let batch = fixture.lines(watch.output)[1]
        #expect(batch.contains("Zoology") && batch.contains("insert"), "\(batch)")
        kill(watch.pid, SIGTERM)
        let tracked = try fixture.server.schemaDump(database: fixture.database)
        #expect(tracked.contains("fetchedtable_history"), "--track installed the history")
        let untrack = try fixture.run(["untrack", "--pg", "--table", "student"], environment: fixture.pgEnvironment())
        #expect(untrack.status == 0, "\(untrack.standardError)")
        #expect(untrack.standardOutput.contains("student has no fetchedtable_history triggers now"))
        try fixture.waitUntil("the schema as before") {
            try fixture.server.schemaDump(database: fixture.database) == before
        }
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func browserTakesALargeBatchAfterBuildingItsDeferredPrefixesAndThenASmallOne() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresEndToEndTests.schema)
        let tmux = try fixture.launch(
            [fixture.uri, "--table", "student", "--section", "subject", "--title", "name", "--track"]
        )
        defer { tmux.close() }
        try tmux.waitFor("Math (2)", timeout: 15)
        // 40 rows in one statement: more than are placed without the sort-key prefixes, which the
        // list of a copy builds only now (in the background; the poll waits for them).
        try fixture.psql(
            "INSERT INTO student (id, name, subject, number) SELECT 100 + n, 'New ' || n, 'Art', n FROM generate_series(1, 40) AS n"
        )
        try tmux.waitFor("Art (42)", timeout: 30)
        try fixture.psql("UPDATE student SET subject = 'Music' WHERE id = 101")
        try tmux.waitFor("Art (41)", timeout: 15)
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func browserShowsSectionsTakesLiveInsertsAndDeletesAndUndoesOnTheServer() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresEndToEndTests.schema)
        let tmux = try fixture.launch([fixture.uri, "--table", "student", "--section", "subject", "--title", "name"])
        defer { tmux.close() }
        try tmux.waitFor("Math (2)", timeout: 15)
        let screen = tmux.capture()
        #expect(screen.contains("Art (2)") && screen.contains("History (1)"), "\(screen)")
        try fixture.psql("INSERT INTO student (id, name, subject, number) VALUES (6, 'Zed', 'Zoology', 1)")
        try tmux.waitFor("Zoology (1)", timeout: 15)
        // The first row (Brook, Art) deleted on the server, then brought back.
        tmux.send("d")
        try tmux.waitFor("Delete")
        tmux.send("Enter")
        try tmux.waitFor("u to undo")
        do {
            try fixture.waitUntil("the delete on the server") {
                try fixture.psql("SELECT count(*) FROM student WHERE id = 2") == "0"
            }
        } catch {
            let ids = (try? fixture.psql("SELECT string_agg(id::text, ',' ORDER BY id) FROM student")) ?? "?"
            throw EndToEndError("\(error); the server's ids: \(ids); the screen: \(tmux.capture())")
        }
        tmux.send("u")
        try tmux.waitFor("Undone")
        #expect(try fixture.psql("SELECT name, subject, number, fee FROM student WHERE id = 2") == "Brook|Art|1|99.00")
        try tmux.waitFor("Art (2)", timeout: 15)
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func eEditsACellOnTheServerGuardedByTheValueShownAndAAddsARowBothUndone() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresEndToEndTests.schema)
        let tmux = try fixture.launch(
            [fixture.uri, "--table", "student", "--sort", "id", "--columns", "name, subject, fee"],
            width: 100,
            height: 12
        )
        defer { tmux.close() }
        try tmux.waitFor("5 rows", timeout: 15)  // the browser's title, not the copying preview's
        let fee = { try fixture.psql("SELECT fee FROM student WHERE id = 1") }

        // fee of Ada: a text that is not a number, refused by the server and named; the editor back
        // with the text typed, to fix it.
        tmux.send("l", "l", "e")
        try tmux.waitFor("Enter saves")
        tmux.send("C-u")
        tmux.type("cheap")
        tmux.send("Enter")
        try tmux.waitFor("Not saved: not a value of its type — invalid input syntax", timeout: 15)
        #expect(try fee() == "120.50")
        tmux.type("r")
        try tmux.waitFor("cheapr")  // typed into the editor reopened over the cell
        tmux.send("C-u")
        tmux.type("130.75")

        // Another session holds Ada's row: the edit waits for the server, the cell shows the value
        // sent marked ↻ until it answers — here that it gave up waiting (the editor back again).
        let holder = try fixture.lockHolder("BEGIN; SELECT * FROM student WHERE id = 1 FOR UPDATE")
        tmux.send("Enter")
        let waiting = try tmux.waitUntil("the edit marked while the server has not answered") {
            $0.contains("↻") && $0.contains("130.75") && !$0.contains("Not saved")
        }
        #expect(!waiting.contains("Enter saves"), "\(waiting)")
        try tmux.waitFor("for a lock held by", timeout: 30)  // the lock holder named, the editor back with 130.75
        try holder.execute("ROLLBACK")
        let back = tmux.capture()
        #expect(back.contains("130.75") && !back.contains("↻"), "\(back)")
        tmux.send("Enter")
        // The server's yes, not "Saving Edited fee of …" before it.
        try tmux.waitUntil("the edit saved", timeout: 15) { $0.contains("Edited fee of") && $0.contains("u to undo") }
        #expect(!tmux.capture().contains("↻"))
        #expect(try fee() == "130.75")
        try tmux.waitFor("130.75", timeout: 15)

        tmux.send("u")
        try tmux.waitFor("Undone: Edited fee of", timeout: 15)
        #expect(try fee() == "120.50")
        tmux.send("C-r")
        try tmux.waitFor("Redone: Edited fee of", timeout: 15)
        #expect(try fee() == "130.75")

        // Another session changes the cell while it is being edited: a conflict, named; theirs kept.
        tmux.send("e")
        try tmux.waitFor("Enter saves")
        try fixture.psql("UPDATE student SET fee = 77 WHERE id = 1")
        tmux.send("C-u")
        tmux.type("1")
        tmux.send("Enter")
        try tmux.waitFor("fee was changed by another session since it was shown", timeout: 15)
        #expect(try fee() == "77.00")
        try tmux.waitFor("77.00", timeout: 15)

        // name: NOT NULL named, and the editor back with the text it held; Esc discards it.
        tmux.send("h", "h", "e")
        try tmux.waitFor("Enter saves")
        tmux.type(" Lovelace")
        tmux.send("C-n")
        try tmux.waitFor("Not saved: NOT NULL — null value in column \"name\"", timeout: 15)
        #expect(try fixture.psql("SELECT name FROM student WHERE id = 1") == "Ada")
        #expect(tmux.capture().contains("Ada Lovelace"))
        tmux.press("Escape")
        try tmux.waitFor("Not changed")

        // a: the form of the server's columns; a row it refuses (UNIQUE) opens the form again with
        // the fields as filled; fixed, the row read back from the server, then undone.
        tmux.send("a")
        let form = try tmux.waitFor("New row in student")
        #expect(form.contains("id *") && form.contains("name *"), "\(form)")
        tmux.type("1")
        tmux.send("Tab")
        tmux.type("Zoe")
        tmux.send("Tab")
        tmux.type("Zoology")
        tmux.send("C-s")
        let again = try tmux.waitFor("UNIQUE — duplicate key", timeout: 15)
        #expect(again.contains("New row in student") && again.contains("Zoology"), "\(again)")
        tmux.send("C-u")  // the id field, focused first
        tmux.type("9")
        tmux.send("C-s")
        try tmux.waitFor("Added “Zoe”", timeout: 15)
        #expect(try fixture.psql("SELECT name, subject, fee IS NULL FROM student WHERE id = 9") == "Zoe|Zoology|t")
        try tmux.waitFor("6 rows", timeout: 15)
        tmux.send("u")
        try tmux.waitFor("Undone: Added “Zoe”", timeout: 15)
        #expect(try fixture.psql("SELECT count(*) FROM student WHERE id = 9") == "0")
        // Redone, then changed by another session: u is a conflict, named, and their row is kept.
        tmux.send("C-r")
        try tmux.waitFor("Redone: Added “Zoe”", timeout: 15)
        try fixture.psql("UPDATE student SET subject = 'Zen' WHERE id = 9")
        tmux.send("u")
        try tmux.waitFor(
            "Could not undo: subject was changed by another session since it was added again",
            timeout: 15
        )
        #expect(try fixture.psql("SELECT name, subject FROM student WHERE id = 9") == "Zoe|Zen")
        // The change is dropped, not put on the redo stack: there is nothing to redo.
        tmux.send("C-r")
        try tmux.waitFor("Nothing to redo")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func eTypedWhileTheCopyIsMadeOpensTheEditorOnceTheListShows() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(
            PostgresEndToEndTests.schema
                + "INSERT INTO student (id, name, subject) SELECT n, 'S' || n, 'Art' FROM generate_series(10, 600000) n;"
        )
        let tmux = try fixture.launch(
            [fixture.uri, "--table", "student", "--sort", "id", "--columns", "name, subject"],
            width: 100,
            height: 12
        )
        defer { tmux.close() }
        try tmux.waitFor("Copying", timeout: 15)  // the preview, read straight from the server
        tmux.send("e")
        try tmux.waitFor("Enter saves", timeout: 60)  // kept, then the editor over Ada's name in the list
        try tmux.waitFor("599,996 rows")  // the browser's title: the list, not the preview
        tmux.press("Escape")
        try tmux.waitFor("Not changed")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func eAndASayWhyARoleWithoutTheirPrivilegeCannotChangeTheTable() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresEndToEndTests.schema)
        let reader = "reader_\(fixture.database)"
        try fixture.psql("CREATE ROLE \(reader) LOGIN; GRANT SELECT ON student TO \(reader)")
        let tmux = try fixture.launch(
            [fixture.uri(user: reader), "--table", "student", "--sort", "id"],
            width: 110,
            height: 12
        )
        defer { tmux.close() }
        try tmux.waitFor("5 rows", timeout: 15)
        tmux.send("e")
        try tmux.waitFor("Cannot edit: the role may not update student (no UPDATE privilege)")
        tmux.send("a")
        try tmux.waitFor("Cannot add a row: the role may not insert into student (no INSERT privilege)")
        tmux.send("d")
        try tmux.waitFor("Delete is disabled: the role may not delete from student (no DELETE privilege)")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test(.enabled(if: PostgresFixture.tmuxUnavailableReason == nil))
    func theTableListHasCountsAndATableWithoutAPrimaryKeyIsReadOnly() throws {
        let fixture = try PostgresFixture()
        defer { fixture.remove() }
        try fixture.psql(PostgresEndToEndTests.schema)
        let tmux = try fixture.launch(["--pg"], environment: fixture.pgEnvironment())
        defer { tmux.close() }
        try tmux.waitFor("teacher", timeout: 15)
        let screen = tmux.capture()
        #expect(screen.contains("5 rows") && screen.contains("view"), "\(screen)")
        // teacher is last: math (view), student, teacher.
        tmux.send("End")
        tmux.send("Enter")
        try tmux.waitFor("Turing", timeout: 15)
        tmux.send("d")
        try tmux.waitFor("no primary key")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }
}
