import Foundation
import Testing

@testable import CSVImport

/// The acid-test cases of `Tests/Fixtures/csv-spectrum-like/` (in the manner of the public
/// csv-spectrum suite): every file read at several chunk sizes gives the records of its JSON
/// twin, byte for byte — a quoted field keeps its bytes, a CRLF inside quotes included.
@Suite struct CSVSpectrumTests {
    static let folder = fixturesDirectory.appendingPathComponent("csv-spectrum-like")

    static let cases: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".csv") }.map { String($0.dropLast(4)) }.sorted()
    }()

    @Test func theSuiteHasEveryCase() {
        let expected = [
            "comma_in_quotes", "empty", "empty_crlf", "escaped_quotes", "json", "location_coordinates", "newlines",
            "newlines_crlf", "quotes_and_newlines", "simple", "simple_crlf", "utf8",
        ]
        #expect(CSVSpectrumTests.cases == expected)
    }

    @Test(arguments: CSVSpectrumTests.cases, [1, 3, 7, 1 << 16])
    func everyCaseReadsAsItsJSONSays(name: String, chunkSize: Int) throws {
        let csv = try [UInt8](Data(contentsOf: CSVSpectrumTests.folder.appendingPathComponent(name + ".csv")))
        let json = try Data(contentsOf: CSVSpectrumTests.folder.appendingPathComponent(name + ".json"))
        let expected = try #require(try JSONSerialization.jsonObject(with: json) as? [[String]])
        let reader = CSVReader(bytes: csv, chunkSize: chunkSize)
        let records = try reader.readAll()
        let bytes = records.map { record in
            (0..<record.count).map { index in record.withUnsafeBytes(at: index) { [UInt8]($0) } }
        }
        #expect(bytes == expected.map { $0.map { [UInt8]($0.utf8) } }, "\(name), chunks of \(chunkSize)")
    }

    @Test func aCRLFInsideQuotesIsKeptAndTheRecordEndsAreNot() throws {
        let records = try CSVReader(bytes: Array("a\r\n\"Once upon \r\na time\"\r\n".utf8), chunkSize: 5).readAll()
        #expect(records.count == 2)
        #expect(records[1].withUnsafeBytes(at: 0) { [UInt8]($0) } == Array("Once upon \r\na time".utf8))
    }
}
