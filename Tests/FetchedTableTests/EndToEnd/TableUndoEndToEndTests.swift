import Foundation
import TestSupport
import Testing

/// `d`, Enter, `u` in the browser over tables that other tables point at: the undo brings
/// back every row and link the delete changed (cascaded children, nulled links), read back
/// from the file with the `sqlite3` shell. Serialized: the machine's two cores are shared.
@Suite(
    .serialized,
    .enabled(if: TableFixture.isTmuxAvailable, Comment(rawValue: TableFixture.tmuxUnavailableReason ?? ""))
)
struct TableUndoEndToEndTests {
    /// `parent` with children that cascade, links that are set to NULL, and a grandchild.
    static let foreignKeys = """
        CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE child (id INTEGER PRIMARY KEY, pid INTEGER REFERENCES parent(id) ON DELETE CASCADE, note TEXT);
        CREATE TABLE toy (cid INTEGER REFERENCES child(id) ON DELETE CASCADE, what TEXT);
        CREATE TABLE friend (name TEXT, pid INTEGER REFERENCES parent(id) ON DELETE SET NULL);
        INSERT INTO parent VALUES (1, 'alice'), (2, 'bob');
        INSERT INTO child VALUES (10, 1, 'first'), (11, 1, 'second'), (12, 2, 'third');
        INSERT INTO toy VALUES (10, 'ball'), (11, 'kite');
        INSERT INTO friend VALUES ('carol', 1), ('dave', 2);
        """

    /// Every table's rows with their row ids, as the shell prints them.
    static func snapshot(_ fixture: TableFixture, _ database: String, tables: [String]) throws -> [String] {
        try tables.map { try fixture.sql("SELECT rowid, * FROM \($0) ORDER BY rowid", database: database) }
    }

    @Test func undoOfADeleteBringsBackTheCascadedChildrenAndTheNulledLinks() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let database = try fixture.database("fk.db", TableUndoEndToEndTests.foreignKeys)
        let tables = ["parent", "child", "toy", "friend"]
        let before = try TableUndoEndToEndTests.snapshot(fixture, database, tables: tables)
        let tmux = try fixture.launch([database, "--table", "parent", "--title", "name"])
        defer { tmux.close() }
        try tmux.waitFor("alice", timeout: 10)
        try tmux.deleteRow()
        try fixture.waitUntil("the cascade in the file") {
            (try? fixture.sql("SELECT count(*) FROM child", database: database)) == "1"
        }
        #expect(try fixture.sql("SELECT count(*) FROM toy", database: database) == "0")
        #expect(try fixture.sql("SELECT pid IS NULL FROM friend WHERE name = 'carol'", database: database) == "1")
        try tmux.undo("Deleted alice")
        try fixture.waitUntil("everything back in the file") {
            (try? TableUndoEndToEndTests.snapshot(fixture, database, tables: tables)) == before
        }
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func undoOfADeletedBankInAFailedBanksStoreBringsBackItsDetails() throws {
        let failedbanks = try #require(BuiltProgram.path("failedbanks"), "\(BuiltProgram.missingReason("failedbanks"))")
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let store = fixture.directory.appendingPathComponent("banks.sqlite").path
        let csv = TableFixture.packageRoot.appendingPathComponent("Tests/Fixtures/banklist_2010_tutorial.csv").path
        let imported = try ProcessRunner.run(failedbanks, ["import", csv, "--db", store, "--quiet"])
        try #require(imported.status == 0, "failedbanks import: \(imported.standardError)")
        let tables = ["failed_bank_info", "failed_bank_details"]
        let before = try TableUndoEndToEndTests.snapshot(fixture, store, tables: tables)
        let first = try fixture.sql("SELECT name FROM failed_bank_info ORDER BY id LIMIT 1", database: store)
        let tmux = try fixture.launch([store, "--table", "failed_bank_info", "--title", "name"])
        defer { tmux.close() }
        try tmux.waitFor(first, timeout: 10)
        try tmux.deleteRow()
        try fixture.waitUntil("the bank's details deleted with it") {
            (try? fixture.sql("SELECT count(*) FROM failed_bank_details WHERE info_id = 1", database: store)) == "0"
        }
        tmux.send("u")
        try tmux.waitFor("Undone")
        try fixture.waitUntil("the bank and its details back") {
            (try? TableUndoEndToEndTests.snapshot(fixture, store, tables: tables)) == before
        }
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }

    @Test func aRowAnotherProgramDeletedFirstIsReportedAsAlreadyGone() throws {
        let fixture = try TableFixture()
        defer { fixture.remove() }
        let database = try fixture.database("fk.db", TableUndoEndToEndTests.foreignKeys)
        let tmux = try fixture.launch([database, "--table", "parent", "--title", "name"])
        defer { tmux.close() }
        try tmux.waitFor("alice", timeout: 10)
        tmux.send("d")
        try tmux.waitFor("Delete")
        // Another browser deletes alice while this one's Delete button is showing.
        try fixture.sql("PRAGMA foreign_keys = ON; DELETE FROM parent WHERE id = 1", database: database)
        tmux.send("Enter")
        let screen = try tmux.waitUntil("the refusal") { $0.contains("already deleted") || $0.contains("u to undo") }
        #expect(screen.contains("already deleted"), "\(screen)")
        #expect(!screen.contains("u to undo"), "\(screen)")
        #expect(try fixture.sql("SELECT name FROM parent", database: database) == "bob", "bob was not deleted instead")
        tmux.send("q")
        #expect(fixture.exitStatus() == 0)
    }
}
