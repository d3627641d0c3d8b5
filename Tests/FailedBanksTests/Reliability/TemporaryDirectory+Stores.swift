import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The reliability suites' stores in a test's temporary folder.
extension TemporaryDirectory {

    /// A store made from the bundled `Data/banklist.csv` (as the app's first launch
    /// makes it), copied into this directory as `name`; returns its path.
    func bundledStore(named name: String) throws -> String {
        let fixture = try BrowserFixture()
        defer { fixture.remove() }
        let store = path(name)
        try TemporaryDirectory.copyStore(fixture.database, to: store)
        return store
    }

    /// Copies a store file (and its `-wal`, when present) to `destination`.
    static func copyStore(_ source: String, to destination: String) throws {
        let fm = FileManager.default
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? fm.removeItem(atPath: destination + suffix)
        }
        try fm.copyItem(atPath: source, toPath: destination)
        chmod(destination, 0o644)
        if fm.fileExists(atPath: source + "-wal") {
            try fm.copyItem(atPath: source + "-wal", toPath: destination + "-wal")
        }
    }
}

/// The bytes of a file and the names beside it, to prove that a refused
/// store was left exactly as it was (no byte changed, no `-wal`/`-shm` left).
///
///     let before = try FileSnapshot(store)
///     … run the command …
///     #expect(try FileSnapshot(store) == before)
struct FileSnapshot: Equatable, CustomStringConvertible {
    let path: String
    let bytes: [UInt8]?
    let mode: mode_t
    /// The file's name and the names beside it that begin with it (so a created `-wal`, `-shm` or `-journal` shows).
    let siblings: [String]

    init(_ path: String) throws {
        self.path = path
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            bytes = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
        } else {
            bytes = nil
        }
        mode = stat(path, &info) == 0 ? info.st_mode : 0
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        siblings = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasPrefix(name) }
            .sorted()
    }

    var description: String {
        "\((path as NSString).lastPathComponent): \(bytes.map { "\($0.count) bytes" } ?? "not a regular file"), "
            + "mode \(String(mode, radix: 8)), beside: \(siblings)"
    }

    /// What differs from `other`, in words (empty when equal).
    func differences(from other: FileSnapshot) -> String {
        var notes: [String] = []
        if bytes != other.bytes {
            if let a = other.bytes, let b = bytes {
                let firstDifference = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                notes.append(
                    "bytes changed (\(a.count) → \(b.count) bytes, first difference at \(firstDifference.map(String.init) ?? "the end"))"
                )
            } else {
                notes.append(
                    "file changed (\(other.bytes?.count.description ?? "none") → \(bytes?.count.description ?? "none") bytes)"
                )
            }
        }
        if mode != other.mode { notes.append("mode \(String(other.mode, radix: 8)) → \(String(mode, radix: 8))") }
        let added = Set(siblings).subtracting(other.siblings).sorted()
        let removed = Set(other.siblings).subtracting(siblings).sorted()
        if !added.isEmpty { notes.append("created \(added)") }
        if !removed.isEmpty { notes.append("removed \(removed)") }
        return notes.joined(separator: "; ")
    }
}
