import BulkImport
import CSVImport
import FetchedResults
import FetchedResultsScripts
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// Rows saved as a list shows them (``ViewExport``), in every format, read back by the
/// project's own readers: the same values, in the same order.
@Suite struct ViewExportTests {
    static let item = Entity(
        "Item",
        attributes: [
            Attribute("name", .text, optional: true), Attribute("count", .integer, optional: true),
            Attribute("price", .real, optional: true), Attribute("added", .date, optional: true),
            Attribute("done", .bool, optional: true), Attribute("kind", .text, optional: true),
        ]
    )
    static let model = Model(version: 1, applicationID: 0x4954_454D, entities: [item])

    /// Names that a CSV or TSV file must quote, or that a careless writer would break.
    static let rows: [[StoreValue]] = [
        [.text("plain"), .integer(3), .real(1.5), .text("2024-01-05"), .integer(1), .text("a")],
        [.text("comma, quote \" and\r\nline"), .integer(-7), .real(0.1), .null, .integer(0), .text("a")],
        [.text("tab\there ünïcødé 🦀"), .null, .real(1e-5), .text("2025-12-31"), .null, .text("b")],
        [.text(""), .integer(0), .real(3), .text("2000-02-29"), .integer(1), .text("b")],
    ]

    let directory = TemporaryDirectory("export")
    let store: Store

    init() throws {
        store = try Store(path: directory.path("items.sqlite"), model: ViewExportTests.model)
        let context = ObjectContext(store: store)
        for row in ViewExportTests.rows {
            let item = context.insert(into: "Item")
            for (attribute, value) in zip(ViewExportTests.item.attributes, row) { item[attribute.name] = value }
        }
        try context.save()
    }

    /// Every column, the rows in the order 4, 2, 1, 3 (as a sort would show them).
    func export(sections: Bool = false) -> ViewExport {
        var export = ViewExport(
            databasePath: store.path,
            model: store.model,
            entity: "Item",
            columns: ["name", "count", "price", "added", "done"].map { ViewExport.Column(name: $0) },
            rowIDs: [4, 2, 1, 3]
        )
        if sections {
            export.sections = [.init(name: "b", count: 1), .init(name: "a", count: 2), .init(name: "b", count: 1)]
            export.sectionColumn = "kind"
        }
        return export
    }

    /// The rows in the export's order.
    var ordered: [[StoreValue]] { [3, 1, 0, 2].map { Array(ViewExportTests.rows[$0].prefix(5)) } }

