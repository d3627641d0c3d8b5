#if canImport(Glibc)
import Glibc
#endif
import Foundation

func getpidValue() -> Int32 { getpid() }

func removeFile(_ path: String) { unlink(path) }

/// The package root, found from this file's path.
let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// `../shared/data` next to the package root, or nil when absent (tests then skip with a message).
let sharedDataDirectory: URL? = {
    let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue ? url : nil
}()

/// A fresh temporary directory for one test.
func makeTemporaryDirectory(_ label: String = "csvimport") -> String {
    let path = NSTemporaryDirectory() + "\(label)-\(getpid())-\(UInt64.random(in: 0..<UInt64.max))"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func writeFile(_ path: String, _ bytes: [UInt8]) {
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
}

func writeFile(_ path: String, _ text: String) {
    writeFile(path, Array(text.utf8))
}
