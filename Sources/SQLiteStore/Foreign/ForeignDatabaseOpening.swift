import Foundation
import Glibc

/// Opens a database this project did not make without changing it (see
/// ``Store/init(foreignDatabaseAt:model:readOnly:tracking:)``), and checks that the
/// model's entities name tables and columns the file has.
enum ForeignDatabaseOpening {
    struct Opened {
        var database: Database
        var hasTracking: Bool
        var isQueryOnly: Bool
    }

    /// What the 100-byte header says about a SQLite file (nil: not one).
    struct Header {
        /// The file is in WAL mode (read/write versions 2).
        var isWAL: Bool
    }

    /// Refuses a missing path (``StoreError/missingFile(path:)``), anything but a regular
    /// file starting with SQLite's magic (``StoreError/notADatabase(path:)``), and reads the header.
    static func header(path: String) throws -> Header {
        var info = stat()
        guard stat(path, &info) == 0 else { throw StoreError.missingFile(path: path) }
        guard (info.st_mode & S_IFMT) == S_IFREG, let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError.notADatabase(path: path)
        }
        defer { try? handle.close() }
        let bytes = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        let magic = Array("SQLite format 3".utf8) + [0]
        guard bytes.count == 100, Array(bytes.prefix(16)) == magic else { throw StoreError.notADatabase(path: path) }
        return Header(isWAL: bytes[18] == 2 && bytes[19] == 2)
    }

    /// True when this process may write the file and create files beside it.
    static func canWrite(path: String) -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        return access(path, W_OK) == 0 && access(directory.isEmpty ? "." : directory, W_OK) == 0
    }

    static func open(path: String, model: Model, readOnly: Bool, tracking: TrackingSchema) throws -> Opened {
        let header = try header(path: path)
        var options = Database.Options()
        options.create = false
        options.walMode = false
        // Frames another program has not checkpointed stay in its -wal unless this session writes.
        options.checkpointsOnClose = !(header.isWAL && ForeignDatabaseFiles.hasFrames(walOf: path))
        var queryOnly = false
        if readOnly {
            // A read-only connection to a WAL file makes -wal and -shm and cannot remove them; a
            // read-write one that only reads removes them when it closes, leaving the file as it was.
            if header.isWAL && !FileManager.default.fileExists(atPath: path + "-wal") && canWrite(path: path) {
                queryOnly = true
            } else {
                options.readOnly = true
            }
        }
        let database: Database
        do {
            database = try Database(path: path, options: options)
            if readOnly { try database.execute("PRAGMA query_only = 1") }
            // SQLite reads the file on first use: a damaged one is refused here.
            _ = try database.scalar("SELECT count(*) FROM sqlite_master")
        } catch let error as SQLiteError where error.isNotADatabase || error.isCorrupt {
            throw StoreError.notADatabase(path: path)
        }
        for entity in model.entities {
            let columns = try StoreFileInspector.columns(of: entity.tableName, in: database)
            guard !columns.isEmpty else {
                throw StoreError.schemaMismatch(table: entity.tableName, reason: "no such table or view")
            }
            for a in entity.attributes where !columns.contains(a.columnName) {
                throw StoreError.schemaMismatch(table: entity.tableName, reason: "missing column \(a.columnName)")
            }
            if !entity.numbersRowsByPosition && !columns.contains(entity.idColumn)
                && !["rowid", "_rowid_", "oid"].contains(entity.idColumn.lowercased())
            {
                throw StoreError.schemaMismatch(table: entity.tableName, reason: "missing id column \(entity.idColumn)")
            }
        }
        return Opened(
            database: database,
            hasTracking: try tracking.isInstalled(in: database),
            isQueryOnly: queryOnly
        )
    }
}
