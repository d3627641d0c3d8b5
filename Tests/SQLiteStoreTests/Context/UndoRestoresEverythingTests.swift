import Foundation
import TestSupport
import Testing

@testable import SQLiteStore

/// Undo of a delete brings back every row and link the delete changed — the rows its
/// foreign-key actions removed (CASCADE, several levels), the columns they set (SET NULL,
/// SET DEFAULT), what its triggers changed — in one transaction, whether the tables are
/// in the model or not; redo removes them again.
@Suite struct UndoRestoresEverythingTests {
    /// A foreign database of `sql`, its table `parent` as the only entity, and a context over it.
    struct ParentFixture {
        let dir = TemporaryDirectory()
        let path: String
        let context: ObjectContext
        /// A second connection to the file, as another program would have.
        let other: Database

        init(_ sql: String, table: String = "parent") throws {
            path = dir.path("fk.sqlite")
            other = try Database(path: path, options: ForeignDatabaseFixture.plain())
            try other.execute(sql)
            let model = try ForeignDatabaseFixture.model(try DatabaseCatalog(path: path), table: table)
            context = ObjectContext(store: try Store(foreignDatabaseAt: path, model: model, readOnly: false))
        }

        /// Deletes the row `rowID` of the entity through the context and saves.
        func delete(_ rowID: Int64, entity: String = "parent") throws {
            let object = try #require(try context.object(with: ObjectID(entity: entity, rowID: rowID)))
            context.delete(object)
            try context.save(actionName: "Deleted \(rowID)")
        }

        /// Every row of every table (row ids included where there are), as another connection reads them.
        func snapshot() throws -> [String: [[StoreValue]]] {
            var result: [String: [[StoreValue]]] = [:]
            let tables = try other.query(
                "SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite%'"
            )
            for table in tables {
                guard let name = table[0].string else { continue }
                let quoted = SQLIdentifier.alwaysQuoted(name)
                let sql =
                    table[1].int64 == 1
                    ? "SELECT * FROM \(quoted) ORDER BY 1" : "SELECT _rowid_, * FROM \(quoted) ORDER BY _rowid_"
                result[name] = try other.query(sql)
            }
            return result
        }
    }

    static let cascade = """
        PRAGMA foreign_keys = ON;
        CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE child (id INTEGER PRIMARY KEY, pid INTEGER REFERENCES parent(id) ON DELETE CASCADE, note TEXT);
        INSERT INTO parent VALUES (1, 'alice'), (2, 'bob');
        INSERT INTO child VALUES (10, 1, 'a1'), (11, 1, 'a2'), (12, 2, 'b1');
        """

    @Test func undoOfADeleteBringsBackTheRowsItsCascadeRemovedAndRedoRemovesThemAgain() throws {
        let f = try ParentFixture(UndoRestoresEverythingTests.cascade)
        let before = try f.snapshot()
        try f.delete(1)
        #expect(try f.other.scalar("SELECT count(*) FROM child WHERE pid = 1").int64 == 0, "the cascade ran")
        let undone = try #require(try f.context.undo())
        #expect(undone.name == "Deleted 1")
        #expect(undone.changes.inserted == [ObjectID(entity: "parent", rowID: 1)])
        #expect(try f.snapshot() == before, "the children came back with their row ids and values")
        try f.context.redo()
        #expect(try f.other.query("SELECT id FROM child ORDER BY id") == [[.integer(12)]])
        #expect(try f.other.query("SELECT id FROM parent") == [[.integer(2)]])
        try f.context.undo()
        #expect(try f.snapshot() == before, "undo after redo restores everything again")
    }

