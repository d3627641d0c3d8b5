import BaseDirectories
import CLIKit
import Foundation
import Glibc

/// Where the stash lives, and creating it so that only its owner can read it.
///
/// The path is, first match wins: `--db PATH`, `$MYSTASH_DB`,
/// `$XDG_DATA_HOME/mystash/mystash.sqlite`, `~/.local/share/mystash/mystash.sqlite`.
/// A new store is created with mode 0600 in a directory made with 0700; SQLite
/// gives its `-wal` and `-shm` files the main file's mode, and a stash found
/// with looser permissions is tightened to 0600 (with its companions) once
/// it has been opened as a stash.
///
///     let path = StashLocation.resolve(option: parsed.value("--db"),
///                                      environment: ProcessInfo.processInfo.environment)
///     try StashLocation.prepare(path: path)     // creates the directory and an empty 0600 file
///     // … open the store …
///     StashLocation.tightenPermissions(path: path)
package enum StashLocation {
    /// The store path chosen from the command line option and the environment.
    package static func resolve(option: String?, environment: [String: String]) -> String {
        if let option, !option.isEmpty { return option }
        if let path = environment["MYSTASH_DB"], !path.isEmpty { return path }
        return XDGBaseDirectories(environment: environment).data("mystash", "mystash.sqlite")
    }

    /// Makes sure `path` can be created as a private store: creates missing
    /// parent directories (0700) and, when there is no file, an empty one
    /// with mode 0600 (SQLite gives `-wal` and `-shm` the main file's mode).
    /// An existing file is left alone (see `tightenPermissions(path:)`).
    ///
    /// Returns true when the file was created by this call.
    @discardableResult
    package static func prepare(path: String) throws -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory,
                    withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700]
                )
            } catch {
                throw StashError.cannotCreate(path: directory, reason: ErrorReason.text(of: error))
            }
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            // umask cannot widen 0600, but make sure the mode is exactly 0600.
            fchmod(fd, 0o600)
            close(fd)
            return true
        }
        let openError = errno
        guard openError == EEXIST else {
            throw StashError.cannotCreate(path: path, reason: String(cString: strerror(openError)))
        }
        return false
    }

    /// Tightens an existing store of ours and its `-wal`/`-shm` companions
    /// to 0600 when group or others could read them. Call it only once the
    /// file was opened as a stash, so that nobody else's file is touched.
    package static func tightenPermissions(path: String) {
        for file in [path, path + "-wal", path + "-shm", path + "-journal"] {
            var info = stat()
            if stat(file, &info) == 0, info.st_mode & 0o077 != 0, info.st_uid == getuid() {
                chmod(file, 0o600)
            }
        }
    }

    /// The permission bits of a file (`0o600`), or nil when it does not exist.
    package static func permissions(ofFile path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mode & 0o777)
    }
}
