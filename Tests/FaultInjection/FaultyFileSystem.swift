import CSQLite
import Foundation
import Synchronization

/// A SQLite VFS registered over the default one (`sqlite3_vfs_register`, as the default): every
/// file goes through it to the real VFS unchanged, except that the calls on files under an
/// armed folder (``FaultInjection/inject(_:under:_:)``) are counted, and the one the armed
/// ``Fault`` names fails with its result instead of reaching the disk.
///
/// SQLite's own tests fail I/O calls in the same way. Each connection opened while it is
/// installed uses it; a file outside every armed folder pays one lock and one prefix test
/// per write, sync, truncate or lock call, and nothing else changes for it.
///
/// The layout of one open file, in the `szOsFile` bytes SQLite allocates for it: the
/// `sqlite3_file` header (this VFS's methods), a retained ``OpenFile`` that names the
/// file, then the real VFS's file.
enum FaultyFileSystem {
    /// Bytes before the real file: the header and the pointer to the ``OpenFile``.
    static let headerSize = 16

    /// The default VFS this one forwards to (the one that was default before).
    nonisolated(unsafe) static var base: UnsafeMutablePointer<sqlite3_vfs>!
    /// This VFS: allocated once and never freed, since SQLite keeps the pointer registered (a
    /// global's address is not a stable pointer in Swift, and its storage may be smaller than
    /// the C struct's stride that a copy writes).
    nonisolated(unsafe) static var vfs: UnsafeMutablePointer<sqlite3_vfs>!
    /// One method table per `iVersion` the real files may report (1, 2, 3).
    nonisolated(unsafe) static var methods: [UnsafeMutablePointer<sqlite3_io_methods>] = []

    /// Registers the VFS as the default, once per process.
    static let installed: Void = {
        guard let found = sqlite3_vfs_find(nil) else { fatalError("SQLite has no default VFS") }
        base = found
        methods = (1...3).map { version in
            let table = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
            table.initialize(to: ioMethods(version: Int32(version)))
            return table
        }
        vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        vfs.initialize(to: found.pointee)
        vfs.pointee.szOsFile = found.pointee.szOsFile + Int32(headerSize)
        vfs.pointee.pNext = nil
        vfs.pointee.zName = UnsafePointer(strdup("fault-injection"))
        vfs.pointee.pAppData = nil
        vfs.pointee.xOpen = { _, name, file, flags, outFlags in FaultyFileSystem.open(name, file!, flags, outFlags) }
        let rc = sqlite3_vfs_register(vfs, 1)
        precondition(rc == SQLITE_OK, "sqlite3_vfs_register failed: \(rc)")
    }()