    @Test func undoRestoresTheLinksSetNullAndSetDefaultChanged() throws {
        let f = try ParentFixture(
            """
            PRAGMA foreign_keys = ON;
            CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT);
            INSERT INTO parent VALUES (0, 'nobody'), (1, 'alice'), (2, 'bob');
            CREATE TABLE nulled (id INTEGER PRIMARY KEY, pid INTEGER REFERENCES parent(id) ON DELETE SET NULL);
            CREATE TABLE defaulted (pid INTEGER DEFAULT 0 REFERENCES parent(id) ON DELETE SET DEFAULT, what TEXT);
            INSERT INTO nulled VALUES (1, 1), (2, 1), (3, 2);
            INSERT INTO defaulted VALUES (1, 'x'), (2, 'y'), (1, 'z');
            """
        )
        let before = try f.snapshot()
        try f.delete(1)
        #expect(try f.other.query("SELECT pid FROM nulled ORDER BY id") == [[.null], [.null], [.integer(2)]])
        #expect(try f.other.query("SELECT pid FROM defaulted ORDER BY rowid") == [[0], [2], [0]])
        try f.context.undo()
        #expect(try f.snapshot() == before)
    }

    @Test func undoRestoresAMultiLevelCascadeAndWhatTriggersDeleted() throws {
        let f = try ParentFixture(
            """
            PRAGMA foreign_keys = ON;
            CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE child (id INTEGER PRIMARY KEY, pid INTEGER REFERENCES parent(id) ON DELETE CASCADE);
            CREATE TABLE grandchild (id INTEGER PRIMARY KEY, cid INTEGER REFERENCES child(id) ON DELETE CASCADE, v BLOB);
            CREATE TABLE note (about INTEGER, body TEXT);
            CREATE TABLE audit (what TEXT);
            CREATE TRIGGER parent_gone AFTER DELETE ON parent BEGIN
              DELETE FROM note WHERE about = old.id;
              INSERT INTO audit VALUES ('deleted ' || old.name);
            END;
            INSERT INTO parent VALUES (1, 'alice'), (2, 'bob');
            INSERT INTO child VALUES (10, 1), (11, 1), (20, 2);
            INSERT INTO grandchild VALUES (100, 10, x'00ff'), (101, 11, NULL), (200, 20, x'01');
            INSERT INTO note VALUES (1, 'first'), (2, 'second'), (1, 'third');
            """
        )
        let before = try f.snapshot()
        try f.delete(1)
        #expect(try f.other.scalar("SELECT count(*) FROM grandchild").int64 == 1)
        #expect(try f.other.scalar("SELECT count(*) FROM note").int64 == 1)
        #expect(try f.other.scalar("SELECT count(*) FROM audit").int64 == 1)
        try f.context.undo()
        #expect(try f.snapshot() == before, "grandchildren, notes back; the trigger's audit row gone")
    }

