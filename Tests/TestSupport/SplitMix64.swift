/// SplitMix64, a small, fast, seedable pseudo-random generator.
///
/// The same seed gives the same sequence on every platform and Swift version
/// (unlike `SystemRandomNumberGenerator`), so generated sample files and
/// property tests are reproducible from their seed.
///
///     var rng = SplitMix64(seed: 2024)
///     let n = Int.random(in: 0..<100, using: &rng)
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state (advances by a constant each call).
    public private(set) var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
