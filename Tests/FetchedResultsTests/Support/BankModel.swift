import Foundation
import SQLiteStore
import TestSupport

@testable import FetchedResults

/// The failedbanks model as the tests need it: FailedBankInfo(name, city, state) ↔ details
/// FailedBankDetails(closeDate, updatedDate?, cert unique, acquiringInstitution?, fund?), closeYear derived.
enum BankModel {
    static let info = Entity(
        "FailedBankInfo",
        attributes: [
            Attribute("name", .text, indexed: true), Attribute("city", .text), Attribute("state", .text, indexed: true),
        ],
        relationships: [
            Relationship(
                "details",
                destination: "FailedBankDetails",
                inverse: "info",
                deleteRule: .cascade,
                storesForeignKey: false
            )
        ],
        derived: [initial]
    )

    /// The uppercased first letter of the name, `#` for anything else: not order-preserving
    /// under a case-insensitive name sort (digits sort before A, `É` after z).
    static let initial = DerivedAttribute.initial("initial", of: "name")

    static let details = Entity(
        "FailedBankDetails",
        attributes: [
            Attribute("closeDate", .date, indexed: true), Attribute("updatedDate", .date, optional: true),
            Attribute("cert", .integer), Attribute("acquiringInstitution", .text, optional: true),
            Attribute("fund", .integer, optional: true),
        ],
        relationships: [
            Relationship("info", destination: "FailedBankInfo", inverse: "details", storesForeignKey: true)
        ],
        derived: [
            .year("closeYear", of: "closeDate", column: "close_date", valuesAreDates: true)
        ],
        uniqueKeys: [["cert"]]
    )

    static let model = Model(version: 1, applicationID: 0x4652_5443, entities: [info, details])

    /// The same with one details row per bank enforced (a unique key on the link, as failedbanks'
    /// own model has): a save's change set then gives a re-dated bank's date.
    static let uniqueDetailsModel: Model = {
        var unique = details
        unique.uniqueKeys = [["cert"], ["info"]]
        return Model(version: 1, applicationID: 0x4652_5443, entities: [info, unique])
    }()
}

/// A store in a fresh temporary directory, removed at deinit.
final class TempStore {
    let folder = TemporaryDirectory("frc-test")
    var directory: String { folder.path }
    let path: String
    let store: Store
    let context: ObjectContext

    init(model: Model = BankModel.model) throws {
        path = folder.path("banks.sqlite")
        store = try Store(path: path, model: model)
        context = ObjectContext(store: store)
    }

    /// A second connection to the same file, as another process would have.
    func secondConnection() throws -> (Store, ObjectContext) {
        let s = try Store(path: path, model: store.model)
        return (s, ObjectContext(store: s))
    }

    var cacheDirectory: String { directory + "/cache" }

    /// Inserts a bank (and its details when `closeDate` is given) through the context; returns the info object.
    @discardableResult
    func addBank(
        _ name: String,
        city: String = "Springfield",
        state: String = "IL",
        closeDate: String? = "2010-05-14",
        cert: Int64? = nil,
        fund: Int64? = nil,
        acquirer: String? = nil,
        save: Bool = true
    ) throws -> ManagedObject {
        let info = context.insert(into: "FailedBankInfo")
        info["name"] = .text(name)
        info["city"] = .text(city)
        info["state"] = .text(state)
        if let closeDate {
            let d = context.insert(into: "FailedBankDetails")
            d["closeDate"] = .text(closeDate)
            d["cert"] = .integer(cert ?? TempStore.nextCert())
            d["fund"] = fund.map { .integer($0) } ?? .null
            d["acquiringInstitution"] = acquirer.map { .text($0) } ?? .null
            d.setRelated(info, for: "info")
        }
        if save { try context.save() }
        return info
    }

    private nonisolated(unsafe) static var certCounter: Int64 = 1_000_000
    private static let certLock = NSLock()
    static func nextCert() -> Int64 {
        certLock.lock()
        defer { certLock.unlock() }
        certCounter += 1
        return certCounter
    }
}

extension IndexPath {
    /// [section, item] for tests (Foundation on Linux has no `section`/`item`).
    var s: Int { self[0] }
    var i: Int { self[1] }
    static func at(_ item: Int, _ section: Int) -> IndexPath { IndexPath(indexes: [section, item]) }
}

/// The controller's whole state as plain values.
struct Snapshot: Equatable, CustomStringConvertible {
    var sections: [(name: String, ids: [ObjectID])]

    static func == (a: Snapshot, b: Snapshot) -> Bool {
        a.sections.count == b.sections.count
            && zip(a.sections, b.sections).allSatisfy { $0.name == $1.name && $0.ids == $1.ids }
    }

    init(sections: [(name: String, ids: [ObjectID])]) { self.sections = sections }

    init(_ controller: FetchedResultsController) {
        sections = controller.sections.map { ($0.name, $0.objects.objectIDs) }
    }

    /// The sections a controller should show for `sorted` (objects in its order): a run of
    /// objects whose `section` values compare equal is one section, named as the controller names it.
    init(grouping sorted: [ManagedObject], by section: (ManagedObject) -> StoreValue) {
        var sections: [(name: String, ids: [ObjectID])] = []
        var last: StoreValue?
        for o in sorted {
            let v = section(o)
            if let l = last, StoreValue.compare(l, v) == 0 {
                sections[sections.count - 1].ids.append(o.objectID)
            } else {
                sections.append((FetchedResultsController.sectionName(for: v), [o.objectID]))
            }
            last = v
        }
        self.sections = sections
    }

    var description: String {
        sections.map { "\($0.name)(\($0.ids.count)): " + $0.ids.map { String($0.rowID) }.joined(separator: ",") }
            .joined(separator: "\n")
    }
}
