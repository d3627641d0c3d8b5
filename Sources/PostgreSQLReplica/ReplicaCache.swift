import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The replica files of a cache folder, as a person manages them: each copy with the table
/// it holds, its size on disk (with its `-wal` and `-shm`), when it was last written and whether
/// the session that made it still runs; removing those no session uses, and keeping the folder
/// under a bound by removing the least recently used first.
///
/// A copy in use is never removed: its session reads and writes it. A copy a session left is
/// taken over by the next session of a tracked table, else removed when that table is copied
/// again; copies of tables no longer opened stay until the bound or ``remove(_:)`` removes them.
///
///     let cache = ReplicaCache(directory: folder)
///     for entry in cache.entries() { print(entry.table, entry.bytes, entry.isInUse) }
///     cache.prune(toFit: 1 << 30)   // at most 1 GB of copies no session uses
public struct ReplicaCache: Sendable {
    /// One replica file.
    public struct Entry: Hashable, Sendable {
        /// The file.
        public let path: String
        /// The table it holds, `schema.table` as its name spells it.
        public let table: String
        /// Bytes on disk: the file, its `-wal`, `-shm` and `-journal`.
        public let bytes: Int64
        /// When it was last written (a session following the server writes it on each change).
        public let lastUsed: Date
        /// The process of the session that made it.
        public let processID: Int32
        /// Whether that process still runs (then the copy is in use and never removed).
        public let isInUse: Bool
    }

    /// The folder.
    public let directory: String

    /// The cache folder `directory`.
    public init(directory: String) { self.directory = directory }

    /// The replica files, least recently used first (a copy being built counts as one).
    public func entries() -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { name -> Entry? in
            let base = name.hasSuffix(".sqlite.building") ? String(name.dropLast(".building".count)) : name
            guard base.hasSuffix(".sqlite") else { return nil }
            let parts = base.dropLast(".sqlite".count).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count >= 3, let pid = Int32(parts[parts.count - 1]) else { return nil }
            let path = "\(directory)/\(name)"
            var bytes: Int64 = 0
            var modified = Date.distantPast
            for suffix in ["", "-wal", "-shm", "-journal"] {
                guard let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix) else {
                    continue
                }
                bytes += (attributes[.size] as? NSNumber)?.int64Value ?? 0
                if let date = attributes[.modificationDate] as? Date, date > modified { modified = date }
            }
            let running = kill(pid, 0) == 0 || errno == EPERM
            return Entry(
                path: path,
                table: parts[0..<(parts.count - 2)].joined(separator: "-"),
                bytes: bytes,
                lastUsed: modified,
                processID: pid,
                isInUse: running
            )
        }.sorted { $0.lastUsed < $1.lastUsed }
    }

    /// Removes `entries` that no session uses (with their `-wal`, `-shm` and `-journal`);
    /// returns those removed.
    @discardableResult
    public func remove(_ entries: [Entry]) -> [Entry] {
        entries.filter { entry in
            guard !entry.isInUse else { return false }
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: entry.path + suffix)
            }
            return true
        }
    }

    /// Removes the copies no session uses, least recently used first, until all the copies
    /// take at most `limit` bytes (or none is left to remove); returns those removed.
    @discardableResult
    public func prune(toFit limit: Int64) -> [Entry] {
        let all = entries()
        var total = all.reduce(Int64(0)) { $0 + $1.bytes }
        var removing: [Entry] = []
        for entry in all where total > limit && !entry.isInUse {
            removing.append(entry)
            total -= entry.bytes
        }
        return remove(removing)
    }
}
