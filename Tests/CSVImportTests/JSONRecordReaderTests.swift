import Foundation
import Testing

@testable import CSVImport

/// Reads `text` with `chunkSize` bytes at a time: each record as (line, [key: text]) in member
/// order, and the keys in the order they first appeared.
func readJSON(_ text: String, chunkSize: Int = 1 << 16) throws -> (records: [(Int, [String])], keys: [String]) {
    let reader = JSONRecordReader(bytes: Array(text.utf8), chunkSize: chunkSize)
    let records = try reader.readAll().map { record in
        (record.line, (0..<record.count).map { "\(reader.keys[record.keyIndex(at: $0)])=\(record.text(at: $0))" })
    }
    return (records, reader.keys)
}

/// The error reading `text` throws (at every chunk size from 1 to 7 and a large one: the
/// position must not depend on where a chunk ends).
func jsonError(_ text: String) throws -> JSONError {
    var errors: [JSONError] = []
    for chunkSize in [1, 2, 3, 5, 7, 1 << 16] {
        do {
            _ = try readJSON(text, chunkSize: chunkSize)
        } catch let error as JSONError {
            errors.append(error)
        }
    }
    try #require(errors.count == 6, "every chunk size fails")
    #expect(Set(errors.map(\.description)).count == 1, "the same error at every chunk size: \(errors)")
    return errors[0]
}

