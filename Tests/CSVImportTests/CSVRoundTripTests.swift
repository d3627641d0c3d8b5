import Foundation
import TestSupport
import Testing

@testable import CSVImport

@Suite struct CSVRoundTripTests {
    static let alphabet: [String] = [
        "a", "Z", "7", " ", ",", "\"", "\r", "\n", "\r\n", "é", "–", "ß", "日", "🏦", "\u{a0}", "'", ";", "x",
    ]

    static func randomField(using rng: inout SplitMix64) -> String {
        let length = Int.random(in: 0...12, using: &rng)
        return (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }.joined()
    }

    /// Property: random records written as CSV (random quoting and line ends) read back equal.
    /// `PROPERTY_SEED` re-runs one seed; `PROPERTY_LONG=1` runs many more cases.
    @Test func randomRecordsRoundTrip() throws {
        let count = UInt64(PropertySettings.cases(normal: 200, long: 5_000))
        let seeds = PropertySettings.replayedSeed.map { [$0] } ?? Array(1...count)
        for seed in seeds {
            var rng = SplitMix64(seed: seed)
            let ending = ["\r\n", "\n", "\r"][Int.random(in: 0..<3, using: &rng)]
            let width = Int.random(in: 1...6, using: &rng)
            let records = (0..<Int.random(in: 1...20, using: &rng)).map { _ in
                (0..<width).map { _ in Self.randomField(using: &rng) }
            }
            let writer = CSVWriter(lineEnding: ending)
            for record in records {
                // A record that is one empty field is a blank line, which readers skip: quote it.
                let quoted = record.map { $0.isEmpty && width == 1 ? true : Bool.random(using: &rng) }
                try writer.write(record, quoted: quoted)
            }
            var bytes = writer.bytes
            if Bool.random(using: &rng), bytes.count >= ending.utf8.count,
                !(records.last! == [""])
            {
                bytes.removeLast(ending.utf8.count)  // no final line end
            }
            let chunk = Int.random(in: 4...64, using: &rng)
            let got = try CSVReader(bytes: bytes, chunkSize: chunk).readAll().map(\.fields)
            #expect(got == records, "seed \(seed): \(PropertySettings.replay(seed))")
            if got != records { return }
        }
    }
}
