import Foundation

/// The temporary folder a run works in: the generated CSV and the stores.
///
/// Removed at the end unless `--keep`.
///
///     let workspace = try Workspace()
///     let csv = workspace.path("banks.csv")
final class Workspace {
    let directory: String
    var keep = false

    init() throws {
        var base = NSTemporaryDirectory()
        while base.hasSuffix("/") && base.count > 1 { base.removeLast() }
        var template = Array((base + "/bench.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchError.setup("cannot create a temporary folder: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
    }

    deinit { cleanUp() }

    /// Removes the folder unless `keep` (call it before `exit`, which skips deinitializers).
    func cleanUp() {
        if !keep { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// Reads a file through once, in 1 MB pieces, so the page cache holds it
    /// (without making this process's peak memory grow: children spawned
    /// later inherit that peak in their `ru_maxrss`).
    func warm(_ path: String) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
    }

    func path(_ name: String) -> String { directory + "/" + name }

    /// Removes a SQLite file with its `-wal`, `-shm` and `-journal` companions.
    func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    /// Size of a file in bytes (0 when missing).
    func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}

/// Why a measurement could not be taken; the message goes under the table.
enum BenchError: Error, CustomStringConvertible {
    case setup(String)
    case missing(String)
    case failed(String)

    var description: String {
        switch self {
        case .setup(let text), .missing(let text), .failed(let text): return text
        }
    }
}
