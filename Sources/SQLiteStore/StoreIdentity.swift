import Foundation
import Synchronization

/// What tells a store's file apart from every other file, including one
/// created later at the same path.
///
/// Two parts, because neither suffices alone: a random ``storeID`` written
/// into the file when the store is created (a file re-created at the path, even
/// with the same inode, gets a new one), and the ``device`` and ``inode`` of
/// the file that was opened (a copy of a store keeps its `storeID` but not
/// its inode). A results cache keys on it, so that a cache of one file is
/// never read for another.
///
///     let store = try Store(path: "books.sqlite", model: model)
///     print(store.identity)   // "4F0C…-9A2E@2049:1311768"
package struct StoreIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The random id in the file's `store_metadata` table (nil for an old
    /// store opened read-only, which cannot be given one).
    package let storeID: String?
    /// `st_dev` of the opened file (nil for in-memory and special stores).
    package let device: UInt64?
    /// `st_ino` of the opened file (nil for in-memory and special stores).
    package let inode: UInt64?

    package var description: String {
        let file = device.flatMap { d in inode.map { "\(d):\($0)" } } ?? "none"
        return "\(storeID ?? "none")@\(file)"
    }
}

/// What a store's path names now, compared with the file the store has open
/// (`Store/fileAtPath()`).
package enum StoreFileAtPath: Sendable, Equatable {
    /// The path still names the open file (or the store has no file: in memory).
    case same
    /// Another file is at the path (`mv other.sqlite store.sqlite`, or deleted and re-created).
    case replaced
    /// No file is at the path any more (deleted, or renamed away).
    case missing
}

/// Device and inode of a file.
struct FileNode: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64

    /// The file at `path` now; nil when there is none (or it cannot be read).
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// The files this process's stores have open, by path: so that a store is not
/// opened at a path while another store of this process still has the file
/// that used to be there open.
///
/// Why: SQLite names the write-ahead log and its index after the path
/// (`store.sqlite-wal`, `-shm`), not after the file. When another file is
/// renamed over a store's path, a connection opened to the new file in the same
/// process shares the old file's `-wal` and `-shm`, reads the old file's pages
/// from them, and can write them into the new file; closing the old connection
/// afterwards drops the new one's locks (POSIX locks are per process).
enum OpenStoreRegistry {
    private struct Entry: Sendable {
        var owner: ObjectIdentifier
        var node: FileNode
    }

    private static let entries = Mutex<[String: [Entry]]>([:])

    static func key(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// True when a live store of this process has another file open at `path` than the one there now.
    static func holdsReplacedFile(at path: String) -> Bool {
        let now = FileNode(path: path)
        return entries.withLock { all in
            (all[key(path)] ?? []).contains { $0.node != now }
        }
    }

    static func register(_ owner: ObjectIdentifier, path: String, node: FileNode) {
        entries.withLock { $0[key(path), default: []].append(Entry(owner: owner, node: node)) }
    }

    static func unregister(_ owner: ObjectIdentifier, path: String) {
        entries.withLock { all in
            let k = key(path)
            all[k]?.removeAll { $0.owner == owner }
            if all[k]?.isEmpty == true { all[k] = nil }
        }
    }
}