@Suite struct JSONRecordReaderTests {
    @Test func jsonLinesAreRecordsWithKeysInTheOrderTheyFirstAppear() throws {
        let text = """
            {"id": 1, "name": "Ada", "tags": ["a", "b"]}
            {"name": "Bo", "id": 2, "city": "Reno"}

            {"id": 3, "nested": {"x": [1, 2.5e3, true, null], "y": "q\\"}"}, "ok": false, "none": null}
            """
        for chunkSize in [1, 3, 64, 1 << 16] {
            let (records, keys) = try readJSON(text, chunkSize: chunkSize)
            #expect(keys == ["id", "name", "tags", "city", "nested", "ok", "none"])
            #expect(records.map(\.0) == [1, 2, 4])
            #expect(records[0].1 == ["id=1", "name=Ada", "tags=[\"a\",\"b\"]"])
            #expect(records[1].1 == ["name=Bo", "id=2", "city=Reno"])
            #expect(
                records[2].1 == [
                    "id=3", "nested={\"x\":[1,2.5e3,true,null],\"y\":\"q\\\"}\"}", "ok=false", "none=null",
                ]
            )
        }
    }

    @Test func anArrayOfObjectsIsRecordsToo() throws {
        let text = "[\n  {\"a\": 1},\n  {\"a\": 2, \"b\": \"x\"},\n  {}\n]\n"
        let reader = JSONRecordReader(bytes: Array(text.utf8), chunkSize: 2)
        let records = try reader.readAll()
        #expect(reader.layout == .array)
        #expect(records.map(\.line) == [2, 3, 4])
        #expect(records.map(\.count) == [1, 2, 0])
        #expect(try readJSON("[]").records.isEmpty)
        #expect(try readJSON("  ").records.isEmpty)
    }

    @Test func kindsAreTyped() throws {
        let reader = JSONRecordReader(bytes: Array(#"{"s":"1","n":-0.5,"t":true,"f":false,"z":null,"o":{}}"#.utf8))
        let record = try #require(try reader.readAll().first)
        #expect((0..<record.count).map(record.kind(at:)) == [.string, .number, .true, .false, .null, .nested])
    }

    @Test func escapesAreDecoded() throws {
        let text = #"{"k\u00e9y": "tab\there \"q\" \\ \/ \u00e9 \ud83d\ude00 \ud800 end\n"}"#
        let (records, keys) = try readJSON(text, chunkSize: 3)
        #expect(keys == ["kéy"])
        #expect(records[0].1 == ["kéy=tab\there \"q\" \\ / é 😀 \u{FFFD} end\n"])
    }

    @Test func aUTF8ByteOrderMarkIsSkipped() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{\"a\": \"é\"}".utf8)
        let reader = JSONRecordReader(bytes: bytes, chunkSize: 1)
        #expect(try reader.readAll().map { $0.text(at: 0) } == ["é"])
        #expect(JSONRecordReader.layout(of: bytes) == .lines)
    }

    @Test func theLayoutIsToldByContent() {
        func layout(_ text: String) -> JSONRecordReader.Layout? { JSONRecordReader.layout(of: Array(text.utf8)) }
        #expect(layout("{\"a\": 1}\n{\"a\": 2}") == .lines)
        #expect(layout("  \n{ }") == .lines)
        #expect(layout("[{\"a\": 1}]") == .array)
        #expect(layout("[\n  {") == .array)
        #expect(layout("[1, 2]") == .array, "JSON, refused later as not objects")
        #expect(layout("[id],[name]\n1,2") == nil, "a CSV header")
        #expect(layout("{a},{b}") == nil)
        #expect(layout("id,name") == nil)
        #expect(layout("") == nil)
    }

    @Test func aDuplicateKeyIsHandedOverTwice() throws {
        let (records, keys) = try readJSON(#"{"a": 1, "a": 2}"#)
        #expect(keys == ["a"])
        #expect(records[0].1 == ["a=1", "a=2"])
    }

    @Test func keysRepeatedInAnotherOrderKeepTheirIndexes() throws {
        let reader = JSONRecordReader(bytes: Array("{\"a\":1,\"b\":2}\n{\"b\":3,\"a\":4}\n{\"a\":5,\"b\":6}".utf8))
        let records = try reader.readAll()
        #expect(records.map { [$0.keyIndex(at: 0), $0.keyIndex(at: 1)] } == [[0, 1], [1, 0], [0, 1]])
    }

    /// The key table (the keys' bytes, where each starts, the key each member position had) grows
    /// past its first capacity: 40 keys of 30 bytes, 40 members a record, the empty key, and keys
    /// of one length that differ in a byte where the last record's key at that position is predicted.
    @Test func manyLongKeysKeepTheirIndexesAsTheKeyTableGrows() throws {
        let names = (0..<40).map { "key_" + String(repeating: "x", count: 24) + String(format: "%02d", $0) } + [""]
        func line(_ order: [Int]) -> String {
            "{" + order.map { "\"\(names[$0])\": \($0)" }.joined(separator: ", ") + "}"
        }
        let orders = [Array(0...40), Array((0...40).reversed()), Array(0...40), [40, 1, 0] + Array(2...39)]
        for chunkSize in [7, 1 << 16] {
            let text = orders.map(line).joined(separator: "\n")
            let reader = JSONRecordReader(bytes: Array(text.utf8), chunkSize: chunkSize)
            let records = try reader.readAll()
            #expect(reader.keys == names)
            for (record, order) in zip(records, orders) {
                #expect((0..<record.count).map { record.keyIndex(at: $0) } == order)
                #expect((0..<record.count).map { record.text(at: $0) } == order.map(String.init))
            }
        }
    }

    /// A record's own memory (the values' bytes, the members) grows past its first capacity: a
    /// value of 110 KB, strings with escapes and non-ASCII text, 53 members, nested values kept as
    /// text (strings in them checked aside, copied as written), at chunk sizes that cut every token.
    @Test func longValuesManyMembersEscapesAndNestedTextSurviveTheRecordGrowing() throws {
        let long = String(repeating: "abcdéf😀", count: 10_000)
        let escaped = String(repeating: #"\"q\" \\ \u00e9\ud83d\ude00\n"#, count: 200)
        let decoded = String(repeating: "\"q\" \\ é😀\n", count: 200)
        let nested = #"{"k\"ey": ["a\u00e9", 1.5e3, true, null, {"z": []}], "é": "ü"}"#
        let many = (0..<50).map { "\"m\($0)\": \($0)" }.joined(separator: ", ")
        let text = """
            {"long": "\(long)", "esc": "\(escaped)", "nested": \(nested), \(many)}
            {"nested": [ "x" , { "y" : "\\u0041" } ], "long": "", "esc": "\\u00e9"}
            """
        for chunkSize in [7, 4096, 1 << 16] {
            let reader = JSONRecordReader(bytes: Array(text.utf8), chunkSize: chunkSize)
            let records = try reader.readAll()
            try #require(records.count == 2)
            #expect(records[0].count == 53)
            #expect(records[0].text(at: 0) == long)
            #expect(records[0].text(at: 1) == decoded)
            #expect(records[0].text(at: 2) == #"{"k\"ey":["a\u00e9",1.5e3,true,null,{"z":[]}],"é":"ü"}"#)
            #expect(records[0].kind(at: 2) == .nested)
            #expect((3..<53).map { records[0].text(at: $0) } == (0..<50).map(String.init))
            #expect((3..<53).map { reader.keys[records[0].keyIndex(at: $0)] } == (0..<50).map { "m\($0)" })
            #expect(records[1].text(at: 0) == #"["x",{"y":"\u0041"}]"#)
            #expect(records[1].text(at: 1) == "")
            #expect(records[1].text(at: 2) == "é")
        }
    }

    /// Records are values: one kept while the reader refills another is unchanged (copy on write).
    @Test func aRecordKeptIsNotChangedByTheNextRead() throws {
        let reader = JSONRecordReader(bytes: Array("{\"a\": \"first\", \"b\": 1}\n{\"b\": \"second\"}\n".utf8))
        var record = JSONRecord()
        #expect(try reader.read(into: &record))
        let kept = record
        #expect(try reader.read(into: &record))
        #expect(kept.count == 2 && kept.text(at: 0) == "first" && kept.line == 1)
        #expect(record.count == 1 && record.text(at: 0) == "second" && record.line == 2)
        #expect(try !reader.read(into: &record))
    }

    // MARK: Errors name their line and column

    @Test(
        arguments: [
            ("{\"a\": 1,}", "1:9: expected a key (a string in double quotes), found '}'"),
            ("{\"a\" 1}", "1:6: expected ':' after the key, found '1'"),
            ("{\"a\": 1 \"b\": 2}", "1:9: expected ',' or '}' after the value, found '\"'"),
            ("{\"a\": tru}", "1:7: invalid literal (expected true)"),
            ("{\"a\": nulls}", "1:7: invalid literal (expected null)"),
            ("{\"a\": 01}", "1:7: invalid number (no leading zeros in JSON)"),
            ("{\"a\": -}", "1:8: invalid number (a digit must follow '-')"),
            ("{\"a\": 1.}", "1:9: invalid number (a digit must follow '.')"),
            ("{\"a\": 1e+}", "1:10: invalid number (a digit must follow the exponent)"),
            ("{\"a\": 12ab}", "1:7: invalid number"),
            ("{\"a\": 'x'}", "1:7: expected a value, found '''"),
            ("{\"a\": \"x\\q\"}", "1:9: invalid escape '\\q' (JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"),
            ("{\"a\": \"\\u12G4\"}", "1:12: expected four hexadecimal digits after \\u, found 'G'"),
            ("{\"a\": \"x\ty\"}", "1:9: a tab in a string (write it as an escape, e.g. \\n or \\t)"),
            ("{\"a\": \"x", "1:9: expected '\"' (the string is not closed), found the end of the file"),
            ("{\"a\": [1, 2}", "1:12: expected ',' or ']' after the value, found '}'"),
            ("{\"a\": [1, 2", "1:12: expected ',' or ']' (the array is not closed), found the end of the file"),
            ("{\"a\": {\"b\" 2}}", "1:12: expected ':' after the key, found '2'"),
            ("{\"a\": 1", "1:8: expected ',' or '}' after the value, found the end of the file"),
            ("{\"a\": }", "1:7: expected a value, found '}'"),
            ("{1: 2}", "1:2: expected a key (a string in double quotes), found '1'"),
            ("{\"a\": 1}\n[1]", "2:1: expected an object ('{') at the start of a record, found '['"),
            ("{\"a\": 1}\n\n  42", "3:3: expected an object ('{') at the start of a record, found '4'"),
            ("[1, 2]", "1:2: expected an object ('{') as the array's element, found '1'"),
            ("[{\"a\": 1}, 2]", "1:12: expected an object ('{') after ',', found '2'"),
            ("[{\"a\": 1},]", "1:11: expected an object ('{') after ',', found ']'"),
            ("[{\"a\": 1} {\"a\": 2}]", "1:11: expected ',' or ']' after the array's element, found '{'"),
            ("[{\"a\": 1}", "1:10: expected ',' or ']' (the array is not closed), found the end of the file"),
            ("[", "1:2: expected an object or ']' (the array is not closed), found the end of the file"),
            ("[{\"a\": 1}]\n{\"b\": 2}", "2:1: expected nothing after the end of the array, found '{'"),
            ("{\"é\": \"ü\", \"x\": é}", "1:17: expected a value, found 'é'"),
            ("{\"a\": \"é\"}\n{\"b\":\n  [1,\n   2,,3]}", "4:6: expected a value, found ','"),
            ("{\"a\": 1} // comment", "1:10: expected an object ('{') at the start of a record, found '/'"),
        ]
    )
    func anErrorNamesItsLineAndColumn(text: String, message: String) throws {
        #expect(try jsonError(text).description == message)
    }

    @Test func aControlCharacterIsNamedByItsEscape() throws {
        #expect(try jsonError("{\"a\": \u{1}}").description == "1:7: expected a value, found '\\u0001'")
    }

    @Test func deepNestingIsRefused() throws {
        let depth = JSONRecordReader.maximumDepth + 1
        let text = "{\"a\": " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        let error = try jsonError(text)
        #expect(error.reason == "nested more than 512 arrays and objects deep")
        #expect(error.column == 7 + JSONRecordReader.maximumDepth)
    }

    @Test func aRecordLongerThanTheLimitsStopsTheReader() throws {
        let limits = CSVReader.Limits(maxFieldBytes: 64, maxRecordBytes: 256)
        let long = "{\"a\": \"" + String(repeating: "x", count: 100) + "\"}"
        let reader = JSONRecordReader(bytes: Array(("{\"a\": 1}\n" + long).utf8), chunkSize: 16, limits: limits)
        #expect(throws: JSONError.recordTooLong(line: 2, column: 1)) { _ = try reader.readAll() }
        let endless = JSONRecordReader(
            bytes: Array(("{\"a\": [" + String(repeating: "1,", count: 1000)).utf8),
            chunkSize: 16,
            limits: limits
        )
        #expect(throws: JSONError.recordTooLong(line: 1, column: 1)) { _ = try endless.readAll() }
    }

    @Test func aColumnCountsCharactersPastWhatIsNoLongerBuffered() throws {
        // One long line: the error's column counts characters dropped from the buffer long before.
        let records = (0..<50).map { "{\"é\": \($0)}" }.joined(separator: " ")
        let error = try jsonError(records + " {\"é\": x}")
        #expect(error.line == 1)
        #expect(error.column == records.count + 8)
    }

    @Test func aFileIsReadUpToItsEndOffset() throws {
        let path = NSTemporaryDirectory() + "json-reader-\(UUID().uuidString).jsonl"
        let text = "{\"a\": 1}\n{\"a\": 2}\n{\"a\": 3}\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try JSONRecordReader(path: path, chunkSize: 4, endOffset: 18)
        #expect(try reader.readAll().map { $0.text(at: 0) } == ["1", "2"])
        #expect(reader.totalBytes == 18)
    }
}
