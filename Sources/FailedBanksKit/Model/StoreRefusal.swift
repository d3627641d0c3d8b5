import CLIKit
import Glibc
import SQLiteStore

/// A store that cannot be used, as the one line the user reads and the
/// `sysexits.h` status the command exits with.
///
/// Every command that touches a store (`import`, `list`, `watch`, the
/// browser) turns its store failures into one of these through
/// ``init(_:path:)``, so a damaged, locked, read-only or foreign file gets the
/// same sentence everywhere, in the form `<store path>: <reason>` (the
/// program name is put in front by `printError`).
///
///     do { try controller.performFetch() }
///     catch {
///         let refusal = StoreRefusal(error, path: store.path)
///         printError(refusal.message)      // "failedbanks: /tmp/b.sqlite: the store is damaged (…)"
///         return refusal.status            // 65
///     }
package struct StoreRefusal: Error, CustomStringConvertible, Sendable {
    /// The sentence, beginning with the store's path; without the program name.
    package var message: String
    /// The exit status (`sysexits.h`).
    package var status: Int32

    package init(message: String, status: Int32) {
        self.message = message
        self.status = status
    }

    package var description: String { message }

    /// The same refusal with `note` appended (`"; nothing was imported from FILE"`).
    func adding(_ note: String) -> StoreRefusal {
        StoreRefusal(message: message + note, status: status)
    }

    /// The sentence and status for `error`, met while opening or using the store at `path`.
    package init(_ error: Error, path: String) {
        switch error {
        case let refusal as StoreRefusal:
            self = refusal
        case let error as StoreError:
            self = StoreRefusal.forStoreError(error, path: path)
        case let error as SQLiteError:
            self = StoreRefusal.forSQLiteError(error, path: path)
        case let error as FailedBankStore.DirectoryError:
            self.init(
                message:
                    "\(path): cannot create the store's directory \(error.path): \(String(cString: strerror(error.code)))",
                status: ExitStatus.cantCreate
            )
        default:
            self.init(message: "\(path): \(ErrorReason.text(of: error))", status: ExitStatus.ioError)
        }
    }

    private static func forStoreError(_ error: StoreError, path: String) -> StoreRefusal {
        switch error {
        case .notADatabase:
            return StoreRefusal(
                message: "\(path): not a SQLite database, so not a failedbanks store; it was left unchanged",
                status: ExitStatus.dataError
            )
        case .newerSchemaVersion(let found, let supported):
            return StoreRefusal(
                message:
                    "\(path): written by a newer failedbanks (schema version \(found), this one reads up to \(supported)); it was left unchanged",
                status: ExitStatus.dataError
            )
        case .foreignApplication:
            return StoreRefusal(
                message:
                    "\(path): another application's SQLite database, not a failedbanks store; it was left unchanged",
                status: ExitStatus.dataError
            )
        case .schemaMismatch, .missingMigration:
            return StoreRefusal(
                message: "\(path): cannot be used: \(error); it was left unchanged",
                status: ExitStatus.dataError
            )
        case .readOnly:
            return StoreRefusal(
                message: "\(path): the store is read-only, so it cannot be written or brought up to date",
                status: ExitStatus.noPermission
            )
        default:
            return StoreRefusal(message: "\(path): \(ErrorReason.text(of: error))", status: ExitStatus.software)
        }
    }

    private static func forSQLiteError(_ error: SQLiteError, path: String) -> StoreRefusal {
        switch error.primaryCode {
        case 5, 6:  // SQLITE_BUSY, SQLITE_LOCKED
            return StoreRefusal(
                message:
                    "\(path): the store is locked by another process (still busy when the wait for it ran out); try again when that one has finished",
                status: ExitStatus.tempFail
            )
        case 8:  // SQLITE_READONLY
            return StoreRefusal(
                message: "\(path): the store is read-only (\(error.message))",
                status: ExitStatus.noPermission
            )
        case 11:  // SQLITE_CORRUPT
            return StoreRefusal(
                message:
                    "\(path): the store is damaged (SQLite: \(error.message)); restore it from a backup or import into a new store",
                status: ExitStatus.dataError
            )
        case 26:  // SQLITE_NOTADB
            return StoreRefusal(
                message: "\(path): not a SQLite database, so not a failedbanks store; it was left unchanged",
                status: ExitStatus.dataError
            )
        case 13:  // SQLITE_FULL
            return StoreRefusal(
                message: "\(path): the disk is full (no space left to write the store)",
                status: ExitStatus.ioError
            )
        case 10:  // SQLITE_IOERR_*
            switch error.systemErrno {
            case ENOSPC:
                return StoreRefusal(
                    message: "\(path): the disk is full (no space left to write the store)",
                    status: ExitStatus.ioError
                )
            case EFBIG:
                return StoreRefusal(
                    message:
                        "\(path): out of space: the store reached the file size limit (\(String(cString: strerror(EFBIG))))",
                    status: ExitStatus.ioError
                )
            case EDQUOT:
                return StoreRefusal(
                    message: "\(path): out of space: the disk quota is exceeded",
                    status: ExitStatus.ioError
                )
            case 0:
                return StoreRefusal(
                    message: "\(path): cannot read or write the store (SQLite: \(error.message))",
                    status: ExitStatus.ioError
                )
            default:
                return StoreRefusal(
                    message:
                        "\(path): cannot read or write the store (\(String(cString: strerror(error.systemErrno))))",
                    status: ExitStatus.ioError
                )
            }
        case 14:  // SQLITE_CANTOPEN
            return StoreRefusal(
                message: "\(path): cannot open the store (\(error.message))",
                status: ExitStatus.cantCreate
            )
        default:
            return StoreRefusal(message: "\(path): \(ErrorReason.text(of: error))", status: ExitStatus.ioError)
        }
    }
}
