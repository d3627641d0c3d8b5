import CSVImport

/// The deterministic random generator of the test targets: the project's
/// SplitMix64 (the one that writes the sample data), so that property tests
/// print their seed and replay a failure.
///
///     var random = SeededGenerator(seed: 42)
///     let position = random.below(10)
///     let name = names.randomElement(using: &random)
public typealias SeededGenerator = SplitMix64

extension SplitMix64 {
    /// A number in `0..<n` (n > 0).
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
