import Foundation
import PostgreSQLClient
import PostgreSQLReplica
import SQLiteStore
import TestSupport
import Testing

/// Writes through a PostgreSQL query's result whose rows are one table's, by its key: the
/// result knows the table, its key and its plain columns; the guarded write the table's copy
/// uses (``TableWrites``) changes the server only over the value shown, a changed or deleted row
/// is a named conflict with nothing overwritten, and the result shows the write once re-run. A
/// join's, a grouped and a keyless result say why their rows are no table's.
@Suite(.enabled(if: serverAvailable))
struct PostgresQueryWritesTests {
    static let schema = """
        CREATE TABLE customers (id bigint PRIMARY KEY, name text);
        CREATE TABLE orders (id bigint PRIMARY KEY, name text NOT NULL, qty int CHECK (qty >= 0), customer bigint);
        INSERT INTO customers VALUES (1, 'Ito');
        INSERT INTO orders VALUES (1, 'pen', 3, 1), (2, 'ink', 0, 1), (3, 'pad', 5, 1);
        """

    static func query(_ database: ReplicaTestDatabase, _ sql: String) throws -> PostgresLiveQuery {
        try PostgresLiveQuery(
            connection: try database.connect(),
            sql: sql,
            resultPath: try makeCacheDirectory() + "/result.sqlite"
        )
    }

    @Test func anEditThroughAOneTableResultIsGuardedByTheValueShownAndTheReRunShowsIt() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(Self.schema)
        let live = try Self.query(database, "SELECT id, name, qty * 2 AS double, qty FROM orders WHERE qty > 0")
        let mapping = try #require(live.sourceTable, "\(live.sourceTableRefusal ?? "")")
        #expect(mapping.table == "orders" && mapping.keyColumns.map(\.result) == ["id"])
        #expect(mapping.changeRefusal == nil)
        let plain = live.columns.map { $0.sourceColumn ?? "-" }
        #expect(plain == ["id", "name", "-", "qty"], "double is computed, the others orders' columns")
        try live.load()
        let connection = try database.connect()
        let table = try #require(try Catalog.table(named: mapping.table, on: connection))
        let writes = TableWrites(table: table)

        // The value shown: written.
        let edit = try writes.update(key: ["1"], column: "qty", to: "7", expecting: .shown(.integer(3)), on: connection)
            .get()
        #expect(try database.psql("SELECT qty FROM orders WHERE id = 1") == "7\n")
        let change = try #require(live.runAgain(tables: []))
        guard case .refreshed(let refresh) = change else {
            Issue.record("the re-run failed: \(change)")
            return
        }
        #expect(refresh.change.updated == 1, "\(refresh.change)")

        // Another session's value since: a conflict, theirs kept.
        try database.psql("UPDATE orders SET qty = 9 WHERE id = 3")
        let conflict = try writes.update(
            key: ["3"],
            column: "qty",
            to: "6",
            expecting: .shown(.integer(5)),
            on: connection
        )
        #expect(Self.conflictReason(conflict) == "qty was changed by another session since it was shown")
        #expect(try database.psql("SELECT qty FROM orders WHERE id = 3") == "9\n")
        // A row deleted since: a conflict.
        try database.psql("DELETE FROM orders WHERE id = 3")
        let gone = try writes.update(key: ["3"], column: "qty", to: "6", expecting: .shown(.integer(9)), on: connection)
        #expect(Self.conflictReason(gone) == "another session deleted the row since it was shown")

