import TestSupport
import Testing

@testable import CSVImport

/// Reads `text` with the given chunk size and returns (line, fields) pairs.
func parse(_ text: String, chunkSize: Int = 1 << 16) throws -> [(Int, [String])] {
    try parse(bytes: Array(text.utf8), chunkSize: chunkSize)
}

func parse(bytes: [UInt8], chunkSize: Int = 1 << 16) throws -> [(Int, [String])] {
    let reader = CSVReader(bytes: bytes, chunkSize: chunkSize)
    return try reader.readAll().map { ($0.line, $0.fields) }
}

@Suite struct CSVReaderTests {
    @Test func quotedFieldsKeepCommasQuotesAndLineBreaks() throws {
        let text = "a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\r\nlines\"\r\nlast,,\r\n"
        let records = try parse(text)
        #expect(records.count == 3)
        #expect(records[0].1 == ["a", "b", "c"])
        #expect(records[1].1 == ["x, y", "say \"hi\"", "two\r\nlines"])
        #expect(records[2].1 == ["last", "", ""])
    }

    @Test func recordsCarryTheLineTheyStartOn() throws {
        let text = "h1,h2\n\"multi\nline\nfield\",x\nnext,y\r\nthen,z\rend,w"
        let lines = try parse(text).map(\.0)
        #expect(lines == [1, 2, 5, 6, 7])
    }

    @Test(arguments: ["\r\n", "\n", "\r"])
    func everyLineEndingSeparatesRecords(ending: String) throws {
        let text = ["a,b", "c,d", "\"e\(ending)f\",g"].joined(separator: ending) + ending
        let records = try parse(text)
        #expect(records.map(\.1) == [["a", "b"], ["c", "d"], ["e\(ending)f", "g"]])
        #expect(records.map(\.0) == [1, 2, 3])
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let records = try parse(bytes: [0xEF, 0xBB, 0xBF] + Array("Bank,City\r\nA,B".utf8), chunkSize: 4)
        #expect(records.map(\.1) == [["Bank", "City"], ["A", "B"]])
    }

    @Test func theLastRecordNeedsNoLineEnd() throws {
        #expect(try parse("a,b\r\nc,d").map(\.1) == [["a", "b"], ["c", "d"]])
        #expect(try parse("a,\"b\"").map(\.1) == [["a", "b"]])
        #expect(try parse("a,").map(\.1) == [["a", ""]])
    }

    @Test func blankLinesAreSkipped() throws {
        let records = try parse("a\r\n\r\n\nb\r\n\r\n")
        #expect(records.map(\.1) == [["a"], ["b"]])
        #expect(records.map(\.0) == [1, 4])
    }

    @Test func anEmptyInputHasNoRecords() throws {
        #expect(try parse("").isEmpty)
        #expect(try parse(bytes: [0xEF, 0xBB, 0xBF]).isEmpty)
        #expect(try parse("\r\n\r\n").isEmpty)
    }

    @Test func anUnterminatedQuoteIsAnErrorNamingTheLine() throws {
        #expect(throws: CSVError.unterminatedQuote(line: 2)) {
            try parse("a,b\r\n\"open,x\r\nmore")
        }
    }

    @Test func strayQuotesAreKeptLeniently() throws {
        #expect(try parse("ab\"c,\"d\"e\n").map(\.1) == [["ab\"c", "de"]])
    }

    @Test func everyChunkBoundaryGivesTheSameRecords() throws {
        let text = "\u{feff}h,\"q\"\"x\"\r\n\"a,\r\nb\",c\rd,\"\"\ne,f"
        let expected = try parse(text).map(\.1)
        for size in 4...24 {
            let got = try parse(text, chunkSize: size)
            #expect(got.map(\.1) == expected, "chunk size \(size)")
            #expect(got.map(\.0) == [1, 2, 4, 5], "chunk size \(size)")
        }
    }

    @Test func missingFileIsReportedAsMissingInput() {
        do {
            _ = try CSVReader(path: "/nonexistent/dir/file.csv")
            Issue.record("expected an error")
        } catch let error as CSVError {
            #expect(error.isMissingInput)
            #expect(error.description.contains("/nonexistent/dir/file.csv"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func recordsReadFromAFileMatchMemory() throws {
        let folder = TemporaryDirectory("csvreader")
        defer { folder.remove() }
        let path = folder.path("banks.csv")
        let text = "Bank Name,City\r\n\"A, B\",C\r\n"
        let writer = try CSVWriter(path: path)
        writer.writeRaw(Array(text.utf8))
        try writer.flush()
        let reader = try CSVReader(path: path, chunkSize: 5)
        #expect(try reader.readAll().map(\.fields) == [["Bank Name", "City"], ["A, B", "C"]])
        #expect(reader.bytesRead == Int64(text.utf8.count))
        #expect(reader.totalBytes == Int64(text.utf8.count))
    }
}
