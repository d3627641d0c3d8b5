import Foundation
import SQLiteStore

/// Makes a new replica file durable off the browser's path: the copy writes the file
/// without syncing it (a sync of a million rows' file waits for the disk a quarter of a
/// second), and this syncs it on a thread of its own once it is in place, then records
/// the file's identity (``ReplicaState``). A later session takes over only a file with its
/// identity: one whose sync never ended (the process killed, the machine down) is copied
/// again, never trusted half-written.
final class ReplicaDurability: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)

    /// Starts syncing `path` and then records `identity` in it.
    init(path: String, identity: String) {
        let thread = Thread { [done] in
            if ReplicaDurability.sync(path) {
                try? ReplicaDurability.record(identity, in: path)
            }
            done.signal()
        }
        thread.start()
    }

    /// Waits until the file is synced and its identity recorded (or that failed).
    func wait() {
        done.wait()
        done.signal()
    }

    /// `fsync` of the file and its folder (for the rename that put it in place).
    private static func sync(_ path: String) -> Bool {
        for file in [path, (path as NSString).deletingLastPathComponent] {
            let descriptor = open(file, O_RDONLY)
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            guard fsync(descriptor) == 0 else { return false }
        }
        return true
    }

    private static func record(_ identity: String, in path: String) throws {
        let database = try Database(path: path)
        try database.transaction { try ReplicaState.write(identity: identity, to: database) }
    }
}
