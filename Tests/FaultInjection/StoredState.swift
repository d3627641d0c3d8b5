import Foundation
import SQLiteStore

/// What a SQLite file holds, read as the next program to open it reads it: a fresh
/// connection (which rolls back a hot journal or recovers a `-wal` left behind), no journal
/// mode changed.
public enum StoredState {
    /// Every row of every table (`sqlite_master` and `sqlite_sequence` included), one line a
    /// row, tables by name, rows sorted: equal digests mean equal contents. Tables in
    /// `excluding` are left out.
    ///
    ///     #expect(try StoredState.digest(of: path) == before, "the failed save changed nothing")
    public static func digest(of path: String, excluding: Set<String> = []) throws -> String {
        let db = try Database(path: path, options: nextProgram)
        let tables = try db.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_stat%' ORDER BY name"
        ).compactMap { $0.first?.string }
        var lines = try db.query("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").map {
            $0.map(\.description).joined(separator: "|")
        }
        for table in tables where !excluding.contains(table) {
            let rows = try db.query("SELECT * FROM \(Database.quote(identifier: table))").map {
                table + ": " + $0.map(\.description).joined(separator: "|")
            }
            lines += rows.sorted()
        }
        return lines.joined(separator: "\n")
    }

    /// `PRAGMA integrity_check`'s answer: `"ok"` for a sound file.
    public static func integrity(of path: String) throws -> String {
        let db = try Database(path: path, options: nextProgram)
        return try db.query("PRAGMA integrity_check").compactMap { $0.first?.string }.joined(separator: "; ")
    }

    /// The files SQLite keeps beside `path` (`-wal`, `-shm`, `-journal`) that exist now.
    public static func sideFiles(of path: String) -> [String] {
        ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: path + $0) }
    }

    /// A read-write connection that changes nothing of its own: no switch to WAL, no
    /// checkpoint of someone else's `-wal` on close.
    static var nextProgram: Database.Options {
        var options = Database.Options()
        options.create = false
        options.walMode = false
        options.checkpointsOnClose = false
        return options
    }
}