    /// The file's own triggers do not fire while an undo or a redo puts rows back: what they
    /// did at the save is in the log and is reverted row by row; firing them again would add
    /// an audit row of the undo itself, and the redo would then find the audit row's id taken
    /// (UNIQUE constraint failed: audit.id).
    @Test func undoAndRedoWithAnAuditTriggerGiveBackExactlyTheStatesBeforeAndAfterTheSave() throws {
        let f = try ParentFixture(
            """
            PRAGMA foreign_keys = ON;
            CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE audit (id INTEGER PRIMARY KEY, what TEXT);
            CREATE TRIGGER parent_gone AFTER DELETE ON parent BEGIN
              INSERT INTO audit(what) VALUES ('deleted ' || old.name);
            END;
            INSERT INTO parent VALUES (1, 'alice'), (2, 'bob');
            """
        )
        let before = try f.snapshot()
        let added = f.context.insert(into: "parent")
        added["name"] = "carol"
        try f.context.delete(#require(try f.context.object(with: ObjectID(entity: "parent", rowID: 1))))
        try f.context.save(actionName: "Edits")
        let after = try f.snapshot()
        #expect(after["audit"] == [[.integer(1), .integer(1), .text("deleted alice")]])
        try f.context.undo()
        #expect(try f.snapshot() == before, "no audit row of the undo's own delete of carol")
        try f.context.redo()
        #expect(try f.snapshot() == after)
        try f.context.undo()
        #expect(try f.snapshot() == before)
    }

    @Test func undoRestoresRowsOfTablesWithGeneratedColumnsHiddenRowIDsAndWithoutRowID() throws {
        let f = try ParentFixture(
            """
            PRAGMA foreign_keys = ON;
            CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE line (
              price REAL, qty INTEGER,
              total REAL GENERATED ALWAYS AS (price * qty) VIRTUAL,
              label TEXT GENERATED ALWAYS AS (qty || ' x ' || price) STORED,
              pid INTEGER REFERENCES parent(id) ON DELETE CASCADE, memo TEXT
            );
            CREATE TABLE tag (memo TEXT, pid INTEGER REFERENCES parent(id) ON DELETE CASCADE, tag TEXT PRIMARY KEY) WITHOUT ROWID;
            INSERT INTO parent VALUES (1, 'alice');
            INSERT INTO line(price, qty, pid, memo) VALUES (2.5, 4, 1, 'm1'), (1.0, 1, 1, 'm2');
            DELETE FROM line WHERE memo = 'm1';
            INSERT INTO line(price, qty, pid, memo) VALUES (3.0, 2, 1, 'm3');
            INSERT INTO tag VALUES ('t', 1, 'red'), ('u', 1, 'blue');
            """
        )
        let before = try f.snapshot()
        try f.delete(1)
        #expect(try f.other.scalar("SELECT count(*) FROM line").int64 == 0)
        try f.context.undo()
        #expect(try f.snapshot() == before, "the same row ids (3 after a gap), values and generated values")
    }

    @Test func anUndoThatCannotPutEveryRowBackChangesNothing() throws {
        let f = try ParentFixture(UndoRestoresEverythingTests.cascade)
        try f.delete(1)
        // Another program takes a deleted child's id meanwhile: the undo cannot restore it.
        try f.other.execute("INSERT INTO child VALUES (11, 2, 'taken')")
        let deleted = try f.snapshot()
        let step = RestoreStep(write: .undo, takingBack: .save, inserted: false)
        #expect(throws: StoreError.restoreConflict(table: "child", row: "11", reason: .existsAgain, step: step)) {
            try f.context.undo()
        }
        #expect(try f.snapshot() == deleted, "not the parent without its children: nothing")
        #expect(f.context.canUndo, "the delete can still be undone once the conflict is gone")
        try f.other.execute("DELETE FROM child WHERE id = 11")
        try f.context.undo()
        #expect(try f.other.query("SELECT id, note FROM child ORDER BY id") == [[10, "a1"], [11, "a2"], [12, "b1"]])
    }

    @Test func theContextsOwnCascadeAndARowTheStoreHasTwiceComeBackWhole() throws {
        let f = try Fixture()
        let (info, _) = try insertBank(f.context, name: "Bank", closeDate: "2009-05-01")
        try insertBank(f.context, name: "Other")
        let tables = ["failed_bank_info", "failed_bank_details"]
        func snapshot() throws -> [[[StoreValue]]] {
            try tables.map { try f.store.database.query("SELECT * FROM \($0) ORDER BY id") }
        }
        let before = try snapshot()
        f.context.delete(info)
        try f.context.save()
        try f.context.undo()
        #expect(try snapshot() == before)
        try f.context.redo()
        try f.context.undo()
        #expect(try snapshot() == before)
    }

    @Test func aDeleteOfARowAnotherConnectionDeletedFirstSaysSoAndChangesNothing() throws {
        let f = try ParentFixture(UndoRestoresEverythingTests.cascade)
        let object = try #require(try f.context.object(with: ObjectID(entity: "parent", rowID: 2)))
        let alice = try #require(try f.context.object(with: ObjectID(entity: "parent", rowID: 1)))
        try f.other.execute("DELETE FROM parent WHERE id = 2")
        let after = try f.snapshot()
        f.context.delete(alice)
        f.context.delete(object)
        #expect(throws: StoreError.alreadyDeleted(table: "parent", rowID: 2)) {
            try f.context.save(actionName: "Deleted 2 rows")
        }
        #expect(try f.snapshot() == after, "alice is not deleted either: all or nothing")
    }
}
