import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore
import TestSupport
import Testing

/// Writes the server itself fails: a trigger on the table raises what a full disk
/// (`disk_full`, SQLSTATE 53100) or a concurrent transaction (`serialization_failure`, 40001)
/// makes PostgreSQL raise, while a flag table holds a row (``ServerWriteFault``). Through a
/// table's copy (``PostgresReplica``) and through the writes a query's result makes
/// (``TableWrites``): an edit, a delete and an add, and the undo and redo of each, fail with the
/// server's SQLSTATE and words, leave the server's row and the copy as they were, and — the
/// fault gone — the same write again is made exactly once.
@Suite(.enabled(if: serverAvailable, "needs Debian's postgresql binaries"))
struct ServerWriteFaultTests {
    static let items = """
        CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL, qty int);
        INSERT INTO items VALUES (1, 'pen', 3), (2, 'ink', 0), (3, 'pad', 5);
        """

    static func loaded(_ database: ReplicaTestDatabase) throws -> (PostgresReplica, ReplicaTable) {
        let replica = PostgresReplica(
            connectionString: database.uri,
            table: TableName(schema: "public", name: "items"),
            cacheDirectory: try makeCacheDirectory(),
            timeout: 5,
            timeZone: "UTC"
        )
        return (replica, try replica.load())
    }

