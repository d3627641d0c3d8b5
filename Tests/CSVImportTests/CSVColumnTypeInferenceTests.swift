import CSVImport
import Foundation
import TestSupport
import Testing

@Suite struct CSVColumnTypeInferenceTests {
    func value(_ text: String) -> CSVFieldValue { CSVFieldValue.classify(Array(text.utf8)) }

    func types(_ rows: [[String]]) -> [CSVColumnType] {
        var inference = CSVColumnTypeInference(columnCount: rows[0].count)
        for row in rows {
            for (column, field) in row.enumerated() { inference.add(value(field), column: column) }
        }
        return inference.types
    }

    @Test func integersAreWrittenWithoutLeadingZerosOrPlus() {
        #expect(value("0") == .integer(0))
        #expect(value("42") == .integer(42))
        #expect(value("-17") == .integer(-17))
        #expect(value("9223372036854775807") == .integer(.max))
        #expect(value("-9223372036854775808") == .integer(.min))
        #expect(value("9223372036854775808") == .text)  // too large for 64 bits
        #expect(value("007") == .text)
        #expect(value("+5") == .text)
        #expect(value("-0") == .text)
        #expect(value(" 12") == .text)
        #expect(value("12 ") == .text)
        #expect(value("-") == .text)
    }

    @Test func realsSayWhetherSQLiteWritesThemBackAsWritten() {
        #expect(value("3.25") == .real(3.25, exact: true))
        #expect(value("-0.5") == .real(-0.5, exact: true))
        #expect(value("10.0") == .real(10, exact: true))
        #expect(value("0.0") == .real(0, exact: true))
        #expect(value("0.0001") == .real(0.0001, exact: true))
        #expect(value("3.50") == .real(3.5, exact: false))
        #expect(value("0.00001") == .real(0.00001, exact: false))
        #expect(value("-0.0") == .real(-0.0, exact: false))
        #expect(value("1e3") == .real(1000, exact: false))
        #expect(value("2.5E-2") == .real(0.025, exact: false))
        #expect(value("1234567890.123456") == .real(1234567890.123456, exact: false))  // 16 digits
        #expect(value(".5") == .text)
        #expect(value("5.") == .text)
        #expect(value("1.2.3") == .text)
        #expect(value("1,5") == .text)
        #expect(value("1e") == .text)
        #expect(value("NaN") == .text)
    }

    /// The loader stores such values as numbers: they must read back as the very text.
    @Test func numbersReadBackAsTheirText() {
        let seed = PropertySettings.seed(default: 0xC5F_7E47)
        var generator = SplitMix64(seed: seed)
        var samples = ["0", "-1", "10.0", "0.0001", "123456.789", "-3.5", "99999999999999.9", "0.1", "1.0", "0.3"]
        for _ in 0..<2000 {
            let digits = Int.random(in: 1...9, using: &generator)
            let whole = Int.random(in: 0...999_999, using: &generator)
            let fraction = String(Int.random(in: 0...Int(pow(10.0, Double(digits))) - 1, using: &generator))
            samples.append(
                "\(Bool.random(using: &generator) ? "-" : "")\(whole).\(String(repeating: "0", count: max(0, digits - fraction.count)))\(fraction)"
            )
            samples.append(String(Int64.random(in: .min ... .max, using: &generator)))
        }
        for text in samples {
            switch value(text) {
            case .integer(let n): #expect(String(n) == text, "\(PropertySettings.replay(seed))")
            case .real(let x, exact: true): #expect("\(x)" == text, "\(PropertySettings.replay(seed))")
            default: break
            }
        }
    }

    @Test func isoDatesAndDateTimes() {
        #expect(value("2024-02-29") == .date)
        #expect(value("2023-02-29") == .text)
        #expect(value("2024-13-01") == .text)
        #expect(value("2024-1-01") == .text)
        #expect(value("2024-01-05T10:00") == .dateTime)
        #expect(value("2024-01-05T10:00:59") == .dateTime)
        #expect(value("2024-01-05 10:00:59") == .dateTime)
        #expect(value("2024-01-05T10:00:59Z") == .dateTime)
        #expect(value("2024-01-05T10:00:59.123Z") == .dateTime)
        #expect(value("2024-01-05T10:00:59+02:00") == .dateTime)
        #expect(value("2024-01-05T10:00:59-0530") == .dateTime)
        #expect(value("2024-01-05T24:00:00") == .text)
        #expect(value("2024-01-05T10:00:59ZZ") == .text)
        #expect(value("2024-01-05x") == .text)
        #expect(value("26-Apr-24") == .text)  // ISO only
    }

    @Test func emptyFieldsAreNullAndDoNotDecideTheType() {
        #expect(value("") == .empty)
        #expect(types([["1", ""], ["", ""], ["3", ""]]) == [.integer, .text])
    }

    @Test func typesCombineOverAllRows() {
        let rows = [
            ["1", "1", "2024-01-01", "2024-01-01", "1", "x"],
            ["2", "2.5", "2024-01-02", "2024-01-02T03:04:05Z", "2024-01-01", "2"],
            ["3", "-4", "", "2024-01-03", "", "3.5"],
        ]
        #expect(types(rows) == [.integer, .real, .date, .dateTime, .text, .text])
    }

    @Test func aLateValueChangesTheType() {
        var rows = Array(repeating: ["12"], count: 10_000)
        rows.append(["twelve"])
        #expect(types(rows) == [.text])
    }

    @Test func countsTellWhichValuesWereNumbers() {
        var inference = CSVColumnTypeInference(columnCount: 1)
        for field in ["1", "2.5", "2.50", "", "x"] { inference.add(value(field), column: 0) }
        let counts = inference.counts[0]
        #expect(counts.integers == 1 && counts.exactReals == 1 && counts.otherReals == 1)
        #expect(counts.empty == 1 && counts.texts == 1 && counts.values == 4)
    }

    @Test func mergingTwoPartsIsInferringTheWhole() {
        var a = CSVColumnTypeInference(columnCount: 2)
        var b = CSVColumnTypeInference(columnCount: 2)
        a.add(value("1"), column: 0)
        b.add(value("1.5"), column: 0)
        b.add(value("2024-01-01"), column: 1)
        a.merge(b)
        #expect(a.types == [.real, .date])
    }
}

@Suite struct CSVColumnNamesTests {
    @Test func duplicateEmptyAndReservedHeaderNamesAreMadeUnique() {
        #expect(
            CSVColumnNames.make(from: ["Name", "", "name", " City ", "rowid", "NAME", "a\nb", "OID"])
                == ["Name", "column_2", "name_2", "City", "rowid_2", "NAME_3", "a b", "OID_2"]
        )
    }

    @Test func aSuffixThatIsTakenIsSkipped() {
        #expect(CSVColumnNames.make(from: ["a", "a_2", "a"]) == ["a", "a_2", "a_3"])
        #expect(CSVColumnNames.make(from: ["", "column_1"]) == ["column_1", "column_1_2"])
    }
}
