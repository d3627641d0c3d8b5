import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FailedBanksKit

/// The bank as records: the model built from them is the schema the releases wrote, and a bank
/// reads back as its two records.
@Suite struct BankRecordTests {
    /// The model as release 2 declared it, entity by entity (before the records declared it).
    static let declaredBefore = Model(
        version: 2,
        applicationID: FailedBankModel.applicationID,
        entities: [
            Entity(
                "FailedBankInfo",
                attributes: [Attribute("name", .text), Attribute("city", .text), Attribute("state", .text)],
                relationships: [
                    Relationship(
                        "details",
                        destination: "FailedBankDetails",
                        inverse: "info",
                        deleteRule: .cascade,
                        storesForeignKey: false
                    )
                ]
            ),
            Entity(
                "FailedBankDetails",
                attributes: [
                    Attribute("closeDate", .date, indexed: true),
                    Attribute("updatedDate", .date, optional: true),
                    Attribute("cert", .integer),
                    Attribute("acquiringInstitution", .text, optional: true),
                    Attribute("fund", .integer, optional: true),
                ],
                relationships: [
                    Relationship(
                        "info",
                        destination: "FailedBankInfo",
                        inverse: "details",
                        deleteRule: .nullify,
                        storesForeignKey: true
                    )
                ],
                derived: [.year("closeYear", of: "closeDate", column: "close_date", notADate: .null)],
                uniqueKeys: [["cert"], ["info"]]
            ),
        ]
    )

    /// Every table, index and trigger a new store of `model` holds, as SQLite keeps them.
    static func schema(of model: Model, in directory: TemporaryDirectory, name: String) throws -> [String] {
        let store = try Store(path: directory.path(name), model: model)
        return try store.database.query("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
            .map { row in "\(row[0]) \(row[1]): \(row[2])" }
    }

    @Test func theModelBuiltFromTheRecordsMakesTheSchemaDeclaredBefore() throws {
        let directory = TemporaryDirectory("bank-records")
        defer { directory.remove() }
        let fromRecords = try Self.schema(of: FailedBankModel.model, in: directory, name: "records.sqlite")
        let declared = try Self.schema(of: Self.declaredBefore, in: directory, name: "declared.sqlite")
        #expect(fromRecords == declared)
        #expect(fromRecords.contains { $0.contains("failed_bank_details") && $0.contains("UNIQUE") })
        #expect(FailedBankModel.model.entities.map(\.name) == ["FailedBankInfo", "FailedBankDetails"])
        // The import's bulk rows are laid out in this order (BankRowLayout.append).
        #expect(BankRowLayout.infoColumns == ["name", "city", "state"])
        #expect(
            BankRowLayout.detailsColumns == ["close_date", "updated_date", "cert", "acquiring_institution", "fund"]
        )
        #expect(FailedBankDetails.infoColumn == "info_id")
    }

    @Test func aBankReadsBackAsItsRecords() throws {
        let directory = TemporaryDirectory("bank-records")
        defer { directory.remove() }
        let context = ObjectContext(
            store: try Store(path: directory.path("banks.sqlite"), model: FailedBankModel.model)
        )
        let bank = context.insert(FailedBankInfo(name: "First Bank", city: "Lindsay", state: "OK"))
        try context.save()
        let details = context.insert(
            FailedBankDetails(
                closeDate: "2024-04-26",
                updatedDate: nil,
                cert: 4731,
                acquiringInstitution: "First Bank & Trust",
                fund: 10546
            )
        )
        details[FailedBankDetails.info] = .integer(bank.objectID.rowID)
        try context.save()

        let fetched = try #require(try context.fetch(FailedBankModel.info).first)
        #expect(try fetched.record(as: FailedBankInfo.self).name == "First Bank")
        let related = try #require(fetched.related(FailedBankInfo.details))
        #expect(try related.record(as: FailedBankDetails.self).cert == 4731)
        #expect(fetched.value(forKeyPath: FailedBankInfo.details(.closeDate)) == .text("2024-04-26"))
    }
}
