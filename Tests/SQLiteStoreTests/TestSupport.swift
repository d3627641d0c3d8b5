import Foundation
import TestSupport

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

/// The seed for property tests: `PROPERTY_SEED` when set, otherwise a fresh one.
func propertySeed() -> UInt64 {
    if let s = ProcessInfo.processInfo.environment["PROPERTY_SEED"], let v = UInt64(s) { return v }
    return UInt64.random(in: 0...UInt64.max)
}

/// Number of cases: larger with `PROPERTY_LONG=1`.
func propertyCases(_ normal: Int) -> Int {
    ProcessInfo.processInfo.environment["PROPERTY_LONG"] != nil ? normal * 50 : normal
}
