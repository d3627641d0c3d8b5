import Foundation
import SQLiteStore

extension FetchedResultsController {
    /// The object at `indexPath` read as a typed record (see `StoreRecord` in SQLiteStore).
    ///
    ///     let student = try controller.record(at: IndexPath(row: 0, section: 1), as: Student.self)
    ///     print(student.name, student.number)
    public func record<Record: StoreRecord>(
        at indexPath: IndexPath,
        as type: Record.Type = Record.self
    ) throws -> Record {
        try object(at: indexPath).record(as: Record.self)
    }
}
