import CSVImport
import Foundation
import Testing

@Suite struct CSVDialectTests {
    @Test(
        arguments: [(",", UInt8(ascii: ",")), (";", UInt8(ascii: ";")), ("\t", 0x09), ("|", UInt8(ascii: "|"))]
            as [(String, UInt8)]
    )
    func sniffFindsEachDelimiter(separator: String, byte: UInt8) {
        let text =
            ["name", "city", "score"].joined(separator: separator) + "\n"
            + ["Ada", "Paris", "12"].joined(separator: separator) + "\n"
            + ["Bob", "Oslo", "7"].joined(separator: separator) + "\n"
        let dialect = CSVDialect.sniff(Array(text.utf8))
        #expect(dialect.delimiter == byte)
        #expect(dialect.encoding == .utf8)
        #expect(!dialect.hasByteOrderMark)
    }

    @Test func delimiterInsideQuotesDoesNotCount() {
        let text = "name;note\n\"Smith, Ada\";\"a, b, c\"\n\"Lee, Bo\";\"d, e\"\n"
        #expect(CSVDialect.sniff(Array(text.utf8)).delimiter == UInt8(ascii: ";"))
    }

    @Test func semicolonFileWithDecimalCommasStaysSemicolonSeparated() {
        let text = "item;price\ntea;3,50\ncoffee;2,75\n"
        #expect(CSVDialect.sniff(Array(text.utf8)).delimiter == UInt8(ascii: ";"))
    }

    @Test func oneColumnFileIsCommaSeparated() {
        #expect(CSVDialect.sniff(Array("name\nAda\nBob\n".utf8)).delimiter == UInt8(ascii: ","))
    }

    @Test func byteOrderMarkIsNotedAndTheEncodingIsUTF8() {
        let dialect = CSVDialect.sniff([0xEF, 0xBB, 0xBF] + Array("a;b\n1;2\n".utf8))
        #expect(dialect.hasByteOrderMark)
        #expect(dialect.encoding == .utf8)
        #expect(dialect.delimiter == UInt8(ascii: ";"))
    }

    @Test func bytesThatAreNotUTF8AreWindows1252() {
        let bytes = Array("name,city\nFirst".utf8) + [0x96] + Array("Citizens,M".utf8) + [0xFC] + Array("nchen\n".utf8)
        let dialect = CSVDialect.sniff(bytes)
        #expect(dialect.encoding == .windows1252)
        let text = ([0x96, 0xFC] as [UInt8]).withUnsafeBytes { dialect.string(from: $0) }
        #expect(text == "\u{2013}\u{FC}")  // en dash, ü
    }

    @Test func aSampleCutInsideACharacterIsStillUTF8() {
        // "é" is two bytes: a sample of exactly sampleSize bytes may end between them.
        var bytes = Array("name,note\n".utf8)
        while bytes.count < CSVDialect.sampleSize - 1 { bytes += Array("x,caf\u{e9}\n".utf8) }
        bytes = Array(bytes.prefix(CSVDialect.sampleSize))
        if bytes.last != 0xC3 { bytes[bytes.count - 1] = 0xC3 }
        #expect(CSVDialect.sniff(bytes).encoding == .utf8)
    }

    @Test func sniffingAFixtureFile() throws {
        let path = fixturesDirectory.appendingPathComponent("csv-generic/tab_windows1252.tsv").path
        let dialect = try CSVDialect.sniff(path: path)
        #expect(dialect == CSVDialect(delimiter: 0x09, encoding: .windows1252))
        #expect(dialect.description == "tab-separated, Windows-1252")
    }

    @Test func sniffingAMissingFileIsCannotOpen() {
        #expect(throws: CSVError.self) { try CSVDialect.sniff(path: "/nonexistent/x.csv") }
    }

    @Test func readerSplitsOnTheGivenDelimiter() throws {
        let reader = CSVReader(bytes: Array("a|\"b|c\"|d\n1||3\n".utf8), chunkSize: 3, delimiter: UInt8(ascii: "|"))
        let records = try reader.readAll()
        #expect(records.map(\.fields) == [["a", "b|c", "d"], ["1", "", "3"]])
    }

    @Test func readerWithTabsKeepsCommasInFields() throws {
        let reader = CSVReader(bytes: Array("a,b\tc\n1,5\t2\n".utf8), delimiter: 0x09)
        #expect(try reader.readAll().map(\.fields) == [["a,b", "c"], ["1,5", "2"]])
    }

    /// Issue 38.14: one Windows-1252 byte in the sample made the whole file Windows-1252 (`café` read
    /// as `cafÃ©`); fields are decoded one by one, as failedbanks' importer does.
    @Test func aFileThatMixesEncodingsIsDecodedFieldByField() {
        let bytes = Array("name\ncafé\nRen".utf8) + [0xE9] + Array("e\n".utf8)
        let dialect = CSVDialect.sniff(bytes)
        #expect(dialect.encoding == .windows1252, "the sample as a whole is not UTF-8")
        let utf8 = Array("café".utf8).withUnsafeBytes { dialect.string(from: $0) }
        #expect(utf8 == "café")
        let windows1252 = (Array("Ren".utf8) + [0xE9, 0x65]).withUnsafeBytes { dialect.string(from: $0) }
        #expect(windows1252 == "Renée")
    }
}
