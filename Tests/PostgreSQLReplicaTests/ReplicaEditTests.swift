import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore
import Testing

/// A cell edit writes the server only when it still holds the value shown (else a named
/// conflict, the other session's value kept and copied); the server's refusals keep their
/// SQLSTATE; undo writes back exactly what was there, only over what the edit wrote; an added
/// row writes only the columns given and is in the replica when insert returns; its undo (and
/// a delete's redo) deletes it only while it holds what the write left, else a named conflict.
@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct ReplicaEditTests {
    static func loaded(_ database: ReplicaTestDatabase, table: String) throws -> (PostgresReplica, ReplicaTable) {
        let replica = PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: table),
            cacheDirectory: try makeCacheDirectory(),
            timeout: 5,
            timeZone: "UTC"
        )
        return (replica, try replica.load())
    }

    static func items(_ database: ReplicaTestDatabase) throws {
        try database.psql(
            """
            CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL UNIQUE, price numeric CHECK (price >= 0),
                                qty int DEFAULT 1, total numeric GENERATED ALWAYS AS (price * qty) STORED);
            INSERT INTO items (id, name, price) VALUES (1, 'pen', 2.50), (2, 'ink', 1);
            """
        )
    }

    @Test func anEditWritesTheServerWhenItHoldsTheValueShownAndTheReplicaFollows() throws {
        let database = try ReplicaTestDatabase()
        try Self.items(database)
        let (replica, table) = try Self.loaded(database, table: "items")
        let edit = try replica.update(rowID: 1, column: "price", to: "3.75", expecting: .shown(.text("2.50")))
        #expect(try database.psql("SELECT price, total FROM items WHERE id = 1") == "3.75|3.75\n")
        #expect(try replicaRows(table, orderBy: "id")[0][2] == .text("3.75"))
        #expect(edit.rowID == 1 && edit.column == "price")
    }

    @Test func anEditOfACellAnotherSessionChangedIsAConflictThatKeepsTheirValue() throws {
        let database = try ReplicaTestDatabase()
        try Self.items(database)
        let (replica, table) = try Self.loaded(database, table: "items")
        try database.psql("UPDATE items SET price = 9 WHERE id = 1")
        #expect {
            _ = try replica.update(rowID: 1, column: "price", to: "3.75", expecting: .shown(.text("2.50")))
        } throws: { error in
            guard case ReplicaError.conflict(let reason) = error else { return false }
            return reason == "price was changed by another session since it was shown"
        }
        #expect(try database.psql("SELECT price FROM items WHERE id = 1") == "9\n")
        #expect(try replicaRows(table, orderBy: "id")[0][2] == .text("9"), "the copy shows the other session's value")
    }

    @Test func anEditOfARowAnotherSessionDeletedIsAConflict() throws {
        let database = try ReplicaTestDatabase()
        try Self.items(database)
        let (replica, table) = try Self.loaded(database, table: "items")
        try database.psql("DELETE FROM items WHERE id = 2")
        #expect {
            _ = try replica.update(rowID: 2, column: "name", to: "ink2", expecting: .shown(.text("ink")))
        } throws: { error in
            guard case ReplicaError.conflict(let reason) = error else { return false }
            return reason == "another session deleted the row since it was shown"
        }
        #expect(try replicaRows(table, orderBy: "id").count == 1)
    }

    @Test(
        arguments: [
            ("price", "cheap", "22P02"),
            ("price", "-1", "23514"),
            ("name", nil, "23502"),
            ("name", "ink", "23505"),
        ] as [(String, String?, String)]
    )
    func theServersRefusalKeepsItsSQLStateAndWritesNothing(column: String, text: String?, state: String) throws {
        let database = try ReplicaTestDatabase()
        try Self.items(database)
        let (replica, _) = try Self.loaded(database, table: "items")
        let shown: StoreValue = column == "price" ? .text("2.50") : .text("pen")
        #expect {
            _ = try replica.update(rowID: 1, column: column, to: text, expecting: .shown(shown))
        } throws: { error in
            guard case ReplicaError.server(let server) = error else { return false }
            return server.sqlState == state
        }
        #expect(try database.psql("SELECT name, price FROM items WHERE id = 1") == "pen|2.50\n")
    }

    @Test func aGeneratedColumnIsNotEdited() throws {
        let database = try ReplicaTestDatabase()
        try Self.items(database)
        let (replica, _) = try Self.loaded(database, table: "items")
        #expect {
            _ = try replica.update(rowID: 1, column: "total", to: "1", expecting: .shown(.text("2.50")))
        } throws: { error in
            guard case ReplicaError.readOnly(let reason) = error else { return false }
            return reason == "total is a generated column (the server computes it)"
        }
    }

    @Test func undoWritesTheValueBackOnlyOverWhatTheEditWroteAndRedoWritesItAgain() throws {
        let database = try ReplicaTestDatabase()
        try Self.items(database)
        let (replica, table) = try Self.loaded(database, table: "items")
        let edit = try replica.update(rowID: 1, column: "price", to: "3.75", expecting: .shown(.text("2.50")))
        let undone = try replica.revert(edit)
        #expect(try database.psql("SELECT price FROM items WHERE id = 1") == "2.50\n")
        #expect(try replicaRows(table, orderBy: "id")[0][2] == .text("2.50"))
        _ = try replica.revert(undone)
        #expect(try database.psql("SELECT price FROM items WHERE id = 1") == "3.75\n")
        try database.psql("UPDATE items SET price = 8 WHERE id = 1")
        #expect {
            _ = try replica.revert(edit)
        } throws: { error in
            guard case ReplicaError.conflict(let reason) = error else { return false }
            return reason == "price was changed by another session since it was shown"
        }
        #expect(try database.psql("SELECT price FROM items WHERE id = 1") == "8\n")
    }

    @Test func undoOfAnEditInALatin1DatabaseWritesTheSameLettersBack() throws {
        let database = try ReplicaTestDatabase(encoding: "LATIN1")
        try database.psql(
            """
            SET client_encoding = 'UTF8';
            CREATE TABLE people (id int PRIMARY KEY, name text); INSERT INTO people VALUES (1, 'Müller Ærø');
            """
        )
        let (replica, table) = try Self.loaded(database, table: "people")
        let edit = try replica.update(rowID: 1, column: "name", to: "Größe", expecting: .shown(.text("Müller Ærø")))
        #expect(try database.psql("SET client_encoding = 'UTF8'; SELECT name FROM people") == "Größe\n")
        _ = try replica.revert(edit)
        #expect(try database.psql("SET client_encoding = 'UTF8'; SELECT name FROM people") == "Müller Ærø\n")
        #expect(try replicaRows(table, orderBy: "id")[0][1] == .text("Müller Ærø"))
    }

    @Test func anAddedRowWritesOnlyTheColumnsGivenAndIsInTheReplica() throws {
        let database = try ReplicaTestDatabase()
        try Self.items(database)
        let (replica, table) = try Self.loaded(database, table: "items")
        let added = try replica.insert(["id": "3", "name": "nib", "price": "0.40"])
        #expect(added.rowID == 3)
        #expect(try database.psql("SELECT name, price, qty, total FROM items WHERE id = 3") == "nib|0.40|1|0.40\n")
        #expect(try replicaRows(table, orderBy: "id").map { $0[1] } == [.text("pen"), .text("ink"), .text("nib")])
        let deleted = try replica.delete([added])
        #expect(try database.psql("SELECT count(*) FROM items") == "2\n")
        try replica.restore(deleted)
        #expect(try database.psql("SELECT name, qty FROM items WHERE id = 3") == "nib|1\n")
    }

    @Test func undoOfAnAddedRowAnotherSessionChangedIsAConflictThatKeepsTheRow() throws {
        let database = try ReplicaTestDatabase()
        try Self.items(database)
        let (replica, table) = try Self.loaded(database, table: "items")
        let added = try replica.insert(["id": "3", "name": "nib", "price": "0.40"])
        // qty took its DEFAULT: the row as read back after the insert is what undo compares.
        try database.psql("UPDATE items SET qty = 5 WHERE id = 3")
        #expect {
            _ = try replica.delete([added])
        } throws: { error in
            guard case ReplicaError.conflict(let reason) = error else { return false }
            return reason == "qty was changed by another session since it was added: not deleted"
        }
        #expect(try database.psql("SELECT name, qty, total FROM items WHERE id = 3") == "nib|5|2.00\n")
        #expect(try replicaRows(table, orderBy: "id")[2][3] == .integer(5), "the copy shows the other session's row")
        // Set back as it was added: the undo deletes it.
        try database.psql("UPDATE items SET qty = 1 WHERE id = 3")
        #expect(try replica.delete([added]).count == 1)
        #expect(try database.psql("SELECT count(*) FROM items") == "2\n")
        #expect(try replicaRows(table, orderBy: "id").count == 2)
    }

    /// a, u, Ctrl-R, then u over another session's change: the row was added again (by the redo),
    /// and the conflict says so — not that undo wrote it back.
    @Test func undoOfAnAddRedoneSaysTheRowWasAddedAgain() throws {
        let database = try ReplicaTestDatabase()
        try Self.items(database)
        let (replica, _) = try Self.loaded(database, table: "items")
        let added = try replica.insert(["id": "3", "name": "nib", "price": "0.40"])
        let undone = try replica.delete([added])
        let redone = try replica.restore(undone)
        #expect(try database.psql("SELECT name, qty FROM items WHERE id = 3") == "nib|1\n")
        try database.psql("UPDATE items SET qty = 5 WHERE id = 3")
        #expect {
            _ = try replica.delete(redone)
        } throws: { error in
            guard case ReplicaError.conflict(let reason) = error else { return false }
            return reason == "qty was changed by another session since it was added again: not deleted"
        }
        #expect(try database.psql("SELECT name, qty FROM items WHERE id = 3") == "nib|5\n")
        // Set back: the undo deletes it, and redoing that adds it again once more.
        try database.psql("UPDATE items SET qty = 1 WHERE id = 3")
        let again = try replica.restore(try replica.delete(redone))
        try database.psql("UPDATE items SET name = 'nib!' WHERE id = 3")
        #expect {
            _ = try replica.delete(again)
        } throws: { error in
            guard case ReplicaError.conflict(let reason) = error else { return false }
            return reason == "name was changed by another session since it was added again: not deleted"
        }
    }

    @Test func redoOfADeleteDeletesTheRowWrittenBackOnlyWhileItHoldsWhatUndoWrote() throws {
        let database = try ReplicaTestDatabase()
        try Self.items(database)
        let (replica, _) = try Self.loaded(database, table: "items")
        let deleted = try replica.delete(rowIDs: [2])
        let restored = try replica.restore(deleted)
        #expect(restored.map(\.rowID) == [2])
        try database.psql("UPDATE items SET name = 'ink!' WHERE id = 2")
        #expect {
            _ = try replica.delete(restored)
        } throws: { error in
            guard case ReplicaError.conflict(let reason) = error else { return false }
            return reason == "name was changed by another session since undo put it back: not deleted"
        }
        #expect(try database.psql("SELECT name FROM items WHERE id = 2") == "ink!\n")
        // Deleted by another session since: nothing to delete, said by the caller.
        try database.psql("DELETE FROM items WHERE id = 2")
        #expect(try replica.delete(restored).isEmpty)
    }
}
