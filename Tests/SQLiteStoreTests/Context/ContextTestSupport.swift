import Foundation
import TestSupport

@testable import SQLiteStore

/// Inserts a bank (info + details) through a context and saves.
@discardableResult
func insertBank(
    _ context: ObjectContext,
    name: String,
    city: String = "Springfield",
    state: String = "IL",
    closeDate: String = "2011-07-29",
    save: Bool = true
) throws -> (info: ManagedObject, details: ManagedObject) {
    let info = context.insert(into: "FailedBankInfo")
    info["name"] = .text(name)
    info["city"] = .text(city)
    info["state"] = .text(state)
    let details = context.insert(into: "FailedBankDetails")
    details["closeDate"] = .text(closeDate)
    details.setRelated(info, for: "info")
    if save { try context.save() }
    return (info, details)
}

/// Collects the change sets a context publishes.
final class ChangeRecorder {
    var changes: [ChangeSet] = []
    init(_ context: ObjectContext) {
        context.addObserver { [unowned self] in self.changes.append($0) }
    }
    var last: ChangeSet? { changes.last }
}

/// A store and a context on a fresh file.
struct Fixture {
    let dir = TemporaryDirectory()
    let store: Store
    let context: ObjectContext
    let recorder: ChangeRecorder
    var path: String { store.path }

    init(model: Model = BankModel.model()) throws {
        store = try Store(path: dir.path("banks.sqlite"), model: model)
        context = ObjectContext(store: store)
        recorder = ChangeRecorder(context)
    }

    func count(_ table: String) throws -> Int64 {
        try store.database.scalar("SELECT count(*) FROM \(table)").int64 ?? -1
    }
}
