import CSQLite
import Foundation
import Synchronization

/// An I/O call of SQLite's VFS that a ``Fault`` can fail.
public enum FaultyCall: String, CaseIterable, Sendable {
    /// `xWrite`: a page of the database, the `-wal` or the journal.
    case write
    /// `xSync`: flushing a file to the disk.
    case sync
    /// `xTruncate`: shortening a file (a checkpoint's, a journal's).
    case truncate
    /// `xLock`: a lock on the database file (SHARED, RESERVED, EXCLUSIVE).
    case lock
    /// `xShmLock`: a lock in the WAL index (`-shm`); only taking one fails, never a release.
    case shmLock
}

/// What the failed call returns.
public enum FaultResult: String, CaseIterable, Sendable {
    /// The call's own `SQLITE_IOERR_*` code (`SQLITE_IOERR_WRITE`, `_FSYNC`, `_TRUNCATE`, `_LOCK`,
    /// `_SHMLOCK`), `errno` EIO.
    case ioError
    /// `SQLITE_FULL`, `errno` ENOSPC: the disk is full.
    case diskFull
    /// `SQLITE_BUSY`: another process holds the lock (SQLite's busy handler may retry).
    case busy
}

/// One injected failure: the `n`th call of one kind (counting from 1) on the files under the
/// armed folder fails with `result`; the calls before and after it go through.
public struct Fault: Sendable, Hashable, CustomStringConvertible {
    /// Which call.
    public var call: FaultyCall
    /// What it returns.
    public var result: FaultResult
    /// Which one of them, from 1.
    public var n: Int

    /// The `n`th `call` fails with `result`.
    public init(_ call: FaultyCall, _ result: FaultResult, n: Int) {
        self.call = call
        self.result = result
        self.n = n
    }

    public var description: String { "\(call) #\(n) → \(result)" }

    /// The code the failed call returns.
    var code: Int32 {
        switch result {
        case .diskFull: return SQLITE_FULL
        case .busy: return SQLITE_BUSY
        case .ioError:
            // sqlite3.h's SQLITE_IOERR_* are macros Swift does not import: SQLITE_IOERR | (n << 8).
            switch call {
            case .write: return SQLITE_IOERR | (3 << 8)  // SQLITE_IOERR_WRITE
            case .sync: return SQLITE_IOERR | (4 << 8)  // SQLITE_IOERR_FSYNC
            case .truncate: return SQLITE_IOERR | (6 << 8)  // SQLITE_IOERR_TRUNCATE
            case .lock: return SQLITE_IOERR | (15 << 8)  // SQLITE_IOERR_LOCK
            case .shmLock: return SQLITE_IOERR | (20 << 8)  // SQLITE_IOERR_SHMLOCK
            }
        }
    }
}

/// What happened to the calls under an armed folder while a fault was armed.
public struct FaultReport: Sendable {
    /// The fault that was armed.
    public var fault: Fault
    /// How many calls of the fault's kind were made (the failed one included).
    public var calls: Int
    /// True when the `n`th call happened, and so failed.
    public var fired: Bool { calls >= fault.n }

    /// The report of a run armed with `fault` that made `calls` calls of its kind.
    public init(fault: Fault, calls: Int) {
        self.fault = fault
        self.calls = calls
    }
}

/// Fails chosen I/O calls of SQLite on the files under one folder, to test that every
/// operation that writes either happens whole or reports that it did not.
///
///     let (result, report) = FaultInjection.inject(Fault(.write, .diskFull, n: 3), under: folder.path) {
///         try context.save()
///     }
///     if report.fired { /* result must be a failure, the file the old state */ }
///
/// Any number of folders can be armed at once (tests run in parallel); calls on files
/// outside every armed folder go through untouched.
public enum FaultInjection {
    struct Armed {
        var prefix: String
        var fault: Fault
        var calls: Int
    }

    static let armed = Mutex<[Int: Armed]>([:])
    static let nextID = Atomic<Int>(1)

    /// Runs `body` with `fault` armed for the files under `folder` (and nowhere else), and
    /// returns what it returned or threw, and whether the fault fired.
    public static func inject<T>(
        _ fault: Fault,
        under folder: String,
        _ body: () throws -> T
    ) -> (result: Result<T, any Error>, report: FaultReport) {
        _ = FaultyFileSystem.installed
        let id = nextID.add(1, ordering: .relaxed).oldValue
        let prefix = (canonicalPath(folder) as NSString).appendingPathComponent("")
        armed.withLock { $0[id] = Armed(prefix: prefix.hasSuffix("/") ? prefix : prefix + "/", fault: fault, calls: 0) }
        let result = Result { try body() }
        let calls = armed.withLock { $0.removeValue(forKey: id)?.calls ?? 0 }
        return (result, FaultReport(fault: fault, calls: calls))
    }

    /// Installs the VFS (pass-through until a folder is armed). Call it before opening the
    /// connections a test arms faults for: a connection opened before goes to the disk directly.
    public static func install() { _ = FaultyFileSystem.installed }

    /// The code a call on `file` returns instead of running, or nil to let it run.
    static func failure(of call: FaultyCall, on file: OpenFile) -> Int32? {
        let code: Int32? = armed.withLock { folders in
            for (id, folder) in folders where folder.fault.call == call && file.path.hasPrefix(folder.prefix) {
                folders[id]!.calls += 1
                return folders[id]!.calls == folder.fault.n ? folder.fault.code : nil
            }
            return nil
        }
        guard let code else { return nil }
        Glibc.errno = errnoFor(code)
        return code
    }

    private static func errnoFor(_ code: Int32) -> Int32 {
        switch code & 0xFF {
        case SQLITE_FULL: return ENOSPC
        case SQLITE_BUSY: return EAGAIN
        default: return EIO
        }
    }

    /// The folder's path with symbolic links resolved, as SQLite names the files in it.
    static func canonicalPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
