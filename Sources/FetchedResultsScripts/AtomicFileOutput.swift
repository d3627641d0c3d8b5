import Foundation
import Glibc

/// A file written whole or not at all: the bytes go to a temporary file beside `path`
/// (`.name.tmp-PID-RANDOM`), which ``commit()`` syncs to the disk and renames over `path`;
/// ``abandon()`` — or a failure, or dropping the output — removes it. A reader of `path`
/// sees the old file or the new one, never half of one.
///
///     let output = try AtomicFileOutput(path: "view.csv")
///     try output.write("a,b\r\n")
///     try output.commit()
final class AtomicFileOutput {
    /// The file written.
    let path: String
    /// The temporary file the bytes go to until ``commit()``.
    let temporaryPath: String
    private var fd: Int32
    private var buffer: [UInt8] = []

    /// Opens a new temporary file beside `path` (readable as a new file would be).
    ///
    /// - Throws: ``ViewExportError`` naming the folder when it cannot be written.
    init(path: String) throws {
        self.path = path
        temporaryPath = AtomicFileOutput.temporaryPath(for: path)
        fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw ViewExportError.cannotWrite(path: path, code: errno)
        }
        buffer.reserveCapacity(1 << 20)
    }

    deinit { abandon() }

    /// A temporary path in `path`'s folder, named after this process.
    static func temporaryPath(for path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = ".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        return folder.isEmpty ? temporary : folder + "/" + temporary
    }

    /// Appends `text` (buffered).
    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Sends the buffered bytes to the temporary file.
    private func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ViewExportError.cannotWrite(path: path, code: errno)
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered, syncs the file and renames it over `path` (then syncs the folder).
    func commit() throws {
        try flush()
        guard fsync(fd) == 0 else { throw ViewExportError.cannotWrite(path: path, code: errno) }
        close(fd)
        fd = -1
        guard rename(temporaryPath, path) == 0 else {
            let code = errno
            unlink(temporaryPath)
            throw ViewExportError.cannotWrite(path: path, code: code)
        }
        AtomicFileOutput.syncFolder(of: path)
    }

    /// Closes and removes the temporary file (nothing when committed).
    func abandon() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        unlink(temporaryPath)
    }

    /// Makes a rename in `path`'s folder durable (best effort).
    static func syncFolder(of path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let fd = open(folder.isEmpty ? "." : folder, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
