import Foundation
import PostgreSQLClient

/// Where a replica file goes: `<cache>/<schema>.<table>-<hash>-<pid>.sqlite`,
/// the hash naming the server, database and table (the connection string
/// without its password, and libpq's environment), the process ID making
/// each session's copy its own (a copy is made fresh for every session).
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

    /// Removes the replicas like `path` (the same table) left by sessions that ended.
    static func removeStaleCopies(like path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        guard let dash = name.lastIndex(of: "-") else { return }
        let base = String(name[..<dash])
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasPrefix(base + "-") {
            let rest = name.dropFirst(base.count + 1)
            guard let pidText = rest.split(separator: ".").first, let pid = pid_t(pidText), pid != getpid(),
                kill(pid, 0) != 0 && errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(atPath: "\(directory)/\(name)")
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
