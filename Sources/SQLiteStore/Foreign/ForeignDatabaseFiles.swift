import Foundation
import Glibc

/// The files beside another program's database when a session starts, so that a session
/// that only read leaves them as it found them.
///
/// A WAL file whose `-wal` is there but whose `-shm` is not (left by a crash, or copied
/// without it) gets a new `-shm` from any connection that reads it, read-only ones
/// included, and SQLite removes it only with a checkpoint — which would rewrite the main
/// file. ``removeSharedMemoryMadeSince()``, called once every connection of the session is
/// closed, removes that `-shm` again when no other connection has the database open
/// (the same test SQLite makes before it removes one: an exclusive lock on the database file).
///
///     let files = ForeignDatabaseFiles(path: "w.db")
///     try browse("w.db")                      // every Store and DatabaseCatalog released
///     files.removeSharedMemoryMadeSince()
package struct ForeignDatabaseFiles: Sendable {
    /// The database's path as given.
    package let path: String
    /// Whether `path-shm` existed when the value was made.
    package let hadSharedMemory: Bool
    /// Whether `path-wal` existed when the value was made.
    package let hadLog: Bool

    /// Notes which companions of `path` exist now.
    package init(path: String) {
        self.path = path
        self.hadSharedMemory = FileManager.default.fileExists(atPath: path + "-shm")
        self.hadLog = FileManager.default.fileExists(atPath: path + "-wal")
    }

    /// ``removeSharedMemoryMadeSince()``, and then an empty `path-wal` made since as well: what an
    /// open that failed half-way (a full disk, where SQLite made both files but could not size the
    /// index) leaves. A `-wal` that holds anything, or that was there before, stays. Returns whether
    /// any file was removed. Same condition: every connection of this process to the file is closed.
    ///
    ///     let files = ForeignDatabaseFiles(path: path)
    ///     do { store = try Store(path: path, model: model) } catch {
    ///         files.removeCompanionsMadeSince()
    ///         throw error
    ///     }
    @discardableResult
    package func removeCompanionsMadeSince() -> Bool {
        var removed = removeSharedMemoryMadeSince()
        let log = path + "-wal"
        var info = stat()
        guard !hadLog, stat(log, &info) == 0, info.st_size == 0 else { return removed }
        let database = open(path, O_RDWR)
        guard database >= 0 else { return removed }
        defer { close(database) }
        // As for the -shm: no connection of any process has the database open.
        guard ForeignDatabaseFiles.lockForWriting(database, start: 0x4000_0000, length: 512) else { return removed }
        if unlink(log) == 0 { removed = true }
        return removed
    }

    /// Removes `path-shm` when it was not there at the start, the file is in WAL mode, and
    /// no connection (of any process) has the database open. Returns whether it removed it.
    /// Call it only once this process has closed every connection to the file: POSIX locks
    /// belong to the process, and closing the descriptor it opens here releases them all.
    @discardableResult
    package func removeSharedMemoryMadeSince() -> Bool {
        let shm = path + "-shm"
        guard !hadSharedMemory, FileManager.default.fileExists(atPath: shm),
            (try? ForeignDatabaseOpening.header(path: path))?.isWAL == true
        else { return false }
        let database = open(path, O_RDWR)
        guard database >= 0 else { return false }
        defer { close(database) }
        // SQLite's lock bytes: PENDING (0x40000000), RESERVED, then the 510-byte SHARED range.
        // Every connection to a WAL file holds a SHARED lock for as long as it is open.
        guard ForeignDatabaseFiles.lockForWriting(database, start: 0x4000_0000, length: 512) else { return false }
        let index = open(shm, O_RDWR)
        guard index >= 0 else { return false }
        defer { close(index) }
        // The wal-index's "dead man switch" byte (offset 128): read-locked by every connection using it.
        guard ForeignDatabaseFiles.lockForWriting(index, start: 128, length: 1) else { return false }
        return unlink(shm) == 0
    }

    /// True when `path-wal` holds frames (it exists and is longer than its 32-byte header).
    static func hasFrames(walOf path: String) -> Bool {
        var info = stat()
        return stat(path + "-wal", &info) == 0 && info.st_size > 32
    }

    /// An exclusive POSIX lock on bytes of `descriptor`, without waiting.
    private static func lockForWriting(_ descriptor: Int32, start: off_t, length: off_t) -> Bool {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = start
        lock.l_len = length
        return fcntl(descriptor, F_SETLK, &lock) == 0
    }
}