        // Undo writes back the value before, only over the value written; then delete and restore.
        _ = try writes.revert(edit, on: connection).get()
        #expect(try database.psql("SELECT qty FROM orders WHERE id = 1") == "3\n")
        // A delete guarded by the values shown: another session's value since is a conflict, the row kept.
        #expect {
            _ = try writes.delete(keys: [["2"]], shown: ["qty": .integer(1)], on: connection)
        } throws: { error in
            guard case ReplicaError.conflict(let reason) = error else { return false }
            return reason == "qty was changed by another session since it was shown; nothing was deleted"
        }
        #expect(try database.psql("SELECT count(*) FROM orders WHERE id = 2") == "1\n")
        let deleted = try writes.delete(
            keys: [["1"]],
            shown: ["qty": .integer(3), "name": .text("pen")],
            on: connection
        )
        #expect(deleted.count == 1)
        #expect(try database.psql("SELECT count(*) FROM orders WHERE id = 1") == "0\n")
        #expect(try writes.restore(deleted, on: connection).map(\.key) == [["1"]])
        #expect(try database.psql("SELECT name, qty FROM orders WHERE id = 1") == "pen|3\n")
    }

    @Test func undoOfARowAddedThroughAResultDeletesItOnlyWhileItHoldsWhatWasInserted() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(Self.schema)
        let connection = try database.connect()
        let table = try #require(try Catalog.table(named: "orders", on: connection))
        let writes = TableWrites(table: table)
        let added = try writes.insert(["id": "4", "name": "cap", "qty": "4"], on: connection)
        #expect(added.key == ["4"])
        // Another session changes the row: undo is a conflict, the row kept as theirs.
        try database.psql("UPDATE orders SET customer = 7 WHERE id = 4")
        #expect {
            _ = try writes.delete([added], on: connection)
        } throws: { error in
            guard case ReplicaError.conflict(let reason) = error else { return false }
            return reason == "customer was changed by another session since it was added: not deleted"
        }
        #expect(try database.psql("SELECT name, qty, customer FROM orders WHERE id = 4") == "cap|4|7\n")
        // As inserted again: deleted, and its redo writes it back.
        try database.psql("UPDATE orders SET customer = NULL WHERE id = 4")
        let deleted = try writes.delete([added], on: connection)
        #expect(deleted.count == 1)
        #expect(try database.psql("SELECT count(*) FROM orders WHERE id = 4") == "0\n")
        #expect(try writes.restore(deleted, on: connection).map(\.key) == [["4"]])
        #expect(try database.psql("SELECT name, qty FROM orders WHERE id = 4") == "cap|4\n")
    }

    /// The reason of a write's conflict, nil when it was no conflict.
    static func conflictReason(_ outcome: Result<EditedCell, ReplicaError>) -> String? {
        guard case .failure(.conflict(let reason)) = outcome else { return nil }
        return reason
    }

    /// A result's numeric, timestamp, timestamptz and boolean cells, as the result holds them
    /// (the server's text; a boolean as 1 or 0), written through the guarded edit: saved as psql
    /// reads them back, a value not of the type refused by the server naming the type, and the
    /// undo restoring psql's exact text.
    @Test func numericTimestampAndBooleanCellsOfAResultAreEditedRefusedByTypeAndUndoneExactly() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(
            """
            CREATE TABLE items (id bigint PRIMARY KEY, price numeric(10,2), placed timestamptz, due timestamp, paid boolean);
            INSERT INTO items VALUES (1, 12.50, '2024-03-01 10:00:00.25+00', '2024-03-02 08:30:00', true);
            """
        )
        let live = try Self.query(database, "SELECT id, price, placed, due, paid FROM items")
        try live.load()
        let names = ["price", "placed", "due", "paid"]
        let row = try #require(
            try Database.openForQueries(path: live.result.path).query(
                "SELECT \(names.map { "\"\($0)\"" }.joined(separator: ", ")) FROM query_result"
            ).first
        )
        let shown = Dictionary(uniqueKeysWithValues: zip(names, row))
        #expect(shown["paid"] == .integer(1), "a boolean as 1 or 0: \(row)")
        let connection = try database.connect()
        let table = try #require(try Catalog.table(named: "items", on: connection))
        let writes = TableWrites(table: table)
        let edits: [(column: String, typed: String, sameAs: String)] = [
            ("price", "7.5", "7.50"),
            ("placed", "2024-05-01 12:00:00+02", "'2024-05-01 10:00:00+00'::timestamptz"),
            ("due", "2024-06-01 09:15:00", "'2024-06-01 09:15:00'::timestamp"),
            ("paid", "false", "false"),
        ]
        for edit in edits {
            let select = "SELECT \(edit.column) FROM items WHERE id = 1"
            let before = try database.psql(select)
            let value = try #require(shown[edit.column])
            let outcome = try writes.update(
                key: ["1"],
                column: edit.column,
                to: edit.typed,
                expecting: .shown(value),
                on: connection
            )
            let written = try #require(try? outcome.get(), "\(edit.column) shown as \(value): \(outcome)")
            let same = "SELECT \(edit.column) = \(edit.sameAs) FROM items WHERE id = 1"
            let after = try database.psql(select)
            #expect(try database.psql(same) == "t\n", "\(edit.column): \(after)")
            // u: psql's exact text before.
            _ = try writes.revert(written, on: connection).get()
            #expect(try database.psql(select) == before, "\(edit.column) undone")
        }
        // Not a value of the column's type: the server's refusal names the type; nothing written.
        for (column, typed, type) in [("price", "abc", "numeric"), ("paid", "maybe", "boolean")] {
            let value = try #require(shown[column])
            #expect {
                _ = try writes.update(key: ["1"], column: column, to: typed, expecting: .shown(value), on: connection)
            } throws: { error in
                "\(error)".contains("invalid input syntax for type \(type)")
            }
        }
        #expect(try database.psql("SELECT price, paid FROM items WHERE id = 1") == "12.50|t\n")
        // d, guarded by the values the result shows (a timestamptz with its offset among them): deleted.
        let deleted = try writes.delete(keys: [["1"]], shown: shown, on: connection)
        #expect(deleted.count == 1)
        #expect(try database.psql("SELECT count(*) FROM items") == "0\n")
    }

    @Test func joinsGroupsAndAMissingKeySayWhyTheRowsAreNoTables() throws {
        let database = try ReplicaTestDatabase()
        try database.psql(Self.schema)
        let join = try Self.query(
            database,
            "SELECT o.id, o.qty, c.name AS customer FROM orders o JOIN customers c ON c.id = o.customer"
        )
        #expect(join.sourceTable == nil)
        #expect(join.sourceTableRefusal == "its rows come from a join of orders and customers")
        let keyless = try Self.query(database, "SELECT name, qty FROM orders")
        #expect(keyless.sourceTableRefusal == "it does not return orders' key (id): add it to the SELECT")
        let grouped = try Self.query(database, "SELECT DISTINCT id, name FROM orders")
        #expect(grouped.sourceTable?.changeRefusal != nil, "DISTINCT: \(String(describing: grouped.sourceTable))")
    }
}
