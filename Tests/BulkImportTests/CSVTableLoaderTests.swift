import BulkImport
import CSVImport
import Foundation
import SQLiteStore
import TestSupport
import Testing

/// Files and databases for the tests of `CSVTableLoader`, in a fresh folder.
struct CSVLoaderFixture {
    let folder = TemporaryDirectory("csvtable")
    var directory: String { folder.path }

    var cacheDirectory: String { directory + "/cache" }

    func file(_ name: String, _ bytes: [UInt8]) -> String {
        let path = directory + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    func file(_ name: String, _ text: String) -> String { file(name, Array(text.utf8)) }

    func loader(_ path: String, table: String? = nil) -> CSVTableLoader {
        var options = CSVTableLoader.Options()
        options.cacheDirectory = cacheDirectory
        options.tableName = table
        return CSVTableLoader(source: path, options: options)
    }

    /// Every row of `table`, each value as SQLite holds it.
    func rows(_ table: CSVTable, orderBy: String = "rowid") throws -> [[StoreValue]] {
        let db = try Database(path: table.databasePath, options: readOnly)
        return try db.query("SELECT * FROM \(Database.quote(identifier: table.tableName)) ORDER BY \(orderBy)")
    }

    /// The SQLite storage class of every value, row after row.
    func storageClasses(_ table: CSVTable) throws -> [[String]] {
        let db = try Database(path: table.databasePath, options: readOnly)
        let list = table.columns.map { "typeof(\(Database.quote(identifier: $0.name)))" }.joined(separator: ", ")
        return try db.query("SELECT \(list) FROM \(Database.quote(identifier: table.tableName)) ORDER BY rowid")
            .map { $0.map { $0.string ?? "" } }
    }

    var readOnly: Database.Options {
        var options = Database.Options()
        options.readOnly = true
        options.create = false
        return options
    }

    /// The files in the cache folder.
    func cacheFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cacheDirectory)) ?? []).sorted()
    }

    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/csv-generic/\(name)").path
    }
}

@Suite struct CSVTableLoaderTests {
    let fixture = CSVLoaderFixture()

