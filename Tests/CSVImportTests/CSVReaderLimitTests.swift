import TestSupport
import Testing

@testable import CSVImport

/// The reader's limits on a field and a record: input without an end stops it, not memory.
@Suite struct CSVReaderLimitTests {
    static let mebibyte = 1 << 20

    /// Reads every record of `bytes` with `limits`; the error, if any.
    private func readAll(
        _ bytes: [UInt8],
        chunkSize: Int = 1 << 16,
        limits: CSVReader.Limits = .standard
    ) -> (records: [CSVRecord], error: CSVError?) {
        let reader = CSVReader(bytes: bytes, chunkSize: chunkSize, limits: limits)
        var records: [CSVRecord] = []
        do {
            while let record = try reader.next() { records.append(record) }
            return (records, nil)
        } catch {
            return (records, error as? CSVError)
        }
    }

    @Test func theStandardLimitsAreOneMebibytePerFieldAndSixteenPerRecord() {
        #expect(CSVReader.Limits.standard.maxFieldBytes == 1 << 20)
        #expect(CSVReader.Limits.standard.maxRecordBytes == 1 << 24)
    }

    @Test(arguments: [false, true])
    func aFieldOfExactlyOneMebibyteIsReadAndOneByteMoreIsTooLong(quoted: Bool) {
        func row(_ length: Int) -> [UInt8] {
            let field = [UInt8](repeating: UInt8(ascii: "x"), count: length)
            let body = quoted ? [0x22] + field + [0x22] : field
            return Array("a,b\r\n".utf8) + Array("1,".utf8) + body + Array("\r\nlast,row\r\n".utf8)
        }
        let fits = readAll(row(Self.mebibyte))
        #expect(fits.error == nil)
        #expect(fits.records.count == 3)
        #expect(fits.records.count == 3 && fits.records[1].rawBytes(at: 1).count == Self.mebibyte)

        let over = readAll(row(Self.mebibyte + 1))
        #expect(over.error == .recordTooLong(line: 2))
        #expect(over.records.count == 1, "the header is read, then the reader stops")
    }

    @Test func doubledQuotesCountOnceAndAreLimitedToo() {
        // A quoted field made only of `""` pairs: each pair is one byte of the field.
        let pairs = { (n: Int) in [0x22] + [UInt8](repeating: 0x22, count: 2 * n) + [0x22, 0x0A] }
        #expect(readAll(pairs(Self.mebibyte)).error == nil)
        #expect(readAll(pairs(Self.mebibyte + 1)).error == .recordTooLong(line: 1))
    }

    @Test func aRecordOfExactlySixteenMebibytesIsReadAndOneByteMoreIsTooLong() {
        // 16 fields and 15 commas: fifteen fields of 1 MiB and one of 1 MiB - 15 make 16 MiB exactly.
        func record(lastField: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            for _ in 0..<15 {
                bytes += [UInt8](repeating: UInt8(ascii: "y"), count: Self.mebibyte)
                bytes.append(UInt8(ascii: ","))
            }
            bytes += [UInt8](repeating: UInt8(ascii: "z"), count: lastField)
            return Array("header\n".utf8) + bytes + [0x0A]
        }
        let fits = readAll(record(lastField: Self.mebibyte - 15))
        #expect(fits.error == nil)
        #expect(fits.records.count == 2 && fits.records[1].count == 16)

        #expect(readAll(record(lastField: Self.mebibyte - 14)).error == .recordTooLong(line: 2))
    }

