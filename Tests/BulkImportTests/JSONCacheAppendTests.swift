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

    @Test func objectsAppendedToAJSONLinesFileAreAppendedToItsCacheInPlace() throws {
        let path = fixture.file(
            "log.jsonl",
            #"{"ts": "2025-01-01T10:00:00Z", "level": "info", "n": 1, "ok": true, "tags": ["a"], "x": 1.5}"# + "\n"
        )
        let second = try fixture.loadAppendedInPlace(
            path,
            appending:
                #"{"level": "warn", "ts": "2025-01-01T10:00:01Z", "n": 2, "ok": false, "tags": {"b": 1}, "x": 2.5}"#
                + "\n" + #"{"ts": "2025-01-01T10:00:02Z", "level": "info", "n": null}"# + "\n"
        )
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
    }

    @Test func aLineStillBeingWrittenIsReadOnceItEnds() throws {
        let path = fixture.file("log.jsonl", #"{"a": 1}"# + "\n")
        _ = try fixture.loader(path).load()
        try fixture.append(#"{"a": 2}"# + "\n" + #"{"a": "#, to: path)
        let second = try fixture.loader(path).load()
        #expect(second.wasReused)
        #expect(second.appendedRowCount == 1)
        try fixture.append("3}\n", to: path)
        let third = try fixture.loader(path).load()
        #expect(third.wasReused)
        #expect(third.appendedRowCount == 1)
        #expect(try fixture.rows(third) == [[.integer(1)], [.integer(2)], [.integer(3)]])
    }

    @Test func aNewKeyOrAnotherTypeLoadsTheFileAgain() throws {
        let path = fixture.file("log.jsonl", #"{"a": 1}"# + "\n")
        _ = try fixture.loader(path).load()
        try fixture.append(#"{"a": 2, "b": "new"}"# + "\n", to: path)
        let second = try fixture.loader(path).load()
        #expect(!second.wasReused, "a new key is a new column: loaded again")
        #expect(try fixture.rows(second) == [[.integer(1), .null], [.integer(2), .text("new")]])
        try fixture.append(#"{"a": "text"}"# + "\n", to: path)
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
        try fixture.append(#"{"a": 3,}"# + "\n", to: path)
        #expect {
            try fixture.loader(path).load()
        } throws: { error in
            guard case .malformedJSON(_, let line, _, _) = error as? EntityImportError else { return false }
            return line == 3
        }
    }
}
