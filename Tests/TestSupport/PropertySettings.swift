import Foundation

/// The one set of names every randomised test reads (property tests, the
/// reliability trials):
///
/// - `PROPERTY_SEED=N` replays the seed a failure printed;
/// - `PROPERTY_LONG=1` is the long form: many more cases, and fresh seeds
///   (each printed on failure) for more ground covered;
/// - `PROPERTY_QUICK=1` runs fewer cases (CI's run under AddressSanitizer,
///   which needs the code paths, not the numbers).
///
/// Without them every test runs its fixed seeds: a run is reproducible.
///
///     let seed = PropertySettings.seed(default: 0x5EED)
///     for round in 0..<PropertySettings.cases(normal: 20, long: 1_000) { … }
///     #expect(ok, "\(PropertySettings.replay(seed))")
public enum PropertySettings {
    static let environment = ProcessInfo.processInfo.environment

    /// `PROPERTY_LONG=1`.
    public static let isLong = environment["PROPERTY_LONG"] == "1"
    /// `PROPERTY_QUICK=1`.
    public static let isQuick = environment["PROPERTY_QUICK"] == "1"
    /// `PROPERTY_SEED`, when set to a number.
    public static let replayedSeed: UInt64? = environment["PROPERTY_SEED"].flatMap { UInt64($0) }

    /// `PROPERTY_SEED` when set; else `fixed`, or a fresh seed in the long form.
    public static func seed(default fixed: UInt64) -> UInt64 {
        if let replayedSeed { return replayedSeed }
        return isLong ? UInt64.random(in: 1...UInt64(UInt32.max)) : fixed
    }

    /// The seeds of a test that runs several: the replayed one alone, else `fixed`
    /// (and as many fresh ones again in the long form).
    public static func seeds(default fixed: [UInt64]) -> [UInt64] {
        if let replayedSeed { return [replayedSeed] }
        return isLong ? fixed + fixed.map { _ in UInt64.random(in: 1...UInt64(UInt32.max)) } : fixed
    }

    /// How many cases: `long` in the long form, `quick` (default `normal`) when quick, else `normal`.
    public static func cases(normal: Int, long: Int, quick: Int? = nil) -> Int {
        isLong ? long : isQuick ? (quick ?? normal) : normal
    }

    /// What a failure prints so that the run can be replayed.
    public static func replay(_ seed: UInt64) -> String {
        "replay with PROPERTY_SEED=\(seed)\(isLong ? " PROPERTY_LONG=1" : "")"
    }
}
