import BulkImport
import CSVImport
import Foundation
import SQLiteStore
import TestSupport
import Testing

@Suite struct JSONTableLoaderTests {
    let fixture = CSVLoaderFixture()

    static let lines = """
        {"id": 1, "name": "Ada", "height": 1.65, "active": true, "born": "1815-12-10", "tags": ["math", "engines"]}
        {"id": 2, "name": "Bob", "active": false, "born": null, "extra": {"k": 1}}
        {"name": "Cy", "id": 3, "height": 2, "active": true, "zip": "01234"}

        """

    @Test func jsonLinesLoadAsATypedTableWithTheUnionOfTheKeysInFileOrder() throws {
        let path = fixture.file("people.jsonl", JSONTableLoaderTests.lines)
        let loader = fixture.loader(path)
        #expect(try loader.sourceLayout() == .lines)
        let table = try loader.load()
        #expect(table.tableName == "people")
        #expect(table.rowCount == 3)
        #expect(table.columns.map(\.name) == ["id", "name", "height", "active", "born", "tags", "extra", "zip"])
        #expect(table.columns.map(\.type) == [.integer, .text, .real, .boolean, .date, .text, .text, .text])
        #expect(table.columns[3].attributeType == .bool)
        #expect(
            try fixture.rows(table) == [
                [
                    .integer(1), .text("Ada"), .real(1.65), .integer(1), .text("1815-12-10"),
                    .text("[\"math\",\"engines\"]"), .null, .null, .null,
                ],
                [.integer(2), .text("Bob"), .null, .integer(0), .null, .null, .text("{\"k\":1}"), .null, .null],
                [.integer(3), .text("Cy"), .real(2), .integer(1), .null, .null, .null, .text("01234"), .text("2")],
            ],
            "an absent key and null are NULL; 2 in a real column keeps its written form beside"
        )
    }

    @Test func anArrayOfObjectsLoadsTheSameRows() throws {
        let lines = try fixture.loader(fixture.file("a.jsonl", JSONTableLoaderTests.lines)).load()
        let objects = JSONTableLoaderTests.lines.split(separator: "\n").joined(separator: ",\n  ")
        let array = try fixture.loader(fixture.file("b.json", "[\n  \(objects)\n]\n")).load()
        #expect(array.columns == lines.columns)
        #expect(try fixture.rows(array) == fixture.rows(lines))
    }

    @Test func theSameRowsAsACSVFileHaveTheSameTypesAndValues() throws {
        let csv = try fixture.loader(fixture.file("t.csv", "id,price,day,note\n1,2.5,2024-01-05,x\n2,3,2024-02-01,\n"))
            .load()
        let json = try fixture.loader(
            fixture.file(
                "t.jsonl",
                "{\"id\":1,\"price\":2.5,\"day\":\"2024-01-05\",\"note\":\"x\"}\n{\"id\":2,\"price\":3,\"day\":\"2024-02-01\"}\n"
            )
        ).load()
        #expect(json.columns == csv.columns)
        #expect(try fixture.rows(json) == fixture.rows(csv))
    }

    @Test func aStringIsTextEvenWhenItLooksLikeANumberAndMissingValuesAreNull() throws {
        let path = fixture.file(
            "m.jsonl",
            "{\"code\": \"007\", \"n\": \"12\", \"delay\": 5}\n{\"code\": \"1\", \"n\": \"3\", \"delay\": \"NA\"}\n"
        )
        let table = try fixture.loader(path).load()
        #expect(table.columns.map(\.type) == [.text, .text, .integer])
        #expect(try fixture.rows(table).map { $0[2] } == [.integer(5), .null])
    }

    @Test func mixedTypesMakeText() throws {
        let path = fixture.file("x.jsonl", "{\"v\": true}\n{\"v\": 12}\n{\"v\": \"a\"}\n{\"v\": [1]}\n")
        let table = try fixture.loader(path).load()
        #expect(table.columns.map(\.type) == [.text])
        #expect(try fixture.rows(table).map { $0[0] } == [.text("true"), .text("12"), .text("a"), .text("[1]")])
    }

    @Test func badJSONNamesItsLineAndColumnAndNothingIsMade() throws {
        let path = fixture.file("bad.jsonl", "{\"a\": 1}\n{\"a\": 2}\n{\"a\": 3,}\n")
        do {
            _ = try fixture.loader(path).load()
            Issue.record("a file that is not JSON loaded")
        } catch let error as EntityImportError {
            #expect(error.messages == ["\(path):3:9: expected a key (a string in double quotes), found '}'"])
            #expect(error.exitStatus == 65)
        }
        #expect(fixture.cacheFiles().allSatisfy { !$0.hasSuffix(".sqlite") })
    }

    @Test func objectsWithoutKeysOrNoObjectsAreRefused() throws {
        for (name, text, reason) in [
            ("none.json", "[]", "no objects: nothing to show"),
            ("empty.jsonl", "{}\n{}\n", "the objects have no keys"),
        ] {
            let path = fixture.file(name, text)
            #expect(throws: EntityImportError.self) { _ = try fixture.loader(path).load() }
            do { _ = try fixture.loader(path).load() } catch let error as EntityImportError {
                #expect(error.messages == ["\(path):1: \(reason)"])
            }
        }
    }

    @Test func aJSONFilesCacheIsReused() throws {
        let path = fixture.file("r.jsonl", JSONTableLoaderTests.lines)
        let first = try fixture.loader(path).load()
        let second = try fixture.loader(path).load()
        #expect(!first.wasReused)
        #expect(second.wasReused)
        #expect(second.columns == first.columns)
    }

    @Test func aKeyFirstSeenLateAddsItsColumnAndTheFirstRowsArriveEarly() throws {
        let rows = (1...5000).map { "{\"n\": \($0)\($0 == 4000 ? ", \"late\": \"x\"" : "")}" }
        let path = fixture.file("late.jsonl", rows.joined(separator: "\n"))
        let loader = fixture.loader(path)
        var preview: CSVTableLoader.Preview?
        loader.firstRows = { preview = $0 }
        let table = try loader.load()
        #expect(table.columns.map(\.name) == ["n", "late"])
        #expect(table.rowCount == 5000)
        #expect(preview?.columns == ["n"])
        #expect(preview?.rows.first == ["1"])
        let db = try Database(path: table.databasePath, options: fixture.readOnly)
        #expect(try db.scalar("SELECT count(late) FROM late").int64 == 1)
        #expect(try db.scalar("SELECT n FROM late WHERE late = 'x'").int64 == 4000)
    }
}
