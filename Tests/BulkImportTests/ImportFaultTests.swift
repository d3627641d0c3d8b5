import BulkImport
import FaultInjection
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// A CSV import under every injected I/O failure (README: Reliability), on both of its
/// paths: the bulk load into an empty table (rollback journal for the load) and the upsert
/// into a table with rows. A failed import reports it, leaves the file as it was, and the
/// same import run again brings exactly what a run without faults brings.
@Suite struct ImportFaultTests {
    let folder = TemporaryDirectory("import-faults")

    /// 300 students, one subject of five each.
    func csv() throws -> String {
        let path = folder.path("students.csv")
        var text = "Name,Number,Subject\n"
        for i in 1...300 { text += "Student \(i),\(i),subject \(i % 5)\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The student store, empty or with the first `rows` students (half of them with another subject).
    static func template(rows: Int) throws -> FileTemplate {
        try FileTemplate("students.sqlite") { path in
            let store = try Store(path: path, model: StudentModel.model)
            try store.database.transaction {
                for i in stride(from: 1, through: rows, by: 1) {
                    try store.database.run(
                        "INSERT INTO student(name, number, subject) VALUES (?, ?, ?)",
                        [.text("Student \(i)"), .integer(Int64(i)), .text(i % 2 == 0 ? "Old" : "Subject \(i % 5)")]
                    )
                }
            }
        }
    }

    func sweep(into template: FileTemplate) throws -> WriteUnderFaults<EntityImporter>.Outcome {
        let csv = try csv()
        return try WriteUnderFaults<EntityImporter>(
            template: template,
            open: {
                EntityImporter(store: try Store(path: $0, model: StudentModel.model), mapping: StudentModel.mapping)
            },
            operation: { _ = try $0.importFile(csv) },
            retry: { _ = try $0.importFile(csv) }
        ).run()
    }

    @Test func aBulkLoadIntoAnEmptyTableThatFailsLeavesItEmpty() throws {
        let outcome = try sweep(into: try Self.template(rows: 0))
        #expect(outcome.problems.isEmpty, "\(outcome)")
        #expect(outcome.summary.fired(.write) > 0 && outcome.failuresReported > 0, "\(outcome)")
    }

    @Test func anUpsertThatFailsChangesNoRow() throws {
        let outcome = try sweep(into: try Self.template(rows: 200))
        #expect(outcome.problems.isEmpty, "\(outcome)")
        #expect(outcome.summary.fired(.write) > 0 && outcome.failuresReported > 0, "\(outcome)")
    }
}
