import CSVImport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// The reliability suites: crash safety, concurrent writers, bad
/// stores and hostile terminals, run against the built executables.
///
/// They run one at a time (they kill processes, import large files and time
/// locks; two of them at once on two cores would test the machine, not the
/// program). Short by default for CI; `PROPERTY_LONG=1` runs the long form
/// (more trials, larger files). Randomised tests print their seed on failure;
/// `PROPERTY_SEED=<n>` replays one.
///
///     swift build && swift test --filter Reliability
///     swift build && PROPERTY_LONG=1 swift test --filter Reliability
@Suite(.serialized, .enabled(if: BrowserFixture.isAvailable, Comment(rawValue: BrowserFixture.unavailableReason ?? "")))
struct ReliabilityTests {}

/// Settings shared by the reliability tests, read from the environment.
enum ReliabilitySettings {
    static let environment = ProcessInfo.processInfo.environment

    /// `PROPERTY_LONG=1`: the long form (many more trials, larger files).
    static let isLong = PropertySettings.isLong

    /// `count` in CI, `long` in the long form; `RELIABILITY_TRIALS` overrides both.
    static func trials(ci: Int, long: Int) -> Int {
        if let text = environment["RELIABILITY_TRIALS"], let n = Int(text), n > 0 { return n }
        return isLong ? long : ci
    }

    /// `short` in CI, `long` in the long form.
    static func size(ci: Int, long: Int) -> Int { isLong ? long : ci }

    /// The seed of a randomised test: `PROPERTY_SEED`, else a fixed seed in
    /// CI (reproducible) and a fresh one in the long form (more ground covered).
    static func seed(ci: UInt64) -> UInt64 { PropertySettings.seed(default: ci) }

    /// The line a failure prints so the run can be replayed.
    static func replay(_ seed: UInt64) -> String {
        PropertySettings.replay(seed)
    }

    /// `failedbanks` (see ``BrowserFixture/binary``).
    static var failedbanks: String { BrowserFixture.binary ?? "/nonexistent/failedbanks" }

    /// `banklist-gen` (``BuiltProgram``).
    static let generator = BuiltProgram.path("banklist-gen")

    /// `Tests/Fixtures/<name>`: a real-world file, part of the repository.
    static func fixture(_ name: String) -> String {
        BrowserFixture.packageRoot.appendingPathComponent("Tests/Fixtures/\(name)").path
    }

    /// Writes a generated bank list of `rows` rows with `seed` into `directory`.
    static func generatedList(rows: Int, seed: UInt64, in directory: URL) throws -> String {
        guard let generator else {
            throw EndToEndError(BuiltProgram.missingReason("banklist-gen"))
        }
        let path = directory.appendingPathComponent("generated-\(rows)-\(seed).csv").path
        let result = try ProcessRunner.run(generator, ["--rows", "\(rows)", "--seed", "\(seed)", "--output", path])
        guard result.status == 0 else {
            throw EndToEndError("banklist-gen failed (\(result.status)): \(result.standardError)")
        }
        return path
    }
}

/// Seeded random numbers for the reliability tests (SplitMix64: same seed, same sequence).
struct ReliabilityRandom {
    private var generator: SplitMix64
    init(seed: UInt64) { generator = SplitMix64(seed: seed) }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
    mutating func double(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &generator) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &generator) < p }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &generator)] }
    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }
}
