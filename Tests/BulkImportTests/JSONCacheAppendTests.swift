import CSVImport
import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import BulkImport

/// A JSON Lines file that grows (a log): its cache is completed in place with the objects
/// appended, as a CSV file's is (``CSVCacheAppendTests``); before, any change read it again.
@Suite struct JSONCacheAppendTests {
    let fixture = CSVLoaderFixture()

    /// Appends `text` to the file at `path` (the same inode, as a logger writes).
    func append(_ text: String, to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    /// The cache file's inode (the same one: completed in place).
    func inode(_ path: String) -> UInt64 {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }

    func trackingLoader(_ path: String) -> CSVTableLoader {
        var options = CSVTableLoader.Options()
        options.cacheDirectory = fixture.cacheDirectory
        options.tracking = TrackingNames(historyTable: "test_history")
        return CSVTableLoader(source: path, options: options)
    }

    @Test func objectsAppendedToAJSONLinesFileAreAppendedToItsCacheInPlace() throws {
        let path = fixture.file(
            "log.jsonl",
            #"{"ts": "2025-01-01T10:00:00Z", "level": "info", "n": 1, "ok": true, "tags": ["a"], "x": 1.5}"# + "\n"
        )
        let first = try trackingLoader(path).load()
        let node = inode(first.databasePath)
        try append(
            #"{"level": "warn", "ts": "2025-01-01T10:00:01Z", "n": 2, "ok": false, "tags": {"b": 1}, "x": 2.5}"# + "\n"
                + #"{"ts": "2025-01-01T10:00:02Z", "level": "info", "n": null}"# + "\n",
            to: path
        )
        let second = try trackingLoader(path).load()
        #expect(second.wasReused)
        #expect(second.appendedRowCount == 2)
        #expect(second.rowCount == 3)
        #expect(second.columns == first.columns)
        #expect(inode(second.databasePath) == node, "the same database, completed")
        #expect(
            try fixture.rows(second) == [
                [.text("2025-01-01T10:00:00Z"), .text("info"), .integer(1), .integer(1), .text(#"["a"]"#), .real(1.5)],
                [
                    .text("2025-01-01T10:00:01Z"), .text("warn"), .integer(2), .integer(0), .text(#"{"b":1}"#),
                    .real(2.5),
                ],
                [.text("2025-01-01T10:00:02Z"), .text("info"), .null, .null, .null, .null],
            ]
        )
        let db = try Database(path: second.databasePath, options: fixture.readOnly)
        #expect(
            try db.query("SELECT row_id, op FROM test_history ORDER BY seq") == [
                [.integer(2), .text("I")], [.integer(3), .text("I")],
            ]
        )
        let third = try trackingLoader(path).load()
        #expect(third.wasReused)
        #expect(third.appendedRowCount == 0, "up to date now")
    }

    @Test func aLineStillBeingWrittenIsReadOnceItEnds() throws {
        let path = fixture.file("log.jsonl", #"{"a": 1}"# + "\n")
        _ = try fixture.loader(path).load()
        try append(#"{"a": 2}"# + "\n" + #"{"a": "#, to: path)
        let second = try fixture.loader(path).load()
        #expect(second.wasReused)
        #expect(second.appendedRowCount == 1)
        try append("3}\n", to: path)
        let third = try fixture.loader(path).load()
        #expect(third.wasReused)
        #expect(third.appendedRowCount == 1)
        #expect(try fixture.rows(third) == [[.integer(1)], [.integer(2)], [.integer(3)]])
    }

    @Test func aNewKeyOrAnotherTypeLoadsTheFileAgain() throws {
        let path = fixture.file("log.jsonl", #"{"a": 1}"# + "\n")
        _ = try fixture.loader(path).load()
        try append(#"{"a": 2, "b": "new"}"# + "\n", to: path)
        let second = try fixture.loader(path).load()
        #expect(!second.wasReused, "a new key is a new column: loaded again")
        #expect(try fixture.rows(second) == [[.integer(1), .null], [.integer(2), .text("new")]])
        try append(#"{"a": "text"}"# + "\n", to: path)
        let third = try fixture.loader(path).load()
        #expect(!third.wasReused, "text in a column of integers: loaded again")
        #expect(third.rowCount == 3)
    }

    @Test func aJSONArrayThatChangesIsLoadedAgain() throws {
        let path = fixture.file("rows.json", #"[{"a": 1}]"#)
        _ = try fixture.loader(path).load()
        try #"[{"a": 1}, {"a": 2}]"#.write(toFile: path, atomically: false, encoding: .utf8)
        let second = try fixture.loader(path).load()
        #expect(!second.wasReused)
        #expect(try fixture.rows(second) == [[.integer(1)], [.integer(2)]])
    }

    @Test func aBadLineAppendedIsRefusedWithItsLine() throws {
        let path = fixture.file("log.jsonl", #"{"a": 1}"# + "\n" + #"{"a": 2}"# + "\n")
        _ = try fixture.loader(path).load()
        try append(#"{"a": 3,}"# + "\n", to: path)
        #expect {
            try fixture.loader(path).load()
        } throws: { error in
            guard case .malformedJSON(_, let line, _, _) = error as? EntityImportError else { return false }
            return line == 3
        }
    }
}