    @Test func loadsATypedTableNamedAfterTheFile() throws {
        let path = fixture.file(
            "people.csv",
            "id,name,height,born,seen\n1,Ada,1.65,1815-12-10,2024-01-05T10:00:00Z\n2,Bob,,1900-01-01,2024-01-06 11:30\n"
        )
        let table = try fixture.loader(path).load()
        #expect(table.tableName == "people")
        #expect(table.rowCount == 2)
        #expect(!table.wasReused)
        #expect(
            table.columns == [
                .init(name: "id", type: .integer), .init(name: "name", type: .text), .init(name: "height", type: .real),
                .init(name: "born", type: .date), .init(name: "seen", type: .dateTime),
            ]
        )
        #expect(table.columns.map(\.attributeType) == [.integer, .text, .real, .date, .dateTime])
        #expect(
            try fixture.rows(table) == [
                [.integer(1), .text("Ada"), .real(1.65), .text("1815-12-10"), .text("2024-01-05T10:00:00Z")],
                [.integer(2), .text("Bob"), .null, .text("1900-01-01"), .text("2024-01-06 11:30")],
            ]
        )
        // The types are declared in the schema too (for sqlite3 and for reopening the cache).
        let db = try Database(path: table.databasePath, options: fixture.readOnly)
        let declared = try db.query("SELECT type FROM pragma_table_info('people')").map { $0[0].string ?? "" }
        #expect(declared == ["INTEGER", "TEXT", "REAL", "DATE", "DATETIME"])
        #expect(try db.scalar("PRAGMA integrity_check").string == "ok")
    }

    @Test func aFileNamedLikeAStoresOwnTableOrAnAppsReservedOneGetsCSVAdded() throws {
        let standard = fixture.file("store_tracking.csv", "a\n1\n")
        #expect(fixture.loader(standard).tableName == "store_tracking_csv")
        let app = fixture.file("Books_History.csv", "a\n1\n")
        #expect(fixture.loader(app).tableName == "Books_History")
        var options = CSVTableLoader.Options()
        options.reservedTableNames.insert("books_history")
        #expect(CSVTableLoader(source: app, options: options).tableName == "Books_History_csv")
    }

    @Test func theFallbackCacheFolderIsNamedForTheApplication() throws {
        let uid = getuid()
        let named = try CSVCacheLocation.fallbackDirectory(for: "books-test")
        defer { rmdir(named) }
        #expect(named.hasSuffix("/books-test-cache-\(uid)"))
        let neutral = try CSVCacheLocation.fallbackDirectory()
        defer { rmdir(neutral) }
        #expect(neutral.hasSuffix("/csv-tables-cache-\(uid)"))
    }

    @Test func theEntityOpensTheTableInAForeignStoreWithoutChangingIt() throws {
        let path = fixture.file("store_history.csv", "id,Closing Date,amount\n7,2024-01-05,1.5\n8,2024-01-06,2\n")
        let table = try fixture.loader(path).load()
        #expect(table.tableName == "store_history_csv")
        #expect(table.entity.idColumn == "rowid")
        #expect(table.entity.attributes.map(\.columnName) == ["id", "Closing Date", "amount"])
        let before = FileManager.default.contents(atPath: table.databasePath)
        do {
            let store = try Store(foreignDatabaseAt: table.databasePath, model: table.model, readOnly: true)
            let objects = try ObjectContext(store: store).fetch(table.entity.name, orderBy: "rowid")
            #expect(objects.map { $0["Closing Date"] } == [.text("2024-01-05"), .text("2024-01-06")])
            #expect(objects.map { $0["id"] } == [.integer(7), .integer(8)])
            #expect(objects.map { $0["amount"] } == [.real(1.5), .real(2)])
        }
        #expect(FileManager.default.contents(atPath: table.databasePath) == before)
        #expect(fixture.cacheFiles().count == 1)  // no -wal, -shm or journal left
    }

    @Test func numbersInATextColumnKeepTheirText() throws {
        let path = fixture.file("codes.csv", "code,amount\n12,3.50\nA7,2\n0.25,1e1\n,\n")
        let table = try fixture.loader(path).load()
        #expect(table.columns.map(\.type) == [.text, .real])
        #expect(
            try fixture.rows(table) == [
                // The real column's values as written beside (the companion column), for display.
                [.text("12"), .real(3.5), .text("3.50")], [.text("A7"), .real(2), .text("2")],
                [.text("0.25"), .real(10), .text("1e1")], [.null, .null, .null],
            ]
        )
        #expect(
            try fixture.storageClasses(table) == [
                ["text", "real"], ["text", "real"], ["text", "real"], ["null", "null"],
            ]
        )
    }

    @Test func realsStoredAsNumbersInATextColumnGetTheirExactTextBack() throws {
        let values = ["x", "10.0", "0.0001", "123456.789", "-3.5", "99999999999999.9", "0.1", "-9223372036854775808"]
        let path = fixture.file("mixed.csv", "v\n" + values.joined(separator: "\n") + "\n")
        let table = try fixture.loader(path).load()
        #expect(table.columns.map(\.type) == [.text])
        #expect(try fixture.rows(table).map { $0[0] } == values.map { .text($0) })
    }

    @Test func integerColumnSortsNumerically() throws {
        let path = fixture.file("n.csv", "n\n10\n9\n-3\n100\n")
        let table = try fixture.loader(path).load()
        #expect(
            try fixture.rows(table, orderBy: "n").map { $0[0] } == [
                .integer(-3), .integer(9), .integer(10), .integer(100),
            ]
        )
    }

    @Test func eachDelimiterLoads() throws {
        for (name, separator) in [("comma", ","), ("semicolon", ";"), ("tab", "\t"), ("pipe", "|")] {
            let text =
                ["a", "b"].joined(separator: separator) + "\n" + ["1", "x, y"].joined(separator: separator) + "\n"
            let table = try fixture.loader(fixture.file("\(name).csv", separator == "," ? "a,b\n1,\"x, y\"\n" : text))
                .load()
            #expect(table.columns.map(\.name) == ["a", "b"], "\(name)")
            #expect(try fixture.rows(table) == [[.integer(1), .text("x, y")]], "\(name)")
        }
    }

    @Test func byteOrderMarkSemicolonsAndDecimalCommas() throws {
        let table = try fixture.loader(CSVLoaderFixture.fixture("semicolon_bom_utf8.csv")).load()
        #expect(table.tableName == "semicolon_bom_utf8")
        #expect(
            table.columns == [
                .init(name: "name", type: .text), .init(name: "price", type: .text), .init(name: "sold", type: .date),
            ]
        )
        #expect(
            try fixture.rows(table) == [
                [.text("Café crème"), .text("3,50"), .text("2024-03-01")],
                [.text("Tea; green"), .text("2,00"), .text("2024-03-02")],
            ]
        )
    }

    @Test func windows1252BytesAreDecoded() throws {
        let table = try fixture.loader(CSVLoaderFixture.fixture("tab_windows1252.tsv")).load()
        #expect(table.columns.map(\.type) == [.text, .text, .integer])
        #expect(
            try fixture.rows(table) == [
                [.text("First\u{2013}Citizens"), .text("München"), .integer(12)],
                [.text("Café"), .text("Zürich"), .integer(-7)],
            ]
        )
    }

    @Test func quotedLineBreaksStayInTheField() throws {
        let table = try fixture.loader(CSVLoaderFixture.fixture("pipe_quoted_newline.csv")).load()
        #expect(table.columns.map(\.type) == [.integer, .dateTime, .text])
        #expect(try fixture.rows(table).map { $0[2] } == [.text("two\nlines"), .text("plain")])
    }

    @Test func duplicateAndEmptyHeaderNamesAreMadeUnique() throws {
        let path = fixture.file("dups.csv", "name,,Name,rowid\nAda,1,2,3\n")
        let table = try fixture.loader(path).load()
        #expect(table.columns.map(\.name) == ["name", "column_2", "Name_2", "rowid_2"])
        let db = try Database(path: table.databasePath, options: fixture.readOnly)
        #expect(try db.query("SELECT rowid, \"rowid_2\" FROM dups") == [[.integer(1), .integer(3)]])
    }

    @Test func raggedRowIsAFileLineErrorAndNothingIsMade() throws {
        let path = fixture.file("ragged.csv", "a,b,c\n1,2,3\n\"x\ny\",2,3\n4,5\n6,7,8\n")
        let loader = fixture.loader(path)
        #expect {
            try loader.load()
        } throws: { error in
            guard let error = error as? EntityImportError, case .badRows(_, let issues, let total) = error else {
                return false
            }
            return total == 1 && issues.map(\.description) == ["\(path):5: expected 3 fields, found 2"]
                && error.exitStatus == 65
        }
        #expect(fixture.cacheFiles().isEmpty)
    }

    @Test func headerOnlyFileMakesAnEmptyTable() throws {
        let table = try fixture.loader(fixture.file("empty.csv", "a,b\n")).load()
        #expect(table.rowCount == 0)
        #expect(table.columns.map(\.type) == [.text, .text])
    }

    @Test func emptyFileIsRefused() {
        let path = fixture.file("nothing.csv", "")
        #expect(throws: EntityImportError.self) { try fixture.loader(path).load() }
    }

    @Test func missingFileIsUnreadableWithExit66() {
        #expect {
            try fixture.loader(fixture.directory + "/missing.csv").load()
        } throws: { ($0 as? EntityImportError)?.exitStatus == 66 }
    }

    @Test func firstRowsArriveBeforeTheLoadEndsAndProgressIsReported() throws {
        var text = "n,label\n"
        for i in 1...5000 { text += "\(i),row \(i)\n" }
        let path = fixture.file("many.csv", text)
        let loader = fixture.loader(path)
        var preview: CSVTableLoader.Preview?
        let finished = ProgressRecorder()
        loader.firstRows = { preview = $0 }
        loader.progress = { finished.record($0) }
        let table = try loader.load()
        #expect(table.rowCount == 5000)
        #expect(preview?.columns == ["n", "label"])
        #expect(preview?.rows.count == 100)
        #expect(preview?.rows.first == ["1", "row 1"])
        #expect(finished.last?.isFinished == true)
        #expect(finished.last?.rows == 5000)
    }

    @Test func cancelledLoadThrowsAndLeavesNothing() throws {
        var text = "n\n"
        for i in 1...20000 { text += "\(i)\n" }
        let loader = fixture.loader(fixture.file("cancel.csv", text))
        loader.firstRows = { _ in loader.cancel() }
        #expect(throws: CancellationError.self) { try loader.load() }
        #expect(fixture.cacheFiles().isEmpty)
    }

    @Test func indexesAreBuiltAfterTheLoadAndAddedToAReusedCache() throws {
        let path = fixture.file("events.csv", "id,ts,level\n1,2024-01-02T00:00:00Z,INFO\n2,2024-01-01T00:00:00Z,WARN\n")
        var loader = fixture.loader(path)
        var options = loader.options
        options.indexes = [["ts"], ["nonexistent"]]
        loader = CSVTableLoader(source: path, options: options)
        let table = try loader.load()
        func indexes() throws -> [String] {
            let db = try Database(path: table.databasePath, options: fixture.readOnly)
            return try db.query("SELECT name FROM pragma_index_list('events') ORDER BY name").compactMap {
                $0[0].string
            }
        }
        #expect(try indexes() == ["events_by_ts"])
        let db = try Database(path: table.databasePath, options: fixture.readOnly)
        let plan = try db.query("EXPLAIN QUERY PLAN SELECT rowid FROM events ORDER BY ts DESC").map {
            $0.last?.string ?? ""
        }
        #expect(plan.contains { $0.contains("events_by_ts") })
        options.indexes = [["LEVEL", "ts"]]
        let reused = try CSVTableLoader(source: path, options: options).load()
        #expect(reused.wasReused)
        #expect(try indexes() == ["events_by_level_ts", "events_by_ts"])
    }

    @Test func buildReplacesAFileOnlyWhenComplete() throws {
        let target = fixture.directory + "/out.sqlite"
        #expect(FileManager.default.createFile(atPath: target, contents: Data("old".utf8)))
        let bad = fixture.loader(fixture.file("bad.csv", "a,b\n1\n"))
        #expect(throws: EntityImportError.self) { try bad.build(at: target) }
        #expect(FileManager.default.contents(atPath: target) == Data("old".utf8))
        let good = fixture.loader(fixture.file("good.csv", "a,b\n1,2\n"))
        let table = try good.build(at: target)
        #expect(try fixture.rows(table) == [[.integer(1), .integer(2)]])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.directory).filter {
            $0.contains(".tmp-")
        }
        #expect(leftovers.isEmpty)
    }
}

