import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A unique folder under the temporary directory for one test (tests run in
/// parallel, in several processes): removed by ``remove()`` or when the value
/// is released.
///
///     let folder = TemporaryDirectory("bad-store")
///     defer { folder.remove() }
///     let store = folder.path("banks.sqlite")
///
/// ``create(_:)`` makes such a folder without an owner, for a test that removes
/// it itself.
public final class TemporaryDirectory {
    /// The folder.
    public let url: URL
    private var removed = false

    /// Makes a fresh folder whose name begins with `label`.
    public init(_ label: String = "test") {
        url = TemporaryDirectory.create(label)
    }

    deinit { remove() }

    /// The folder's path.
    public var path: String { url.path }

    /// The path of `name` in the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Removes the folder and what it holds (making the folder writable again first,
    /// for the tests that made it read-only).
    public func remove() {
        guard !removed else { return }
        removed = true
        chmod(url.path, 0o755)
        try? FileManager.default.removeItem(at: url)
    }

    /// Makes a fresh folder `<tmp>/<label>-<pid>-<random>` and returns it (the caller removes it).
    @discardableResult
    public static func create(_ label: String = "test") -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
