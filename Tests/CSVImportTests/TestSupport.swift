import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

func getpidValue() -> Int32 { getpid() }

func removeFile(_ path: String) { unlink(path) }

/// The package root, found from this file's path.
let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// `Tests/Fixtures`: the real FDIC files, part of the repository (a test that needs a missing one fails).
let fixturesDirectory: URL = packageRoot.appendingPathComponent("Tests/Fixtures")

/// A fresh temporary directory for one test.
func makeTemporaryDirectory(_ label: String = "csvimport") -> String {
    TemporaryDirectory.create(label).path
}

func writeFile(_ path: String, _ bytes: [UInt8]) {
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
}

func writeFile(_ path: String, _ text: String) {
    writeFile(path, Array(text.utf8))
}