/// Collects progress reports from the parsing thread.
final class ProgressRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [ImportProgress] = []
    func record(_ progress: ImportProgress) { lock.withLock { reports.append(progress) } }
    var last: ImportProgress? { lock.withLock { reports.last } }
}

@Suite struct CSVCacheLocationTests {
    let fixture = CSVLoaderFixture()

    @Test func defaultDirectoryFollowsXDGCacheHome() {
        #expect(
            CSVCacheLocation.defaultDirectory(
                for: "fetchedtable",
                environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/h"]
            )
                == "/x/cache/fetchedtable"
        )
        #expect(
            CSVCacheLocation.defaultDirectory(for: "fetchedtable", environment: ["HOME": "/h"])
                == "/h/.cache/fetchedtable"
        )
        #expect(
            CSVCacheLocation.defaultDirectory(
                for: "fetchedtable",
                environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"]
            )
                == "/h/.cache/fetchedtable"
        )
        // No application named: a neutral folder, not another app's.
        #expect(CSVCacheLocation.defaultDirectory(environment: ["HOME": "/h"]) == "/h/.cache/csv-tables")
    }

    @Test func cacheIsReusedWhileSizeAndMtimeAreUnchanged() throws {
        let path = fixture.file("events.csv", "a,b\n1,2\n")
        let first = try fixture.loader(path).load()
        #expect(!first.wasReused)
        var previewed = false
        let again = fixture.loader(path)
        again.firstRows = { _ in previewed = true }
        let second = try again.load()
        #expect(second.wasReused)
        #expect(!previewed)
        #expect(second.databasePath == first.databasePath)
        #expect(second.columns == first.columns)
        #expect(second.rowCount == 1)
        #expect(fixture.cacheFiles().count == 1)
    }

    @Test func cacheIsRebuiltWhenTheSizeChanges() throws {
        let path = fixture.file("events.csv", "a,b\n1,2\n")
        let first = try fixture.loader(path).load()
        _ = fixture.file("events.csv", "a,b\n1,2\n3,x\n")
        let second = try fixture.loader(path).load()
        #expect(!second.wasReused)
        #expect(second.databasePath == first.databasePath, "one database a file, built anew")
        #expect(second.rowCount == 2)
        #expect(second.columns.map(\.type) == [.integer, .text])
        #expect(fixture.cacheFiles() == [(second.databasePath as NSString).lastPathComponent])
    }

    @Test func cacheIsRebuiltWhenOnlyTheMtimeChanges() throws {
        let path = fixture.file("events.csv", "a,b\n1,2\n")
        let first = try fixture.loader(path).load()
        _ = fixture.file("events.csv", "a,b\n7,8\n")  // same size
        let later = Date(timeIntervalSinceNow: 10)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path)
        let second = try fixture.loader(path).load()
        #expect(!second.wasReused)
        #expect(try fixture.rows(second) == [[.integer(7), .integer(8)]])
        #expect(fixture.cacheFiles() == [(first.databasePath as NSString).lastPathComponent])
    }

    /// Sets `path`'s access and modification times to `reference`'s (as `touch -r` does).
    func copyTimes(from reference: String, to path: String) {
        var info = stat()
        stat(reference, &info)
        var times = [info.st_atim, info.st_mtim]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    @Test func aFileRewrittenWithTheSameSizeAndTimeIsLoadedAgain() throws {
        let path = fixture.file("events.csv", "a,b\n1,2\n")
        let reference = fixture.file("reference", "")
        copyTimes(from: reference, to: path)
        let first = try fixture.loader(path).load()
        // Rewritten in place (same inode), same size, its time set back as `touch -r` does.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data("a,b\n7,8\n".utf8))
        try handle.close()
        copyTimes(from: reference, to: path)
        let second = try fixture.loader(path).load()
        #expect(!second.wasReused, "the content check tells the files apart")
        #expect(second.databasePath == first.databasePath)
        #expect(try fixture.rows(second) == [[.integer(7), .integer(8)]])
    }

    @Test func aFileMovedOverTheSourceWithTheSameSizeAndTimeIsLoadedAgain() throws {
        let path = fixture.file("events.csv", "a,b\n1,2\n")
        let first = try fixture.loader(path).load()
        // The same bytes' size, the same time, the same first and last bytes would need the same
        // content: here only the inode differs from what the cache was built for.
        let other = fixture.file("other.csv", "a,b\n1,2\n")
        copyTimes(from: path, to: other)
        #expect(rename(other, path) == 0)
        let location = try CSVCacheLocation(source: path, directory: fixture.cacheDirectory)
        #expect(location.databasePath == first.databasePath)
        #expect(!location.isBuilt, "another inode: not the version the cache holds")
        let second = try fixture.loader(path).load()
        #expect(!second.wasReused)
        #expect(try fixture.rows(second) == [[.integer(1), .integer(2)]])
    }

    @Test func theContentCheckReadsBothEndsOfALargeFile() throws {
        let middle = String(repeating: "x,y\n", count: 40_000)
        let path = fixture.file("big.csv", "a,b\n" + middle + "1,2\n")
        let before = try CSVCacheLocation(source: path, directory: fixture.cacheDirectory)
        _ = fixture.file("big.csv", "a,b\n" + middle + "1,3\n")
        let after = try CSVCacheLocation(source: path, directory: fixture.cacheDirectory)
        #expect(before.contentCheck != after.contentCheck, "the last bytes changed")
        #expect(before.sourceSize == after.sourceSize)
    }

    @Test func aRealColumnKeepsItsValuesAsWrittenInItsCompanion() throws {
        let path = fixture.file("prices.csv", "item,price\nbolt,3\nnut,1.10\nwasher,2.5\n")
        let table = try fixture.loader(path).load()
        #expect(table.columns.map(\.name) == ["item", "price"], "the companion is not a column")
        #expect(table.columns[1].type == .real)
        #expect(
            try fixture.rows(table) == [
                [.text("bolt"), .real(3), .text("3")], [.text("nut"), .real(1.1), .text("1.10")],
                [.text("washer"), .real(2.5), .null],
            ]
        )
        let reused = try fixture.loader(path).load()
        #expect(reused.wasReused)
        #expect(reused.columns == table.columns)
        #expect(CSVTable.column(ofWrittenForm: CSVTable.writtenFormColumn(of: "price")) == "price")
        #expect(CSVTable.column(ofWrittenForm: "price") == nil)
    }

    @Test func aDamagedCacheIsRebuilt() throws {
        let path = fixture.file("events.csv", "a\n1\n")
        let first = try fixture.loader(path).load()
        #expect(FileManager.default.createFile(atPath: first.databasePath, contents: Data("not a database".utf8)))
        let second = try fixture.loader(path).load()
        #expect(!second.wasReused)
        #expect(try fixture.rows(second) == [[.integer(1)]])
    }

    @Test func anInterruptedLoadLeavesNoHalfCacheAndItsTemporaryFileIsRemoved() throws {
        let path = fixture.file("events.csv", "a\n1\n")
        let location = try CSVCacheLocation(source: path, directory: fixture.cacheDirectory)
        try location.makeDirectory()
        // What a killed load leaves: its temporary file, named after a process that is gone.
        let orphan = location.databasePath + ".tmp-999999999-1"
        #expect(FileManager.default.createFile(atPath: orphan, contents: Data("half".utf8)))
        #expect(!location.isBuilt)
        let table = try fixture.loader(path).load()
        #expect(table.databasePath == location.databasePath)
        #expect(!FileManager.default.fileExists(atPath: orphan))
        #expect(fixture.cacheFiles() == [(location.databasePath as NSString).lastPathComponent])
    }
}

