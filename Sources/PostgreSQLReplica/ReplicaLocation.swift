import BaseDirectories
import Foundation
import PostgreSQLClient

/// Where a replica file goes: `<cache>/<schema>.<table>-<hash>-<pid>.sqlite`,
/// the hash naming the server, database and table (the connection string
/// without its password, and libpq's environment), the process ID making
/// each session's copy its own while it runs. A session that ended leaves its
/// copy for the next one to take over (``ReplicaAdoption``).
///
/// A replica may hold rows that row-level security shows this role alone: the folder is
/// `0700` and the files `0600` (``makeFolder(_:)``; ``ReplicaStore`` makes a new file
/// private before SQLite opens it, and tightens an existing one), and a symbolic link at
/// any of these paths is refused, never followed.
struct ReplicaLocation {
    let directory: String
    let base: String

    init(connectionString: String?, table: TableName, directory: String) {
        self.directory = directory
        let environment = ProcessInfo.processInfo.environment
        let identity = [
            ConnectionString.removingPassword(from: connectionString ?? ""),
            environment["PGHOST"] ?? "", environment["PGPORT"] ?? "", environment["PGDATABASE"] ?? "",
            environment["PGUSER"] ?? "", environment["PGSERVICE"] ?? "", table.schema, table.name,
        ].joined(separator: "\u{0}")
        let readable = "\(table.schema).\(table.name)".map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "_" }
        base = String(readable.prefix(80)) + "-" + ReplicaLocation.hash(identity)
    }

    var path: String { "\(directory)/\(base)-\(getpid()).sqlite" }

    /// Makes the replicas' folder `directory` (with its missing parents) this user's alone
    /// (`0700`), or tightens it.
    ///
    /// - Throws: ``ReplicaError/cache(path:message:)`` for a link, another user's folder, a file.
    static func makeFolder(_ directory: String) throws(ReplicaError) {
        do { try PrivateFiles.makeFolder(directory) } catch {
            throw .cache(path: error.path, message: error.description)
        }
    }

    /// Removes the replicas like `path` (the same table) left by sessions that ended.
    static func removeStaleCopies(like path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        for name in staleFiles(like: path) { try? FileManager.default.removeItem(atPath: "\(directory)/\(name)") }
    }

    /// The newest replica like `path` (the same table) that a session which ended left, if any.
    static func newestStaleCopy(like path: String) -> String? {
        let directory = (path as NSString).deletingLastPathComponent
        let copies = staleFiles(like: path).filter { $0.hasSuffix(".sqlite") }.map { "\(directory)/\($0)" }
        func modified(_ file: String) -> Date {
            ((try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date) ?? .distantPast
        }
        return copies.max { modified($0) < modified($1) }
    }

    /// Renames the replica file `source` and its WAL to `path` (its shared-memory index is
    /// made again); false when it is gone (another session took it first).
    static func move(_ source: String, to path: String) -> Bool {
        removeFiles(path)
        guard rename(source, path) == 0 else { return false }
        if rename(source + "-wal", path + "-wal") != 0 { unlink(path + "-wal") }
        unlink(source + "-shm")
        return true
    }

    /// Removes a replica file and its WAL, shared-memory index and journal.
    static func removeFiles(_ file: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: file + suffix) }
    }

    /// The names of the files in `path`'s folder that belong to replicas like it of sessions that ended.
    private static func staleFiles(like path: String) -> [String] {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        guard let dash = name.lastIndex(of: "-") else { return [] }
        let base = String(name[..<dash])
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { name in
            guard name.hasPrefix(base + "-") else { return false }
            let rest = name.dropFirst(base.count + 1)
            guard let pidText = rest.split(separator: ".").first, let pid = pid_t(pidText), pid != getpid() else {
                return false
            }
            return kill(pid, 0) != 0 && errno == ESRCH
        }
    }

    /// FNV-1a, 64 bits, in hexadecimal.
    private static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        return String(value, radix: 16)
    }
}
