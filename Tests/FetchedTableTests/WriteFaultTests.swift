import FaultInjection
import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FetchedTableKit

/// fetchedtable's writes under every injected I/O failure (README: Reliability), in a file
/// another program made — with the rollback journal (fetchedtable leaves a file's journal
/// mode as it is) and in WAL: the browser's delete (its cascade and an audit trigger
/// included), its undo, and `--track` installing the tracking triggers. A failure is
/// reported, the file is as it was, and the same action again completes.
@Suite struct WriteFaultTests {
    static let school = """
        PRAGMA foreign_keys = ON;
        CREATE TABLE student (id INTEGER PRIMARY KEY, name TEXT NOT NULL, number INTEGER);
        CREATE TABLE grade (id INTEGER PRIMARY KEY, student_id INTEGER REFERENCES student(id) ON DELETE CASCADE, mark INTEGER);
        CREATE TABLE audit (id INTEGER PRIMARY KEY, what TEXT);
        CREATE TRIGGER student_gone AFTER DELETE ON student BEGIN
          INSERT INTO audit(what) VALUES ('deleted ' || old.name);
        END;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
        INSERT INTO student(name, number) SELECT 'Student ' || i, i FROM n;
        INSERT INTO grade(student_id, mark) SELECT id, number % 6 FROM student;
        """

    /// The school file in `journal` mode (`DELETE` or `WAL`).
    static func template(journal: String) throws -> FileTemplate {
        try FileTemplate("school.sqlite") { path in
            var options = Database.Options()
            options.walMode = false
            let db = try Database(path: path, options: options)
            try db.execute(school)
            _ = try db.scalar("PRAGMA journal_mode = \(journal)")
        }
    }

    /// The table `student` open as the browser opens it, and a context over it.
    final class Browser {
        let table: OpenedTable
        let context: ObjectContext
        let student: ManagedObject

        init(_ path: String) throws {
            let database = try TableDatabase.open(options: TableOptions(file: path))
            table = try database.open(try database.table(named: "student"), options: TableOptions(file: path))
            context = ObjectContext(store: table.store)
            student = try #require(try context.object(with: ObjectID(entity: "student", rowID: 7)))
        }

        func delete() throws {
            context.delete(student)
            try context.save(actionName: "Deleted Student 7")
        }
    }

    @Test(arguments: ["DELETE", "WAL"])
    func aDeleteThatFailsChangesNothingAndStaysPending(journal: String) throws {
        let outcome = try WriteUnderFaults<Browser>(
            template: try Self.template(journal: journal),
            open: { try Browser($0) },
            operation: { try $0.delete() },
            afterFailure: { browser, _ in
                browser.student.isDeleted && browser.context.hasChanges ? [] : ["the delete is no longer pending"]
            },
            retry: { try $0.context.save(actionName: "Deleted Student 7") }
        ).run()
        #expect(outcome.problems.isEmpty, "\(outcome)")
        #expect(outcome.summary.fired(.write) > 0 && outcome.failuresReported > 0, "\(outcome)")
    }

    @Test(arguments: ["DELETE", "WAL"])
    func anUndoOfADeleteThatFailsChangesNothingAndCanBeTriedAgain(journal: String) throws {
        let outcome = try WriteUnderFaults<Browser>(
            template: try Self.template(journal: journal),
            open: { path in
                let browser = try Browser(path)
                try browser.delete()
                return browser
            },
            operation: { try $0.context.undo() },
            afterFailure: { browser, _ in
                browser.context.undoActionName == "Deleted Student 7" ? [] : ["the undo is gone from the stack"]
            },
            retry: { try $0.context.undo() }
        ).run()
        #expect(outcome.problems.isEmpty, "\(outcome)")
        #expect(outcome.summary.fired(.write) > 0 && outcome.failuresReported > 0, "\(outcome)")
    }

    @Test(arguments: ["DELETE", "WAL"])
    func trackingThatFailsToInstallLeavesTheFileWithoutIt(journal: String) throws {
        var options = TableOptions(file: "")
        options.track = true
        let outcome = try WriteUnderFaults<TableDatabase>(
            template: try Self.template(journal: journal),
            open: { path in try TableDatabase.open(options: TableOptions(file: path)) },
            operation: { database in _ = try database.open(try database.table(named: "student"), options: options) },
            retry: { database in _ = try database.open(try database.table(named: "student"), options: options) }
        ).run()
        #expect(outcome.problems.isEmpty, "\(outcome)")
        #expect(outcome.summary.fired(.write) > 0 && outcome.failuresReported > 0, "\(outcome)")
    }
}
