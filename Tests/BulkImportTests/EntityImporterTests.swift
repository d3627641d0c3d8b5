import BulkImport
import CSVImport
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// A one-entity model: the students of the tutorial, keyed on their number.
enum StudentModel {
    static let student = Entity(
        "Student",
        attributes: [
            Attribute("name", .text), Attribute("number", .integer, indexed: true),
            Attribute("subject", .text, optional: true),
        ],
        uniqueKeys: [["number"]]
    )
    static let model = Model(version: 1, applicationID: 0x5354_4455, entities: [student])

    static let mapping = EntityMapping(
        table: "student",
        key: "number",
        fields: [
            ImportField(CSVColumn("Name", aliases: ["Student"]), to: "name", requiresValue: true),
            ImportField(CSVColumn("Number", aliases: ["No"]), to: "number", parse: ImportField.integer),
            ImportField(CSVColumn("Subject", required: false), to: "subject", parse: { .text($0.capitalized) }),
        ]
    )
}

@Suite struct EntityImporterTests {
    let folder = TemporaryDirectory("bulkimport")
    var directory: String { folder.path }

    func file(_ name: String, _ text: String) throws -> String {
        let path = directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func students(_ store: Store) throws -> [[StoreValue]] {
        try store.database.query("SELECT name, number, subject FROM student ORDER BY number")
    }

    @Test func aFileIsImportedThroughTheMappingThenUpserted() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Store(path: directory + "/s.sqlite", model: StudentModel.model)
        let importer = EntityImporter(store: store, mapping: StudentModel.mapping)
        // "Student" is an alias of Name; the subject's parser capitalizes.
        let first = try importer.importFile(
            try file("a.csv", "Student,Number,Subject\nAda,1,maths\n Grace ,2,physics\nAlan,3,\n")
        )
        #expect(first.added == 3 && first.updated == 0 && first.unchanged == 0)
        #expect(first.usedBulkLoad)
        #expect(
            try students(store) == [
                [.text("Ada"), .integer(1), .text("Maths")],
                [.text("Grace"), .integer(2), .text("Physics")],
                [.text("Alan"), .integer(3), .null],
            ]
        )
        // The deferred index was rebuilt.
        #expect(
            try store.database.scalar(
                "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'student'"
            ).int64 ?? 0 >= 1
        )

        // An upsert: one new, one changed, two unchanged (the column order differs, the key matches).
        let second = try importer.importFile(
            try file("b.csv", "Number,Name,Subject\n1,Ada,maths\n2,Grace,chemistry\n3,Alan,\n4,Edsger,logic\n")
        )
        #expect(second.added == 1 && second.updated == 1 && second.unchanged == 2)
        #expect(!second.usedBulkLoad)
        #expect(
            second.summaryLine.hasPrefix(
                "imported 4 rows from \(directory)/b.csv: 1 added, 1 updated, 2 unchanged, 0 skipped in "
            )
        )
        #expect(try students(store)[1] == [.text("Grace"), .integer(2), .text("Chemistry")])
        #expect(try students(store).count == 4)
    }

    @Test func aBadRowIsReportedAtItsLineAndNothingIsImported() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Store(path: directory + "/s.sqlite", model: StudentModel.model)
        let importer = EntityImporter(store: store, mapping: StudentModel.mapping)
        _ = try importer.importFile(try file("a.csv", "Name,No\nAda,1\n"))
        let bad = try file(
            "bad.csv",
            "Name,Number,Subject\nGrace,2,physics\nAlan,x7,maths\n,5,art\nEdsger,2,logic\nBarbara,6\n"
        )
        do {
            _ = try importer.importFile(bad)
            Issue.record("a file with bad rows was imported")
        } catch let error as EntityImportError {
            #expect(error.exitStatus == 65)
            #expect(
                error.messages == [
                    "\(bad):3: not a whole number (column \"Number\", value \"x7\")",
                    "\(bad):4: missing name (column \"Name\", value \"\")",
                    "\(bad):5: duplicate number (column \"Number\", value \"2\")",
                    "\(bad):6: expected 3 fields, found 2",
                    "\(bad): nothing imported: 4 bad rows",
                ]
            )
        }
        // All or nothing: Grace (a good row of the bad file) was not written.
        #expect(try students(store) == [[.text("Ada"), .integer(1), .null]])

        // With skipBadRows the good rows go in and the bad ones are listed.
        var options = ImportOptions()
        options.skipBadRows = true
        let summary = try importer.importFile(bad, options: options)
        #expect(summary.added == 1 && summary.skipped == 4 && summary.issues.count == 4)
        #expect(try students(store).count == 2)
    }

    @Test func aMissingColumnIsRefusedOnLineOne() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Store(path: directory + "/s.sqlite", model: StudentModel.model)
        let path = try file("a.csv", "Name,Subject\nAda,maths\n")
        #expect {
            _ = try EntityImporter(store: store, mapping: StudentModel.mapping).importFile(path)
        } throws: { error in
            (error as? EntityImportError)?.messages == [
                "\(path):1: missing required column \"Number\" (header: \"Name\", \"Subject\")"
            ]
        }
    }

    @Test func theKeySetFindsRepeatsInAndOutsideTheBitmap() {
        var set = KeySet()
        for value: Int64 in [0, 63, 64, KeySet.bitmapLimit - 1, KeySet.bitmapLimit, -5, Int64.max] {
            let first = set.insert(value)
            let second = set.insert(value)
            #expect(first)
            #expect(!second)
        }
        #expect(!set.contains(2))
    }
}