@Suite struct MultiRowInsertWriterTests {
    @Test func writesEveryKindOfValueInBatchesOfAnySize() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE \"odd name\"(\"a b\", c, d)")
        let writer = try MultiRowInsertWriter(
            database: db,
            table: "odd name",
            columns: ["a b", "c", "d"],
            rowsPerStatement: 4
        )
        let batch = BulkRowBatch(capacity: 10)
        for i in 0..<10 {
            batch.append(Int64(i))
            if i % 3 == 0 { batch.appendNull() } else { batch.append(Double(i) / 2) }
            var text = "row \(i)"
            text.withUTF8 { batch.append(utf8: UnsafeRawBufferPointer($0)) }
            batch.endRow(line: i + 2)
        }
        #expect(batch.isFull && batch.columnCount == 3)
        #expect(batch.value(row: 1, column: 2) == .text("row 1"))
        try writer.write(batch)
        #expect(writer.count == 10)
        let rows = try db.query("SELECT rowid, * FROM \"odd name\" ORDER BY rowid")
        #expect(rows.count == 10)
        #expect(rows[0] == [.integer(1), .integer(0), .null, .text("row 0")])
        #expect(rows[9] == [.integer(10), .integer(9), .null, .text("row 9")])
        #expect(rows[5] == [.integer(6), .integer(5), .real(2.5), .text("row 5")])
        batch.removeAll()
        #expect(batch.isEmpty && batch.text.isEmpty)
    }
}