    /// Expects `write` to fail with the server's refusal of `fault` (its SQLSTATE and words).
    static func expectRefused(
        _ what: String,
        by fault: ServerWriteFault,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ write: () throws -> Void
    ) {
        do {
            try write()
            Issue.record("\(what) went through the fault", sourceLocation: sourceLocation)
        } catch ReplicaError.server(.statementFailed(let state, let message, _)),
            PostgresError.statementFailed(let state, let message, _)
        {
            // A copy's writes wrap the server's error (ReplicaError.server); TableWrites' throw it as it came.
            #expect(state == fault.sqlState && message == fault.message, "\(what)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(what) failed otherwise: \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: ServerWriteFault.allCases)
    func aCopysWritesTheServerFailsChangeNothingAndAreMadeOnceWhenTriedAgain(fault: ServerWriteFault) throws {
        let database = try ReplicaTestDatabase()
        try database.psql(Self.items + ServerWriteFault.harness(on: "items"))
        let (replica, table) = try Self.loaded(database)
        let server = try database.psql("SELECT * FROM items ORDER BY id")
        let copy = try replicaRows(table, orderBy: "id")
        func unchanged(_ what: String) throws {
            #expect(try database.psql("SELECT * FROM items ORDER BY id") == server, "the server after \(what)")
            #expect(try replicaRows(table, orderBy: "id") == copy, "the copy after \(what)")
        }

        try database.psql(fault.arm)
        Self.expectRefused("the edit", by: fault) {
            _ = try replica.update(rowID: 1, column: "qty", to: "7", expecting: .shown(.integer(3)))
        }
        try unchanged("the edit")
        Self.expectRefused("the delete", by: fault) { _ = try replica.delete(rowIDs: [3]) }
        try unchanged("the delete")
        Self.expectRefused("the add", by: fault) { _ = try replica.insert(["id": "4", "name": "cap", "qty": "4"]) }
        try unchanged("the add")

        // Tried again once the fault is gone: each made once.
        try database.psql(ServerWriteFault.disarm)
        let edit = try replica.update(rowID: 1, column: "qty", to: "7", expecting: .shown(.integer(3)))
        let deleted = try replica.delete(rowIDs: [3])
        let added = try replica.insert(["id": "4", "name": "cap", "qty": "4"])
        let written = "1|pen|7\n2|ink|0\n4|cap|4\n"
        #expect(try database.psql("SELECT * FROM items ORDER BY id") == written)
        let writtenCopy = try replicaRows(table, orderBy: "id")
        #expect(writtenCopy.count == 3)

        // Their undo, failed by the server: nothing changed; tried again: undone.
        try database.psql(fault.arm)
        Self.expectRefused("the undo of the edit", by: fault) { _ = try replica.revert(edit) }
        Self.expectRefused("the undo of the delete", by: fault) { _ = try replica.restore(deleted) }
        Self.expectRefused("the undo of the add", by: fault) { _ = try replica.delete([added]) }
        #expect(try database.psql("SELECT * FROM items ORDER BY id") == written)
        #expect(try replicaRows(table, orderBy: "id") == writtenCopy)
        try database.psql(ServerWriteFault.disarm)
        let editRedo = try replica.revert(edit)
        let deleteRedo = try replica.restore(deleted)
        let addRedo = try replica.delete([added])
        try unchanged("the undo")

        // Their redo, failed by the server, then made.
        try database.psql(fault.arm)
        Self.expectRefused("the redo of the edit", by: fault) { _ = try replica.revert(editRedo) }
        Self.expectRefused("the redo of the delete", by: fault) { _ = try replica.delete(deleteRedo) }
        Self.expectRefused("the redo of the add", by: fault) { _ = try replica.restore(addRedo) }
        try unchanged("the failed redo")
        try database.psql(ServerWriteFault.disarm)
        _ = try replica.revert(editRedo)
        _ = try replica.delete(deleteRedo)
        _ = try replica.restore(addRedo)
        #expect(try database.psql("SELECT * FROM items ORDER BY id") == written)
        #expect(try replicaRows(table, orderBy: "id") == writtenCopy)
    }

    @Test(arguments: ServerWriteFault.allCases)
    func aQueryResultsWritesTheServerFailsChangeNothingAndAreMadeOnceWhenTriedAgain(fault: ServerWriteFault) throws {
        let database = try ReplicaTestDatabase()
        try database.psql(Self.items + ServerWriteFault.harness(on: "items"))
        let connection = try database.connect()
        let writes = TableWrites(table: try #require(try Catalog.table(named: "items", on: connection)))
        let server = try database.psql("SELECT * FROM items ORDER BY id")

        try database.psql(fault.arm)
        Self.expectRefused("the edit", by: fault) {
            _ = try writes.update(key: ["1"], column: "qty", to: "7", expecting: .shown(.integer(3)), on: connection)
                .get()
        }
        Self.expectRefused("the delete", by: fault) {
            _ = try writes.delete(keys: [["3"]], shown: ["name": .text("pad")], on: connection)
        }
        Self.expectRefused("the add", by: fault) {
            _ = try writes.insert(["id": "4", "name": "cap", "qty": "4"], on: connection)
        }
        #expect(try database.psql("SELECT * FROM items ORDER BY id") == server)

        // The connection is usable after each refusal (no transaction left open), and the same
        // writes, tried again, are made once; their undo fails, then is made.
        try database.psql(ServerWriteFault.disarm)
        let edit = try writes.update(key: ["1"], column: "qty", to: "7", expecting: .shown(.integer(3)), on: connection)
            .get()
        let deleted = try writes.delete(keys: [["3"]], shown: ["name": .text("pad")], on: connection)
        let added = try writes.insert(["id": "4", "name": "cap", "qty": "4"], on: connection)
        let written = "1|pen|7\n2|ink|0\n4|cap|4\n"
        #expect(try database.psql("SELECT * FROM items ORDER BY id") == written)
        try database.psql(fault.arm)
        Self.expectRefused("the undo of the edit", by: fault) { _ = try writes.revert(edit, on: connection).get() }
        Self.expectRefused("the undo of the delete", by: fault) { _ = try writes.restore(deleted, on: connection) }
        Self.expectRefused("the undo of the add", by: fault) { _ = try writes.delete([added], on: connection) }
        #expect(try database.psql("SELECT * FROM items ORDER BY id") == written)
        try database.psql(ServerWriteFault.disarm)
        _ = try writes.revert(edit, on: connection).get()
        _ = try writes.restore(deleted, on: connection)
        _ = try writes.delete([added], on: connection)
        #expect(try database.psql("SELECT * FROM items ORDER BY id") == server)
    }
}
