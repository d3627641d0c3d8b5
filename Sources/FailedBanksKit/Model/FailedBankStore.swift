import BaseDirectories
import CLIKit
import Glibc
import SQLiteStore

/// Where the failedbanks store lives, and opening it.
///
/// The path is `--db` when given, else `$FAILEDBANKS_DB`, else
/// `$XDG_DATA_HOME/failedbanks/failedbanks.sqlite`, else
/// `~/.local/share/failedbanks/failedbanks.sqlite`. Opening for writing
/// creates the missing directories.
///
///     let store = try FailedBankStore.open(path: nil)          // the default location
///     let readOnly = try FailedBankStore.open(path: "/tmp/b.sqlite", readOnly: true)
package enum FailedBankStore {
    /// The default store path from the environment (see the type's summary).
    package static func defaultPath(environment: [String: String] = currentEnvironment()) -> String {
        if let explicit = environment["FAILEDBANKS_DB"], !explicit.isEmpty { return explicit }
        return XDGBaseDirectories(environment: environment).data("failedbanks", "failedbanks.sqlite")
    }

    /// Opens (creating when writable and missing) the store at `path`, or at ``defaultPath(environment:)``.
    package static func open(path: String?, readOnly: Bool = false) throws -> Store {
        let resolved = path ?? defaultPath()
        if !readOnly { try Store.createFolder(for: resolved) }
        return try Store(path: resolved, model: FailedBankModel.model, readOnly: readOnly)
    }

    /// What a command opens the store for: decides what a missing, read-only or busy file means.
    package enum Purpose: Sendable, Equatable {
        /// One-shot reading (`list`): the store must exist. When it cannot be written it is opened
        /// read-only, and without leaving `-wal`/`-shm` files beside it when it has none.
        case reading
        /// Reading and following other processes' changes (`watch`): the store must exist.
        case watching
        /// Writing (`import`): created when missing; a file or folder that cannot be written is
        /// refused before SQLite opens it (so nothing is created beside it).
        case writing
        /// The browser: created when missing; opened read-only (with the reason) when it cannot be
        /// written; waits while another process holds the write lock.
        case browsing
    }

    /// A store opened by ``open(path:for:model:waiting:)``.
    package struct Opened {
        package let store: Store
        /// Why the store was opened read-only (``Purpose/browsing``), nil when it can be written.
        package let readOnlyReason: String?
    }

    /// Opens the store at `path` for `purpose`, or refuses it with one sentence naming it and a
    /// `sysexits.h` status: the one place where import, list, watch and the browser decide what a
    /// missing, non-regular, read-only, foreign, newer, damaged or locked store means.
    ///
    /// The file is looked at with `stat` and `access` before SQLite opens it: a FIFO would block
    /// the open, and a read-write open of a file that cannot be written would leave `-wal`/`-shm`
    /// files beside it. A refused file is left exactly as it was. `waiting` is told (once) when
    /// the browser waits for another process's write lock.
    ///
    ///     do {
    ///         let store = try FailedBankStore.open(path: path, for: .writing).store
    ///     } catch {
    ///         printError(error.message)   // "/tmp/b.sqlite: read-only: the store file is not writable"
    ///         return error.status         // 77
    ///     }
    package static func open(
        path: String,
        for purpose: Purpose,
        model: Model = FailedBankModel.model,
        waiting: ((String) -> Void)? = nil
    ) throws(StoreRefusal) -> Opened {
        var info = stat()
        let exists: Bool
        if stat(path, &info) == 0 {
            exists = true
            if let kind = nonRegularKind(info.st_mode) {
                throw StoreRefusal(
                    message:
                        "\(path): \(kind), not a regular file, so not a failedbanks store (not a SQLite database); it was not opened",
                    status: ExitStatus.dataError
                )
            }
        } else if errno == ENOENT {
            exists = false
        } else {
            let code = errno
            throw StoreRefusal(
                message: "\(path): cannot reach the store (\(String(cString: strerror(code))))",
                status: code == EACCES ? ExitStatus.noPermission : ExitStatus.ioError
            )
        }

        if !exists && (purpose == .reading || purpose == .watching) {
            throw StoreRefusal(
                message: "\(path): no store there (import the FDIC list first: \(ProgramName.current) import FILE)",
                status: ExitStatus.noInput
            )
        }
        var readOnlyReason = exists ? whyNotWritable(path) : nil
        if let reason = readOnlyReason, purpose == .writing {
            throw StoreRefusal(message: "\(path): read-only: \(reason)", status: ExitStatus.noPermission)
        }
        var saidWaiting = false
        while true {
            do {
                if !exists { try Store.createFolder(for: path) }
                let store = try Store(
                    path: path,
                    model: model,
                    readOnly: readOnlyReason != nil,
                    immutable: purpose == .reading && readOnlyReason != nil,
                    // A new store for an import enters WAL after the import's bulk load (EmptyStoreLoad).
                    keepingNewFileOutOfWAL: purpose == .writing
                )
                if purpose == .writing && store.isReadOnly {
                    throw StoreRefusal(
                        message: "\(path): the store is read-only (SQLite opened it read-only)",
                        status: ExitStatus.noPermission
                    )
                }
                return Opened(store: store, readOnlyReason: readOnlyReason)
            } catch let error as SQLiteError where error.isBusy && purpose == .browsing {
                // Another process holds the write lock (an import): wait, as the busy timeout does, but longer.
                if !saidWaiting {
                    waiting?("\(path): waiting: another program is writing to the store…")
                    saidWaiting = true
                }
                usleep(200_000)
            } catch let error as SQLiteError
                where error.isReadOnly && readOnlyReason == nil
                && purpose != .writing
            {
                readOnlyReason = "the store cannot be written (\(error.message))"
            } catch {
                throw StoreRefusal(error, path: path)
            }
        }
    }

    /// "a directory", "a FIFO (named pipe)", … for a file that is not a regular file; nil for one that is.
    static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    /// Why the existing store at `path` cannot be written (a short clause, shown by the browser
    /// after "Read-only:"), or nil when it can: the file itself,
    /// or its folder (SQLite creates `-wal` and `-shm` files beside the store to write it).
    static func whyNotWritable(_ path: String) -> String? {
        if access(path, W_OK) != 0 {
            return "the store file is not writable"
        }
        let directory = directory(of: path)
        if access(directory, W_OK) != 0 {
            // A folder that cannot be written is fine when the -wal and -shm files are already there.
            if access(path + "-wal", W_OK) == 0 && access(path + "-shm", W_OK) == 0 { return nil }
            return
                "the store's folder \(directory) is not writable (SQLite must create the store's -wal and -shm files there)"
        }
        return nil
    }

    /// The directory part of `path` ("." for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The process environment.
    package static func currentEnvironment() -> [String: String] { ProcessEnvironment.current() }
}
