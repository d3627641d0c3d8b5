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
        case StoreError.cannotCreateFolder(let folder, let code):
            self.init(
                message: "\(path): cannot create the store's directory \(folder): \(String(cString: strerror(code)))",
                status: ExitStatus.cantCreate
            )
        default:
            let failure = StoreFailure(error)
            self.init(message: "\(path): " + StoreRefusal.reason(failure, error), status: failure.exitStatus)
        }
    }

    /// The sentence after the path for a store's `failure`, whose details `error` holds.
    private static func reason(_ failure: StoreFailure, _ error: Error) -> String {
        let sqlite = error as? SQLiteError
        let sqliteMessage = sqlite?.message ?? ErrorReason.text(of: error)
        switch failure {
        case .notADatabase:
            return "not a SQLite database, so not a failedbanks store; it was left unchanged"
        case .newerSchemaVersion:
            guard case StoreError.newerSchemaVersion(let found, let supported) = error else { break }
            return
                "written by a newer failedbanks (schema version \(found), this one reads up to \(supported)); it was left unchanged"
        case .foreignApplication:
            return "another application's SQLite database, not a failedbanks store; it was left unchanged"
        case .schemaMismatch:
            return "cannot be used: \(ErrorReason.text(of: error)); it was left unchanged"
        case .readOnly:
            guard let sqlite else { return "the store is read-only, so it cannot be written or brought up to date" }
            return "the store is read-only (\(sqlite.message))"
        case .locked:
            return
                "the store is locked by another process (still busy when the wait for it ran out); try again when that one has finished"
        case .damaged:
            return
                "the store is damaged (SQLite: \(sqliteMessage)); restore it from a backup or import into a new store"
        case .diskFull:
            return "the disk is full (no space left to write the store)"
        case .fileTooLarge:
            return "out of space: the store reached the file size limit (\(String(cString: strerror(EFBIG))))"
        case .quotaExceeded:
            return "out of space: the disk quota is exceeded"
        case .ioError:
            guard let sqlite, sqlite.systemErrno != 0 else {
                return "cannot read or write the store (SQLite: \(sqliteMessage))"
            }
            return "cannot read or write the store (\(String(cString: strerror(sqlite.systemErrno))))"
        case .cannotOpen:
            return "cannot open the store (\(sqliteMessage))"
        case .missingFile, .programError, .other:
            break
        }
        return ErrorReason.text(of: error)
    }
}