    @Test(arguments: [1, 3, 7, 64, 1 << 16])
    func smallLimitsHoldAtEveryChunkBoundary(chunkSize: Int) {
        let limits = CSVReader.Limits(maxFieldBytes: 4, maxRecordBytes: 12, maxFieldCount: 4)
        // Record lengths count one byte per comma: "abcd,efgh,ij" is 12.
        #expect(readAll(Array("abcd,efgh,ij\n\"ab\"\"d\",x\n".utf8), chunkSize: chunkSize, limits: limits).error == nil)
        #expect(
            readAll(Array("ok\nabcde,x\n".utf8), chunkSize: chunkSize, limits: limits).error == .recordTooLong(line: 2)
        )
        #expect(
            readAll(Array("ok\n\n\"abc\"\"d\"\n".utf8), chunkSize: chunkSize, limits: limits).error
                == .recordTooLong(line: 3)
        )
        #expect(
            readAll(Array("abcd,efgh,ijk\n".utf8), chunkSize: chunkSize, limits: limits).error
                == .recordTooLong(line: 1)
        )
        #expect(readAll(Array(",,,\n".utf8), chunkSize: chunkSize, limits: limits).error == nil, "four empty fields")
        #expect(
            readAll(Array(",,,,\n".utf8), chunkSize: chunkSize, limits: limits).error == .recordTooLong(line: 1),
            "five fields"
        )
        #expect(readAll(Array(",,,".utf8), chunkSize: chunkSize, limits: limits).error == nil, "four fields at the end")
        #expect(
            readAll(Array(",,,,".utf8), chunkSize: chunkSize, limits: limits).error == .recordTooLong(line: 1),
            "five fields, the last one empty at the end of the input"
        )
    }

    @Test func anEndlessLineOfCommasIsLimitedByTheFieldCount() {
        let commas = [UInt8](repeating: UInt8(ascii: ","), count: 1 << 17)
        #expect(readAll(commas).error == .recordTooLong(line: 1))
    }

    @Test func afterTheErrorTheReaderIsAtItsEnd() throws {
        let limits = CSVReader.Limits(maxFieldBytes: 2, maxRecordBytes: 8)
        let reader = CSVReader(bytes: Array("abc\nd\n".utf8), limits: limits)
        #expect(throws: CSVError.recordTooLong(line: 1)) { _ = try reader.next() }
        #expect(try reader.next() == nil)
    }

    @Test func devZeroStopsAfterOneFieldLimitAndAChunkWithBoundedMemory() throws {
        // NUL bytes only, no line end, no end of file.
        let chunkSize = 1 << 18
        let reader = try CSVReader(path: "/dev/zero", chunkSize: chunkSize)
        var record = CSVRecord()
        #expect(throws: CSVError.recordTooLong(line: 1)) { _ = try reader.read(into: &record) }
        #expect(reader.bytesRead <= Int64(Self.mebibyte + chunkSize), "read \(reader.bytesRead) bytes")
        #expect(
            record.storage.byteCapacity <= 2 * (Self.mebibyte + chunkSize),
            "buffered \(record.storage.byteCapacity) bytes"
        )
    }

    @Test func withSmallLimitsTheOutcomeDoesNotDependOnTheChunkSize() {
        // Random CSV-ish bytes: the same records, or the same error at the same line, for every chunking.
        var random = SplitMix64(seed: 13_004)
        let alphabet = Array("ab\",\r\n".utf8)
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...60, using: &random)).map { _ in alphabet.randomElement(using: &random)!
            }
            let limits = CSVReader.Limits(
                maxFieldBytes: Int.random(in: 1...8, using: &random),
                maxRecordBytes: Int.random(in: 1...24, using: &random),
                maxFieldCount: Int.random(in: 1...6, using: &random)
            )
            func outcome(_ chunkSize: Int) -> String {
                let result = readAll(bytes, chunkSize: chunkSize, limits: limits)
                if let error = result.error { return "\(error)" }
                return result.records.map { "\($0.line) \($0.fields)" }.joined(separator: "; ")
            }
            let whole = outcome(1 << 16)
            for chunkSize in [1, 2, 5] {
                #expect(outcome(chunkSize) == whole, "\(bytes) with \(limits), chunks of \(chunkSize)")
            }
        }
    }

    @Test func theErrorSaysRecordTooLongWithTheLine() {
        #expect(CSVError.recordTooLong(line: 7).description == "line 7: record too long")
    }
}
