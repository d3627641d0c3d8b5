import CLIKit
import SQLiteStore

/// What a command says, and exits with, when the stash's file cannot be opened, read or
/// written: the store's failure (`StoreFailure`) in words a person can act on, with its
/// `sysexits.h` status — "the disk is full" and 74 (as failedbanks says it), never SQLite's
/// "disk I/O error" with the statement that met it.
///
///     do { stash = try Stash(path: path) } catch {
///         return StashFileProblem(error, path: path).report()   // "mystash: cannot open …: the disk is full"
///     }
struct StashFileProblem {
    /// The sentence, without the program name.
    let message: String
    /// The exit status.
    let status: Int32

    /// The problem of `error`, met while trying to `verb` ("open", "read", "write") the stash at `path`.
    init(_ error: Error, path: String, doing verb: String = "open") {
        message = "cannot \(verb) \(path): " + StashFileProblem.reason(error)
        status = StashFileProblem.status(error)
    }

    /// Says the problem on stderr; returns the status to exit with.
    func report() -> Int32 {
        printError(message)
        return status
    }

    /// Whether `error` is the file's (SQLite's or the store's), not the vault's or the stash's.
    static func isAboutTheFile(_ error: Error) -> Bool {
        error is SQLiteError || error is StoreError
    }

    /// The reason, in words.
    static func reason(_ error: Error) -> String {
        if error is StashError { return ErrorReason.text(of: error) }
        switch StoreFailure(error) {
        case .diskFull: return "the disk is full"
        case .fileTooLarge: return "the file size limit was reached"
        case .quotaExceeded: return "the disk quota is exceeded"
        case .locked: return "another program holds the stash's lock; try again when it has finished"
        case .readOnly: return "it cannot be written here (read-only)"
        case .damaged: return "the file is damaged; restore it from a backup"
        case .notADatabase: return "not a stash (not a SQLite database)"
        case .foreignApplication: return "another program's database, not a stash"
        case .newerSchemaVersion: return "it was made by a newer mystash"
        default: return ErrorReason.text(of: error)
        }
    }

    /// The exit status: `StoreFailure`'s, 66 when there is no file, 73 when it cannot be made.
    static func status(_ error: Error) -> Int32 {
        switch error {
        case StashError.noStore: return ExitStatus.noInput
        case StashError.cannotCreate: return ExitStatus.cantCreate
        case is StashError: return ExitStatus.dataError
        default: return StoreFailure(error).exitStatus
        }
    }
}
