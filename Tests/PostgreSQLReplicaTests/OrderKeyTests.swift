import Foundation
import PostgreSQLClient
import TestSupport
import Testing

@testable import PostgreSQLReplica

/// The keys of a replica's order columns sort as the server's `ORDER BY`: numbers however they
/// are written (sign, zeros, point, exponent) as the numbers they are, `-Infinity` first,
/// `Infinity` then `NaN` last but for NULL; equal numbers (`2.5`, `2.50`) have equal keys.
@Suite struct OrderKeyTests {
    /// A number's exact value for comparing: sign, digits and exponent through Foundation's Decimal.
    static func decimal(_ text: String) -> Decimal? { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) }

    static func randomNumber(_ random: inout SeededGenerator) -> String {
        let sign = random.below(3) == 0 ? "-" : ""
        let whole = String(random.below(4) == 0 ? 0 : random.below(100_000) * [1, 10, 1000][random.below(3)])
        let zeros = String(repeating: "0", count: random.below(3))
        let fraction = random.below(2) == 0 ? "" : "." + String(random.below(1000)) + zeros
        let exponent = random.below(5) == 0 ? "e\(["", "-", "+"][random.below(3)])\(random.below(12))" : ""
        return sign + (random.below(4) == 0 ? "0" : "") + whole + fraction + exponent
    }

    @Test func numbersSortAsTheirValuesWhateverTheirText() {
        var random = SeededGenerator(seed: 20_241_206)
        let texts = (0..<PropertySettings.cases(normal: 2000, long: 50_000)).map { _ in Self.randomNumber(&random) }
        for pair in zip(texts, texts.shuffled(using: &random)) {
            guard let a = Self.decimal(pair.0), let b = Self.decimal(pair.1) else {
                Issue.record("not a number: \(pair)")
                continue
            }
            let keys = (DecimalKey.key(pair.0), DecimalKey.key(pair.1))
            let byKey = keys.0.lexicographicallyPrecedes(keys.1) ? -1 : keys.0 == keys.1 ? 0 : 1
            let byValue = a < b ? -1 : a == b ? 0 : 1
            #expect(byKey == byValue, "\(pair.0) vs \(pair.1)")
        }
    }

    @Test func specialValuesSitWherePostgreSQLPutsThem() {
        let ordered = [
            "-Infinity", "-1e300", "-2.5", "-0.001", "0", "1e-20", "0.5", "2.5", "10", "1e300", "Infinity", "NaN",
        ]
        let keys = ordered.map(DecimalKey.key)
        for index in keys.indices.dropLast() {
            #expect(keys[index].lexicographicallyPrecedes(keys[index + 1]), "\(ordered[index]) < \(ordered[index + 1])")
        }
        #expect(DecimalKey.key("2.5") == DecimalKey.key("2.50") && DecimalKey.key("-0") == DecimalKey.key("0.000"))
        #expect(keys.allSatisfy { $0.first! < ReplicaOrder.nullKey }, "NULL's key is above every number's")
    }

    @Test func anICUCollationsKeysSortAsItsLocaleAndTellEqualTextsApartByTheirBytes() {
        let collator = ReplicaCollator(
            ColumnCollation(name: "en_us_icu", provider: .icu, locale: "en-US", isDeterministic: true)
        )
        func key(_ text: String) -> [UInt8] {
            var key: [UInt8] = []
            var text = text
            text.withUTF8 { collator.append(UnsafeRawBufferPointer($0), trimming: false, to: &key) }
            return key
        }
        let ordered = [
            "_under", "1abc", "a b", "a-b", "ab", "Äpfel", "apple", "Apple", "eclair", "Eclair", "éclair", "zebra",
        ]
        for index in ordered.indices.dropLast() {
            #expect(
                key(ordered[index]).lexicographicallyPrecedes(key(ordered[index + 1])),
                "\(ordered[index]) < \(ordered[index + 1])"
            )
        }
    }
}
