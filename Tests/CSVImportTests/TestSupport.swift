import Foundation
import TestSupport

/// The package root, found from this file's path.
let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// `Tests/Fixtures`: the real FDIC files, part of the repository (a test that needs a missing one fails).
let fixturesDirectory: URL = packageRoot.appendingPathComponent("Tests/Fixtures")