    @Test func aCSVFileIsRFC4180AndReadsBackThroughTheProjectsReader() throws {
        let path = directory.path("items.csv")
        #expect(try export(sections: true).write(to: path, format: .csv) == 4)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("kind,name,count,price,added,done\r\n"))
        #expect(text.contains("a,\"comma, quote \"\" and\r\nline\",-7,0.1,,false\r\n"))
        let records = try CSVReader(path: path).readAll().map(\.fields)
        #expect(records.count == 5)
        #expect(records[0] == ["kind", "name", "count", "price", "added", "done"])
        #expect(
            records[1...].map { Array($0.dropFirst()) }
                == ordered.map { row in
                    row.enumerated().map { index, value in
                        index == 4
                            ? (value == .null ? "" : value == .integer(1) ? "true" : "false") : DisplayText.of(value)
                    }
                }
        )
        #expect(records[1...].map(\.first) == ["b", "a", "a", "b"])
        // Through the loader: the same numbers and dates, typed.
        let table = try CSVTableLoader(source: path, options: loaderOptions()).load()
        #expect(table.columns.map(\.type) == [.text, .text, .integer, .real, .date, .text])
        let db = try Database(path: table.databasePath)
        let counts = try db.query("SELECT count, price FROM items ORDER BY rowid")
        #expect(counts == ordered.map { [$0[1], $0[2] == .real(3) ? .real(3) : $0[2]] })
    }

    func loaderOptions() -> CSVTableLoader.Options {
        var options = CSVTableLoader.Options()
        options.cacheDirectory = directory.path("cache")
        return options
    }

    @Test func aTSVFileQuotesOnlyWhatItMust() throws {
        let path = directory.path("items.tsv")
        try export().write(to: path, format: .tsv)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("name\tcount\tprice\tadded\tdone\n\t0\t3.0\t2000-02-29\ttrue\n"))
        #expect(text.contains("\"tab\there ünïcødé 🦀\"\t\t1e-05\t2025-12-31\t\n"))
        let records = try CSVReader(path: path, delimiter: 0x09).readAll().map(\.fields)
        #expect(records.count == 5)
        #expect(records[2] == ["comma, quote \" and\r\nline", "-7", "0.1", "", "false"])
    }

    @Test func jsonLinesKeepTypesAndNullsAndReadBackThroughTheProjectsReader() throws {
        let path = directory.path("items.jsonl")
        try export(sections: true).write(to: path, format: .jsonLines)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(
            lines[0]
                == #"{"kind":"b","name":"","count":0,"price":3.0,"added":"2000-02-29","done":true}"#
        )
        #expect(
            lines[3]
                == #"{"kind":"b","name":"tab\there ünïcødé 🦀","count":null,"price":1e-05,"added":"2025-12-31","done":null}"#
        )
        let reader = try JSONRecordReader(path: path)
        let records = try reader.readAll()
        #expect(reader.keys == ["kind", "name", "count", "price", "added", "done"])
        #expect(records.map { $0.text(at: 1) } == ordered.map { DisplayText.of($0[0]) })
        #expect(records[1].kind(at: 2) == .number && records[2].kind(at: 5) == .true && records[3].kind(at: 2) == .null)
    }

    @Test func aSQLiteFileGetsANewTypedTable() throws {
        let path = directory.path("saved.sqlite")
        try export(sections: true).write(to: path, format: .sqlite)
        let db = try Database(path: path)
        #expect(
            try db.query("SELECT name, type FROM pragma_table_info('item') ORDER BY cid").map {
                $0.map { $0.string ?? "" }
            }
                == [
                    ["kind", "TEXT"], ["name", "TEXT"], ["count", "INTEGER"], ["price", "REAL"], ["added", "DATE"],
                    ["done", "BOOLEAN"],
                ]
        )
        #expect(try db.query("SELECT name, count, price, added, done FROM item ORDER BY rowid") == ordered)
        // Another table added to the same file; the same one again only when told.
        var other = export()
        other.tableName = "others"
        try other.write(to: path, format: .sqlite)
        #expect(try db.scalar("SELECT count(*) FROM others").int64 == 4)
        #expect(export().replaced(at: path, format: .sqlite) == .table("item"))
        #expect(throws: ViewExportError.exists(path: path, .table("item"))) {
            try export().write(to: path, format: .sqlite)
        }
        try export().write(to: path, format: .sqlite, replacing: .table("item"))
        #expect(try db.query("SELECT count(*) FROM pragma_table_info('item')") == [[.integer(5)]], "replaced")
    }

    @Test func aFileIsReplacedOnlyWhenToldAndAFailedSaveLeavesItAsItWas() throws {
        let path = directory.path("old.csv")
        try "old\r\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(export().replaced(at: path, format: .csv) == .file)
        #expect(throws: ViewExportError.exists(path: path, .file)) { try export().write(to: path, format: .csv) }
        #expect(throws: ViewExportError.cancelled) {
            try export().write(to: path, format: .csv, replacing: .file, isCancelled: { true })
        }
        var unknown = export()
        unknown.columns.append(.init(name: "x", keyPath: "nothing"))
        #expect(throws: (any Error).self) { try unknown.write(to: path, format: .csv, replacing: .file) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\r\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp-") }
        #expect(left.isEmpty, "no temporary file left: \(left)")
        try export().write(to: path, format: .csv, replacing: .file)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("name,count"))
    }

    @Test func rowsDeletedSinceTheSnapshotAreLeftOutAndProgressIsReported() throws {
        try store.database.execute("DELETE FROM item WHERE rowid = 2")
        var reports: [Int] = []
        var small = export(sections: true)
        small.batchSize = 2
        let written = try small.write(
            to: directory.path("left.jsonl"),
            format: .jsonLines,
            progress: { reports.append($0) }
        )
        #expect(written == 3)
        #expect(reports == [1, 3])
        let lines = try String(contentsOfFile: directory.path("left.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines.map { $0.prefix(10) } == [#"{"kind":"b"#, #"{"kind":"a"#, #"{"kind":"b"#])
    }

    @Test func aRecordOfOneEmptyFieldIsNotABlankLine() throws {
        var names = export()
        names.columns = [.init(name: "name")]
        let path = directory.path("names.csv")
        try names.write(to: path, format: .csv)
        #expect(
            try CSVReader(path: path).readAll().map(\.fields) == [
                ["name"], [""], ["comma, quote \" and\r\nline"], ["plain"], ["tab\there ünïcødé 🦀"],
            ]
        )
    }

    @Test func theFormatIsToldByTheExtension() {
        #expect(ExportFormat(path: "a/b.CSV") == .csv)
        #expect(ExportFormat(path: "b.tab") == .tsv)
        #expect(ExportFormat(path: "b.ndjson") == .jsonLines)
        #expect(ExportFormat(path: "~/x.db") == .sqlite)
        #expect(ExportFormat(path: "b.txt") == nil)
        #expect(ExportFormat(path: ".csv") == nil)
        #expect(ExportFormat(path: "csv") == nil)
    }
}
