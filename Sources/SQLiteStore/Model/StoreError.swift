import Glibc

/// Errors of the object store (SQLite's own failures arrive as ``SQLiteError``).
///
/// Each case carries what a person needs to understand it; the command-line
/// layer turns them into sentences (``description`` is a reasonable default).
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No entity of that name in the model.
    case unknownEntity(String)
    /// A key path that does not lead to an attribute, derived attribute or relationship of the entity.
    case unknownKeyPath(String, entity: String)
    /// The file was written by a newer program (its `user_version` is higher than the model's).
    case newerSchemaVersion(found: Int, supported: Int)
    /// The file exists but is not a SQLite database.
    case notADatabase(path: String)
    /// A SQLite file that belongs to another application (other `application_id`, or unknown tables).
    case foreignApplication(path: String, applicationID: Int32)
    /// A write (or a needed migration) on a store opened read-only.
    case readOnly(path: String)
    /// A value that the model does not allow (a required attribute left NULL, …).
    case validation(entity: String, key: String, reason: String)
    /// The model contradicts itself (a relationship without its inverse, …).
    case invalidModel(String)
    /// No migration leads from the file's version towards the model's.
    case missingMigration(from: Int, to: Int)
    /// A table in the file lacks a column the model needs.
    case schemaMismatch(table: String, reason: String)
    /// An operation on an object that belongs to another context or is no longer valid.
    case invalidObject(String)
    /// Another file was put at the path while a store of this process still has the old file
    /// open: opening the new one now would share the old one's `-wal` (`Store/fileAtPath()`).
    case replacedFileStillOpen(path: String)
    /// No file at the path (a foreign database is never created: ``Store/init(foreignDatabaseAt:model:readOnly:tracking:)``,
    /// ``DatabaseCatalog/init(path:tracking:)``).
    case missingFile(path: String)
    /// The operation needs a table with a row id (`rowid` or an `INTEGER PRIMARY KEY`); a view or a
    /// `WITHOUT ROWID` table has none (deleting a row, history triggers).
    case noRowID(table: String)
    /// An undo (or redo) that cannot put a row back as it was: the row is named in `table`'s
    /// terms and `reason` says why. The undo changes nothing ([Changes and undo](<doc:ChangesAndUndo>)).
    case cannotRestore(table: String, reason: String)
    /// A delete of a row that is no longer there: another process (or connection) deleted
    /// it since it was read. The save changes nothing.
    case alreadyDeleted(table: String, rowID: Int64)
    /// A save of objects whose rows another writer changed or deleted since they were read:
    /// nothing was written, and the context keeps the changes. ``ObjectContext/resolveConflict(of:by:)``
    /// chooses what the next save does (<doc:ChangesFromOtherProcesses>).
    case conflict([SaveConflict])
    /// An undo or redo (`step`) that would write over another writer's change of the row `row`
    /// (its row id, or a `WITHOUT ROWID` table's key) of `table` since the save: it changed
    /// nothing and stays on its stack ([Changes and undo](<doc:ChangesAndUndo>)).
    case restoreConflict(table: String, row: String, reason: RestoreConflict, step: RestoreStep)
    /// The folder that would hold the store cannot be created (`Store.createFolder(for:)`):
    /// `errno` says why (`EACCES`, `ENOTDIR`, …).
    case cannotCreateFolder(path: String, errno: Int32)

    public var description: String {
        switch self {
        case .unknownEntity(let e): return "unknown entity \"\(e)\""
        case .unknownKeyPath(let k, let e): return "unknown key path \"\(k)\" for entity \(e)"
        case .newerSchemaVersion(let found, let supported):
            return
                "the store was written by a newer version of this program (schema version \(found); this program supports up to \(supported)); it was left unchanged"
        case .notADatabase(let p): return "\(p) is not a SQLite database"
        case .foreignApplication(let p, let id):
            return id == 0
                ? "\(p) is a SQLite database of another application (its tables do not match this program's)"
                : "\(p) belongs to another application (application_id \(id))"
        case .readOnly(let p): return "\(p) is open read-only"
        case .validation(let e, let k, let r): return "\(e).\(k): \(r)"
        case .invalidModel(let m): return "invalid model: \(m)"
        case .missingMigration(let f, let t): return "no migration from schema version \(f) towards \(t)"
        case .schemaMismatch(let t, let r): return "table \(t) does not match the model: \(r)"
        case .invalidObject(let m): return "invalid object: \(m)"
        case .missingFile(let p): return "\(p): no such file"
        case .noRowID(let t): return "\(t) has no row id (a view or a WITHOUT ROWID table)"
        case .cannotRestore(let t, let r): return "cannot restore the rows of \(t): \(r)"
        case .alreadyDeleted(let t, let id): return "the row \(id) of \(t) was already deleted (by another process)"
        case .conflict(let conflicts):
            return conflicts.map(\.description).joined(separator: "; ")
                + ": reload and reapply the changes, or overwrite"
        case .restoreConflict(let t, let row, let reason, let step):
            switch reason {
            case .existsAgain: return "the row \(row) of \(t) already exists again; not restored"
            case .changedSince:
                return "the row \(row) of \(t) was changed by another program \(step.since); \(step.notDone)"
            case .deletedSince:
                return "the row \(row) of \(t) was deleted by another program \(step.since); \(step.notDone)"
            }
        case .cannotCreateFolder(let p, let code):
            return "cannot create the folder \(p): \(String(cString: strerror(code)))"
        case .replacedFileStillOpen(let p):
            return
                "\(p) was replaced by another file while this program still has the old one open; the new one cannot be opened until the old one is closed"
        }
    }
}
