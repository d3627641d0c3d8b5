import Foundation
@testable import SQLiteStore

/// A fresh directory under /tmp for one test, removed when the value is released.
final class TemporaryDirectory {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("SQLiteStoreTests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A small deterministic random generator (SplitMix64) so property tests can print and reuse their seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The seed for property tests: `PROPERTY_SEED` when set, otherwise a fresh one.
func propertySeed() -> UInt64 {
    if let s = ProcessInfo.processInfo.environment["PROPERTY_SEED"], let v = UInt64(s) { return v }
    return UInt64.random(in: 0...UInt64.max)
}

/// Number of cases: larger with `PROPERTY_LONG=1`.
func propertyCases(_ normal: Int) -> Int {
    ProcessInfo.processInfo.environment["PROPERTY_LONG"] != nil ? normal * 50 : normal
}