    /// What SQLite sees as the file is at `file`; the real VFS's file follows the header.
    static func real(_ file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutablePointer<sqlite3_file> {
        UnsafeMutableRawPointer(file).advanced(by: headerSize).assumingMemoryBound(to: sqlite3_file.self)
    }

    static func openFile(_ file: UnsafeMutablePointer<sqlite3_file>) -> OpenFile {
        let slot = UnsafeMutableRawPointer(file).advanced(by: 8).assumingMemoryBound(to: UnsafeMutableRawPointer.self)
        return Unmanaged<OpenFile>.fromOpaque(slot.pointee).takeUnretainedValue()
    }

    private static func open(
        _ name: sqlite3_filename?,
        _ file: UnsafeMutablePointer<sqlite3_file>,
        _ flags: Int32,
        _ outFlags: UnsafeMutablePointer<Int32>?
    ) -> Int32 {
        let inner = real(file)
        inner.pointee.pMethods = nil
        let rc = base.pointee.xOpen(base, name, inner, flags, outFlags)
        guard let innerMethods = inner.pointee.pMethods else {
            file.pointee.pMethods = nil
            return rc
        }
        let path = name.map { String(cString: $0) } ?? ""
        let slot = UnsafeMutableRawPointer(file).advanced(by: 8).assumingMemoryBound(to: UnsafeMutableRawPointer.self)
        slot.pointee = Unmanaged.passRetained(OpenFile(path: path)).toOpaque()
        let version = Int(min(max(innerMethods.pointee.iVersion, 1), 3))
        file.pointee.pMethods = UnsafePointer(methods[version - 1])
        return rc
    }

    /// The forwarding methods; `xWrite`, `xSync`, `xTruncate`, `xLock` and `xShmLock` ask
    /// ``FaultInjection`` first.
    private static func ioMethods(version: Int32) -> sqlite3_io_methods {
        var m = sqlite3_io_methods()
        m.iVersion = version
        m.xClose = { file in
            let inner = FaultyFileSystem.real(file!)
            let rc = inner.pointee.pMethods.pointee.xClose(inner)
            let slot = UnsafeMutableRawPointer(file!).advanced(by: 8)
                .assumingMemoryBound(to: UnsafeMutableRawPointer.self)
            Unmanaged<OpenFile>.fromOpaque(slot.pointee).release()
            return rc
        }
        m.xRead = { file, buffer, amount, offset in
            let inner = FaultyFileSystem.real(file!)
            return inner.pointee.pMethods.pointee.xRead(inner, buffer, amount, offset)
        }
        m.xWrite = { file, buffer, amount, offset in
            if let rc = FaultInjection.failure(of: .write, on: FaultyFileSystem.openFile(file!)) { return rc }
            let inner = FaultyFileSystem.real(file!)
            return inner.pointee.pMethods.pointee.xWrite(inner, buffer, amount, offset)
        }
        m.xTruncate = { file, size in
            if let rc = FaultInjection.failure(of: .truncate, on: FaultyFileSystem.openFile(file!)) { return rc }
            let inner = FaultyFileSystem.real(file!)
            return inner.pointee.pMethods.pointee.xTruncate(inner, size)
        }
        m.xSync = { file, flags in
            if let rc = FaultInjection.failure(of: .sync, on: FaultyFileSystem.openFile(file!)) { return rc }
            let inner = FaultyFileSystem.real(file!)
            return inner.pointee.pMethods.pointee.xSync(inner, flags)
        }
        m.xFileSize = { file, size in
            let inner = FaultyFileSystem.real(file!)
            return inner.pointee.pMethods.pointee.xFileSize(inner, size)
        }
        m.xLock = { file, level in
            if let rc = FaultInjection.failure(of: .lock, on: FaultyFileSystem.openFile(file!)) { return rc }
            let inner = FaultyFileSystem.real(file!)
            return inner.pointee.pMethods.pointee.xLock(inner, level)
        }
        m.xUnlock = { file, level in
            let inner = FaultyFileSystem.real(file!)
            return inner.pointee.pMethods.pointee.xUnlock(inner, level)
        }
        m.xCheckReservedLock = { file, result in
            let inner = FaultyFileSystem.real(file!)
            return inner.pointee.pMethods.pointee.xCheckReservedLock(inner, result)
        }
        m.xFileControl = { file, op, argument in
            let inner = FaultyFileSystem.real(file!)
            return inner.pointee.pMethods.pointee.xFileControl(inner, op, argument)
        }
        m.xSectorSize = { file in
            let inner = FaultyFileSystem.real(file!)
            return inner.pointee.pMethods.pointee.xSectorSize(inner)
        }
        m.xDeviceCharacteristics = { file in
            let inner = FaultyFileSystem.real(file!)
            return inner.pointee.pMethods.pointee.xDeviceCharacteristics(inner)
        }
        guard version >= 2 else { return m }
        m.xShmMap = { file, page, pageSize, extend, pointer in
            let inner = FaultyFileSystem.real(file!)
            return inner.pointee.pMethods.pointee.xShmMap(inner, page, pageSize, extend, pointer)
        }
        m.xShmLock = { file, offset, count, flags in
            // An unlock never fails: SQLite does not expect it to, and real ones do not.
            if flags & SQLITE_SHM_UNLOCK == 0,
                let rc = FaultInjection.failure(of: .shmLock, on: FaultyFileSystem.openFile(file!))
            {
                return rc
            }
            let inner = FaultyFileSystem.real(file!)
            return inner.pointee.pMethods.pointee.xShmLock(inner, offset, count, flags)
        }
        m.xShmBarrier = { file in
            let inner = FaultyFileSystem.real(file!)
            inner.pointee.pMethods.pointee.xShmBarrier(inner)
        }
        m.xShmUnmap = { file, delete in
            let inner = FaultyFileSystem.real(file!)
            return inner.pointee.pMethods.pointee.xShmUnmap(inner, delete)
        }
        guard version >= 3 else { return m }
        m.xFetch = { file, offset, amount, pointer in
            let inner = FaultyFileSystem.real(file!)
            return inner.pointee.pMethods.pointee.xFetch(inner, offset, amount, pointer)
        }
        m.xUnfetch = { file, offset, pointer in
            let inner = FaultyFileSystem.real(file!)
            return inner.pointee.pMethods.pointee.xUnfetch(inner, offset, pointer)
        }
        return m
    }
}

/// The name of one file open through ``FaultyFileSystem`` (as SQLite gave it: a full path).
final class OpenFile {
    let path: String
    init(path: String) { self.path = path }
}
