import FaultInjection
import FetchedResultsUI
import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FetchedTableKit

/// Writes through a SQLite query's result (``QueryWrites``: `e`, `d` and `a` on the rows of one
/// table) under every injected I/O failure (README: Reliability), in a rollback-journal file and
/// a WAL one: a failed write leaves the file as it was, is said in the words the table's own
/// editor, delete and form use ("the disk is full"), leaves the undo stack as it was (nothing
/// pending, the change before still the one `u` undoes), and the same write again — the fault
/// gone — is written exactly once.
@Suite struct QueryWriteFaultTests {
    static let shop = """
        CREATE TABLE orders (id INTEGER PRIMARY KEY, name TEXT NOT NULL, qty INTEGER, customer INTEGER);
        INSERT INTO orders VALUES (1, 'pen', 3, 1), (2, 'ink', 0, 1), (3, 'pad', 5, 1);
        """

    /// The shop file in `journal` mode (`DELETE` or `WAL`).
    static func template(journal: String) throws -> FileTemplate {
        try FileTemplate("shop.sqlite") { path in
            var options = Database.Options()
            options.walMode = false
            let db = try Database(path: path, options: options)
            try db.execute(shop)
            _ = try db.scalar("PRAGMA journal_mode = \(journal)")
        }
    }

    /// The name the change made before the one under test is undone by.
    static let before = "Edited qty of “pen”"

    /// A query's result over the shop, opened as the browser opens it, with its writer, after one
    /// change through it (so that the undo stack holds one).
    final class Result {
        let source: QuerySource
        let writes: QueryWrites
        let rows: [ManagedObject]

        init(_ path: String) throws {
            source = try QuerySource.prepare(sql: "SELECT id, name, qty FROM orders WHERE qty > 0", file: path)
            try source.load(options: TableOptions(file: path))
            let database = try TableDatabase.queryResult(source, path: path, writeRefusal: nil)
            writes = try #require(source.writes)
            let table = try #require(database.tables.first)
            let opened = try database.open(table, options: TableOptions(file: path))
            rows = try ObjectContext(store: opened.store).fetch(table.name, orderBy: "id")
            try writes.edit(rows[0], column: "qty", value: .integer(4), shown: .integer(3), actionName: before)
        }
    }

    /// A write through the result: `e` on pad's name, `d` on pad, `a` of a row.
    enum Write: String, CaseIterable, CustomTestStringConvertible {
        case edit, delete, add

        var testDescription: String { rawValue }

        /// The name it is saved under, for undo.
        var actionName: String {
            switch self {
            case .edit: "Edited name of “pad”"
            case .delete: "Deleted “pad”"
            case .add: "Added “cap”"
            }
        }

        func run(on result: Result) throws {
            switch self {
            case .edit:
                try result.writes.edit(
                    result.rows[1],
                    column: "name",
                    value: .text("pads"),
                    shown: .text("pad"),
                    actionName: actionName
                )
            case .delete:
                try result.writes.delete(result.rows[1], actionName: actionName)
            case .add:
                try result.writes.insert([("name", .text("cap")), ("qty", .integer(2))], actionName: actionName)
            }
        }
    }

    /// What the status line (or the form) says after "Not saved: " or "Could not delete “pad”: "
    /// — as the list and the form render a refusal — and the words the table's own edit paths
    /// give for an error of the same kind.
    static func said(_ error: any Error) -> String { StoreFailure.reason(of: error) }

    /// The words a failed write of the file is said in, whichever path made it.
    static func isStoreFailureWording(_ text: String) -> Bool {
        text == "the disk is full" || text.hasPrefix("the file could not be ")
            || text == "another program is writing to the file (it did not finish in time); try again"
    }

    @Test(arguments: Write.allCases, ["DELETE", "WAL"])
    func aWriteThroughAQueryResultThatFailsChangesNothingSaysWhyAndIsDoneOnceWhenTriedAgain(
        write: Write,
        journal: String
    ) throws {
        let outcome = try WriteUnderFaults<Result>(
            template: try Self.template(journal: journal),
            open: { try Result($0) },
            operation: { try write.run(on: $0) },
            afterFailure: { result, error in
                var problems: [String] = []
                let context = result.writes.context
                if context.hasChanges { problems.append("the failed write is still pending in the context") }
                if context.undoActionName != Self.before {
                    problems.append("u would undo \(context.undoActionName ?? "nothing"), not \(Self.before)")
                }
                if context.canRedo { problems.append("the failed write left something to redo") }
                let said = Self.said(error)
                if !Self.isStoreFailureWording(said) { problems.append("said as “\(said)”") }
                return problems
            },
            retry: { result in
                try write.run(on: result)
                let undone = result.writes.context.undoActionName ?? "nothing"
                guard undone == write.actionName else {
                    throw QueryWriteRefusal(description: "after the retry u undoes \(undone)")
                }
            }
        ).run()
        #expect(outcome.problems.isEmpty, "\(outcome)")
        #expect(outcome.summary.fired(.write) > 0 && outcome.failuresReported > 0, "\(outcome)")
    }

    @Test func theTablesOwnEditorAndFormSayAFullDiskInTheSameWords() {
        let full = SQLiteError(code: sqliteFull, message: "database or disk is full", systemErrno: ENOSPC)
        #expect(CellText.reason(for: full, column: "name") == "the disk is full")
        #expect(StoreFailure.reason(of: full) == "the disk is full")
    }
}

/// `SQLITE_FULL` (sqlite3.h's 13), without importing the C module here.
private let sqliteFull: Int32 = 13
