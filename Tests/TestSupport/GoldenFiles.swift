import Foundation

/// The golden text files of a test module: `Golden/<name>.txt` in a folder beside the tests.
/// A test compares what it rendered with the file; `UPDATE_GOLDEN=1` in the environment
/// rewrites the files instead (review the diff before committing it). A missing file is a
/// mismatch that says how to make it, never a pass.
///
///     let golden = GoldenFiles(directory: URL(fileURLWithPath: #filePath)
///         .deletingLastPathComponent().appendingPathComponent("Golden"))
///     if let mismatch = golden.mismatch(canvas.text + "\n", named: "table-80x24") {
///         Issue.record(Comment(rawValue: mismatch))
///     }
public struct GoldenFiles: Sendable {
    /// The folder of the `.txt` files.
    public let directory: URL

    /// The golden files in `directory`.
    public init(directory: URL) { self.directory = directory }

    /// Whether this run rewrites the files (`UPDATE_GOLDEN=1`).
    public static var isUpdating: Bool { ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" }

    /// Nil when `text` is the content of `<name>.txt` (or the run rewrites the files and has
    /// written it); otherwise what differs, both texts in full, for the test to record.
    public func mismatch(_ text: String, named name: String) -> String? {
        let url = directory.appendingPathComponent(name + ".txt")
        if Self.isUpdating {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? text.write(to: url, atomically: true, encoding: .utf8)
            return nil
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            return "missing golden file \(url.path); run with UPDATE_GOLDEN=1 to make it. Got:\n\(text)"
        }
        if expected == text { return nil }
        return "\(name) differs from its golden file (UPDATE_GOLDEN=1 rewrites it)\n"
            + "--- expected\n\(expected)--- actual\n\(text)"
    }
}
