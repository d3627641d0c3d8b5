import CSVImport
import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import BulkImport

/// A CSV file that grows (a log): its cache is completed in place with the rows appended.
@Suite struct CSVCacheAppendTests {
    let fixture = CSVLoaderFixture()

    @Test func rowsAppendedToTheFileAreAppendedToItsCacheInPlace() throws {
        let path = fixture.file("log.csv", "ts,level,n\n2025-01-01T10:00:00Z,info,1\n")
        let second = try fixture.loadAppendedInPlace(
            path,
            appending: "2025-01-01T10:00:01Z,warn,2\n2025-01-01T10:00:02Z,info,NA\n"
        )
        #expect(
            try fixture.rows(second) == [
                [.text("2025-01-01T10:00:00Z"), .text("info"), .integer(1)],
                [.text("2025-01-01T10:00:01Z"), .text("warn"), .integer(2)],
                [.text("2025-01-01T10:00:02Z"), .text("info"), .null],
            ]
        )
    }

    @Test func aLastRowWithoutItsLineEndIsReadAgainWhenItEnds() throws {
        let path = fixture.file("log.csv", "a,b\n1,2\n3,4")
        let first = try fixture.loader(path).load()
        #expect(try fixture.rows(first) == [[.integer(1), .integer(2)], [.integer(3), .integer(4)]])
        try fixture.append("5\n6,7\n", to: path)
        let second = try fixture.loader(path).load()
        #expect(second.wasReused)
        #expect(second.appendedRowCount == 1)
        #expect(
            try fixture.rows(second) == [
                [.integer(1), .integer(2)], [.integer(3), .integer(45)], [.integer(6), .integer(7)],
            ]
        )
    }

    @Test func realsAndDatesAppendedAreTypedAsTheLoadTypedThem() throws {
        let path = fixture.file("p.csv", "price,day,note\n1.50,2025-01-01,x\n2.25,1/2/2025,\n")
        _ = try fixture.loader(path).load()
        try fixture.append("3,01/03/2025,y\n4.5,2025-01-04,-\n", to: path)
        let table = try fixture.loader(path).load()
        #expect(table.appendedRowCount == 2)
        #expect(table.columns.map(\.type) == [.real, .date, .text])
        let rebuilt = try fixture.loader(fixture.file("q.csv", try String(contentsOfFile: path, encoding: .utf8)))
            .load()
        #expect(try fixture.rows(table) == fixture.rows(rebuilt), "as a load of the whole file")
    }

    @Test(
        arguments: [
            ("a,b\n1,x\n", "x,y\n", [CSVColumnType.text, .text]),  // text in a column of integers
            ("a,b\n1,\n", "2,5\n", [.integer, .integer]),  // a value in a column that had none
            ("a,b\n1.5,x\n", "2.50,y\n", [.real, .text]),  // a real written otherwise, no companion
        ]
    )
    func aValueOfAnotherTypeLoadsTheWholeFileAgain(start: String, appended: String, types: [CSVColumnType]) throws {
        let path = fixture.file("t.csv", start)
        _ = try fixture.loader(path).load()
        try fixture.append(appended, to: path)
        let table = try fixture.loader(path).load()
        #expect(!table.wasReused)
        #expect(table.rowCount == 2)
        #expect(table.columns.map(\.type) == types)
    }

    @Test func aFileRewrittenOtherwiseIsLoadedAgain() throws {
        let path = fixture.file("t.csv", "a,b\n1,2\n")
        _ = try fixture.loader(path).load()
        // The first row changed in place, and a row added: the loaded bytes are not there any more.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data("a,b\n9,2\n3,4\n".utf8))
        try handle.close()
        let table = try fixture.loader(path).load()
        #expect(!table.wasReused)
        #expect(try fixture.rows(table) == [[.integer(9), .integer(2)], [.integer(3), .integer(4)]])
    }

    @Test func aBadRowAppendedIsRefusedWithItsLine() throws {
        let path = fixture.file("t.csv", "a,b\n1,2\n\"x\ny\",3\n")
        _ = try fixture.loader(path).load()
        try fixture.append("4,5\n6\n", to: path)
        do {
            _ = try fixture.loader(path).load()
            Issue.record("a bad row was appended")
        } catch let error as EntityImportError {
            #expect(error.messages.first == "\(path):6: expected 2 fields, found 1")
        }
    }

    @Test func aLoadReadsNoFurtherThanTheSizeItFoundAndTheRestIsAppendedNext() throws {
        let path = fixture.file("g.csv", "a\n1\n2\n")
        let location = try CSVCacheLocation(source: path, directory: fixture.cacheDirectory)
        try location.makeDirectory()
        try fixture.append("3\n", to: path)  // while the load runs: after the size it found
        let loader = fixture.loader(path)
        let built = try loader.build(at: location.databasePath, location: location)
        #expect(built.rowCount == 2)
        let completed = try loader.load()
        #expect(completed.wasReused)
        #expect(completed.appendedRowCount == 1)
        #expect(try fixture.rows(completed) == [[.integer(1)], [.integer(2)], [.integer(3)]])
    }

    @Test func theCacheSaysWhichVersionOfTheFileItHolds() throws {
        let path = fixture.file("v.csv", "a\n1\n")
        let table = try fixture.loader(path).load()
        let location = try CSVCacheLocation(source: path, directory: fixture.cacheDirectory)
        #expect(location.isBuilt)
        #expect(location.databasePath == table.databasePath)
        let db = try Database(path: table.databasePath, options: fixture.readOnly)
        let state = try #require(try CSVCacheState.read(from: db))
        #expect(state.describes(location))
        #expect(state.loadedLength == 4)
        #expect(state.openRowID == nil)
        try fixture.append("2\n", to: path)
        #expect(!(try CSVCacheLocation(source: path, directory: fixture.cacheDirectory)).isBuilt)
    }
}
