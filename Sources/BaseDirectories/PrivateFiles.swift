import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Folders and files only their user may read, for caches that hold copies of private
/// data (a server table's rows, which row-level security may show this role alone; a
/// `0600` CSV file's): folders `0700` and files `0600` from the moment they exist —
/// a file is made before SQLite opens it, so its `-wal`, `-shm` and `-journal`, which
/// SQLite gives the database's mode, are private too — and existing ones tightened when
/// they are opened. A symbolic link at one of these paths is refused, never followed, and
/// so is a folder or file another user owns.
///
///     try PrivateFiles.makeFolder(cache)                  // 0700, made or tightened
///     try PrivateFiles.createFile(cache + "/t.sqlite")    // 0600, before SQLite opens it
///     try PrivateFiles.tighten(database: oldCopy)         // 0600 with its -wal and -shm
public enum PrivateFiles {
    /// A path that could not be made private: the path and the system's error number
    /// (`ELOOP` a symbolic link, `ENOTDIR` not a folder, `EPERM` another user's, `EEXIST`…).
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The folder or file.
        public let path: String
        /// The `errno` value.
        public let code: Int32

        /// A failure of `path` with `code`.
        public init(path: String, code: Int32) {
            self.path = path
            self.code = code
        }

        /// `path: reason`, the reason in the system's words or ours.
        public var description: String {
            switch code {
            case ELOOP: "\(path): a symbolic link, not followed (a private file must be this user's own)"
            case EPERM: "\(path): belongs to another user"
            default: "\(path): \(String(cString: strerror(code)))"
            }
        }
    }

    /// Makes `path` a folder only this user may enter (`0700`), with its missing parents
    /// (`0700` too); an existing folder is tightened to `0700`.
    ///
    /// - Throws: ``Failure`` with `ELOOP` for a symbolic link at `path`, `ENOTDIR` for
    ///   something other than a folder, `EPERM` for a folder another user owns, or the error
    ///   of the `mkdir` that failed.
    public static func makeFolder(_ path: String) throws(Failure) {
        var info = stat()
        if lstat(path, &info) != 0 {
            guard errno == ENOENT else { throw Failure(path: path, code: errno) }
            let parent = (path as NSString).deletingLastPathComponent
            if !parent.isEmpty && parent != path && !exists(parent) { try makeFolder(parent) }
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw Failure(path: path, code: errno) }
            guard lstat(path, &info) == 0 else { throw Failure(path: path, code: errno) }
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: throw Failure(path: path, code: ELOOP)
        default: throw Failure(path: path, code: ENOTDIR)
        }
        guard info.st_uid == getuid() else { throw Failure(path: path, code: EPERM) }
        if info.st_mode & 0o777 != 0o700 && chmod(path, 0o700) != 0 { throw Failure(path: path, code: errno) }
    }

    /// Creates the empty file `path`, readable and writable by this user only (`0600`),
    /// before anything opens it.
    ///
    /// - Throws: ``Failure`` with `EEXIST` when a file or link is there already (remove it
    ///   first), or the error of the `open` that failed.
    public static func createFile(_ path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(path: path, code: errno) }
        defer { close(descriptor) }
        // The umask may have taken bits away, never added any: 0600 exactly.
        guard fchmod(descriptor, 0o600) == 0 else { throw Failure(path: path, code: errno) }
    }

    /// Tightens the existing file `path` to `0600`, without following a symbolic link; a
    /// missing file is left missing.
    ///
    /// - Throws: ``Failure`` with `ELOOP` for a symbolic link, `EPERM` for another user's
    ///   file, `EINVAL` for something other than a file.
    public static func tighten(_ path: String) throws(Failure) {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return }
            throw Failure(path: path, code: errno)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Failure(path: path, code: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw Failure(path: path, code: EINVAL) }
        guard info.st_uid == getuid() else { throw Failure(path: path, code: EPERM) }
        if info.st_mode & 0o777 != 0o600 && fchmod(descriptor, 0o600) != 0 { throw Failure(path: path, code: errno) }
    }

    /// ``tighten(_:)`` of a SQLite database and the files SQLite keeps beside it
    /// (`-wal`, `-shm`, `-journal`).
    public static func tighten(database path: String) throws(Failure) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try tighten(path + suffix) }
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
