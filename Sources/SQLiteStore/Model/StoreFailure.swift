import CSQLite
import Foundation

/// What went wrong with a store, told apart as a person needs to act on it, with the
/// `sysexits.h` status a command exits with: the one mapping from the store's errors
/// (``StoreError``, ``SQLiteError``) to exit statuses that every app uses.
///
///     do { try controller.performFetch() } catch {
///         let failure = StoreFailure(error)
///         print("books.sqlite: \(error)")
///         return failure.exitStatus          // 75 when another process holds the lock
///     }
public enum StoreFailure: Sendable, Equatable {
    /// There is no store at the path (``StoreError/missingFile(path:)``): 66, no input.
    case missingFile
    /// The file is not a SQLite database (``StoreError/notADatabase(path:)``, `SQLITE_NOTADB`): 65, data error.
    case notADatabase
    /// The file is damaged (`SQLITE_CORRUPT`): 65.
    case damaged
    /// Another application's database (``StoreError/foreignApplication(path:applicationID:)``): 65.
    case foreignApplication
    /// Written by a newer version of the program (``StoreError/newerSchemaVersion(found:supported:)``): 65.
    case newerSchemaVersion
    /// The tables do not match the model, or no migration leads to it: 65.
    case schemaMismatch
    /// Another process holds the lock past the busy timeout (`SQLITE_BUSY`, `SQLITE_LOCKED`): 75, try again.
    case locked
    /// The store or its folder cannot be written (``StoreError/readOnly(path:)``, `SQLITE_READONLY`): 77, no permission.
    case readOnly
    /// The disk is full (`SQLITE_FULL`, `ENOSPC`): 74, I/O error.
    case diskFull
    /// The file reached the file size limit (`EFBIG`): 74.
    case fileTooLarge
    /// The disk quota is exceeded (`EDQUOT`): 74.
    case quotaExceeded
    /// Reading or writing the file failed otherwise (`SQLITE_IOERR_*`): 74.
    case ioError
    /// SQLite cannot open or create the file (`SQLITE_CANTOPEN`), or its folder cannot be created
    /// (``StoreError/cannotCreateFolder(path:errno:)``): 73, cannot create.
    case cannotOpen
    /// A mistake of the program rather than of the file (an unknown entity or key path, an invalid model
    /// or object): 70, internal software error.
    case programError
    /// Any other error (another SQLite result code, another writer's change in the way of a save
    /// or an undo, or not the store's error at all): 74.
    case other

    /// The kind of `error`, met while opening or using a store.
    public init(_ error: any Error) {
        switch error {
        case let error as StoreError: self = StoreFailure.of(error)
        case let error as SQLiteError: self = StoreFailure.of(error)
        default: self = .other
        }
    }

    /// The exit status (`sysexits.h`) of a command that stops on this failure.
    public var exitStatus: Int32 {
        switch self {
        case .missingFile: return 66  // EX_NOINPUT
        case .notADatabase, .damaged, .foreignApplication, .newerSchemaVersion, .schemaMismatch:
            return 65  // EX_DATAERR
        case .locked: return 75  // EX_TEMPFAIL
        case .readOnly: return 77  // EX_NOPERM
        case .diskFull, .fileTooLarge, .quotaExceeded, .ioError, .other: return 74  // EX_IOERR
        case .cannotOpen: return 73  // EX_CANTCREAT
        case .programError: return 70  // EX_SOFTWARE
        }
    }

    /// What went wrong, in words a person reads after "Not saved: " or "Could not delete …: ":
    /// "the disk is full", "the file could not be written (Input/output error)", "another
    /// program is writing to the file; try again". Never SQL: the project's own errors give
    /// their description, another SQLite error its message.
    ///
    ///     catch { form.errorMessage = "Not saved: \(StoreFailure.reason(of: error))" }
    public static func reason(of error: any Error) -> String {
        let sqlite = error as? SQLiteError
        switch StoreFailure(error) {
        case .diskFull: return "the disk is full"
        case .fileTooLarge: return "the file reached the file size limit"
        case .quotaExceeded: return "the disk quota is exceeded"
        case .locked where sqlite != nil:
            return "another program is writing to the file (it did not finish in time); try again"
        case .readOnly where sqlite != nil: return "the file is read-only"
        case .damaged: return "the file is damaged"
        case .ioError:
            guard let sqlite else { break }
            let cause = sqlite.systemErrno != 0 ? String(cString: strerror(sqlite.systemErrno)) : "I/O error"
            return "the file could not be \(ioVerb(sqlite.code)) (\(cause))"
        default: break
        }
        if let sqlite { return sqlite.message }
        return "\(error)"
    }

    /// What an `SQLITE_IOERR_*` code failed to do to the file.
    private static func ioVerb(_ code: Int32) -> String {
        switch code >> 8 {
        case 1, 2: return "read"  // SQLITE_IOERR_READ, _SHORT_READ
        case 8, 9, 14, 15, 20: return "locked"  // _UNLOCK, _RDLOCK, _CHECKRESERVEDLOCK, _LOCK, _SHMLOCK
        default: return "written"
        }
    }

    private static func of(_ error: StoreError) -> StoreFailure {
        switch error {
        case .missingFile: return .missingFile
        case .notADatabase: return .notADatabase
        case .foreignApplication: return .foreignApplication
        case .newerSchemaVersion: return .newerSchemaVersion
        case .schemaMismatch, .missingMigration: return .schemaMismatch
        case .readOnly: return .readOnly
        case .cannotCreateFolder: return .cannotOpen
        case .conflict, .restoreConflict, .alreadyDeleted: return .other
        default: return .programError
        }
    }

    private static func of(_ error: SQLiteError) -> StoreFailure {
        switch error.primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED: return .locked
        case SQLITE_READONLY: return .readOnly
        case SQLITE_CORRUPT: return .damaged
        case SQLITE_NOTADB: return .notADatabase
        case SQLITE_FULL: return .diskFull
        case SQLITE_CANTOPEN: return .cannotOpen
        case SQLITE_IOERR:
            switch error.systemErrno {
            case ENOSPC: return .diskFull
            case EFBIG: return .fileTooLarge
            case EDQUOT: return .quotaExceeded
            default: return .ioError
            }
        default: return .other
        }
    }
}