/// Dates in the forms people's files use (the FDIC list's `27-Jun-25`) become ISO dates, so they sort
/// and section as dates; a column where they sit beside other text keeps every value as written.
@Suite struct CSVTableLoaderDateFormTests {
    let fixture = CSVLoaderFixture()

    @Test func datesInOtherFormsAreStoredAsISODates() throws {
        let path = fixture.file("banks.csv", "Bank,Closing Date\nA,27-Jun-25\nB,\nC,1/3/2020\nD,2019-05-01\n")
        let table = try fixture.loader(path).load()
        #expect(table.columns.map(\.type) == [.text, .date])
        #expect(
            try fixture.rows(table).map { $0[1] } == [
                .text("2025-06-27"), .null, .text("2020-01-03"), .text("2019-05-01"),
            ]
        )
    }

    @Test func aColumnMixingDatesAndOtherTextKeepsItsText() throws {
        let path = fixture.file("notes.csv", "n,note\n1,27-Jun-25\n2,call back\n3,1/3/2020\n")
        let table = try fixture.loader(path).load()
        #expect(table.columns.map(\.type) == [.integer, .text])
        #expect(try fixture.rows(table).map { $0[1] } == [.text("27-Jun-25"), .text("call back"), .text("1/3/2020")])
        #expect(table.rowCount == 3)
    }

    @Test func theBundledFailedBankListSectionsByYear() throws {
        let source = CSVLoaderFixture.fixture("../banklist_2024_fdic_original_cp1252.csv")
        try #require(FileManager.default.fileExists(atPath: source), "fixture \(source)")
        let table = try fixture.loader(source).load()
        let closing = try #require(table.columns.first { $0.name.hasPrefix("Closing Date") })
        #expect(closing.type == .date)
        let db = try Database(path: table.databasePath, options: fixture.readOnly)
        let column = Database.quote(identifier: closing.name)
        let years = try db.query(
            "SELECT DISTINCT substr(\(column), 1, 4) FROM \(Database.quote(identifier: table.tableName))"
        )
        #expect(!years.isEmpty)
        #expect(years.allSatisfy { ($0[0].string.flatMap { Int($0) } ?? 0) >= 2000 })
    }
}

@Suite struct MultiRowInsertWriterFailureTests {
    /// OR FAIL: no statement journal; a statement that fails keeps the rows before the failing one, and
    /// the caller's transaction is what undoes a failed load.
    @Test func aRefusedRowFailsTheWriteAndTheTransactionUndoesIt() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(a TEXT NOT NULL)")
        let writer = try MultiRowInsertWriter(database: db, table: "t", columns: ["a"], rowsPerStatement: 4)
        let batch = BulkRowBatch(capacity: 4)
        for i in 0..<4 {
            if i == 2 {
                batch.appendNull()
            } else {
                var text = "row \(i)"
                text.withUTF8 { batch.append(utf8: UnsafeRawBufferPointer($0)) }
            }
            batch.endRow(line: i + 2)
        }
        try db.execute("BEGIN")
        #expect(throws: SQLiteError.self) { try writer.write(batch) }
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(2))
        try db.execute("ROLLBACK")
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(0))
    }
}
