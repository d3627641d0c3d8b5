import TestSupport
import Testing

@testable import CSVImport

@Suite struct BankListGeneratorTests {
    @Test func theSameSeedGivesTheSameBytes() throws {
        let a = CSVWriter()
        let b = CSVWriter()
        try BankListGenerator(seed: 7).write(rows: 300, to: a)
        try BankListGenerator(seed: 7).write(rows: 300, to: b)
        #expect(a.bytes == b.bytes)
        let c = CSVWriter()
        try BankListGenerator(seed: 8).write(rows: 300, to: c)
        #expect(a.bytes != c.bytes)
    }

    @Test func generatedListsHaveUniqueCertsNewestFirstWithinRange() {
        let banks = Array(BankListGenerator(seed: 2024).banks(count: 5_000))
        #expect(Set(banks.map(\.cert)).count == banks.count)
        #expect(zip(banks, banks.dropFirst()).allSatisfy { $0.closingDate >= $1.closingDate })
        #expect(banks.first!.closingDate.year == 2025)
        #expect(banks.last!.closingDate.year == 2000)
        #expect(banks.contains { $0.name.contains(",") })
        #expect(banks.contains { $0.name.unicodeScalars.contains { !$0.isASCII } })
    }

    @Test func theOutputReadsBackInTheFDICFormat() throws {
        let writer = CSVWriter()
        try BankListGenerator(seed: 2024).write(rows: 500, to: writer)
        let records = try CSVReader(bytes: writer.bytes).readAll()
        #expect(records.count == 501)
        #expect(records[0].fields == BankListGenerator.header)
        let expected = Array(BankListGenerator(seed: 2024).banks(count: 500)).map(\.fields)
        #expect(records.dropFirst().map(\.fields) == expected)
        #expect(writer.bytes.starts(with: Array("Bank Name\u{a0},City\u{a0},".utf8)))
        for record in records.dropFirst() {
            #expect(CalendarDay.parse(record[5]) != nil, "\(record)")
        }
    }
}
