import Foundation
import Testing

@testable import SQLiteStore

/// ``WrittenRows``: a save's change set carries the rows it wrote as the file
/// holds them at the commit, and nothing it cannot vouch for.
@Suite struct WrittenRowsTests {
    /// The bank model with one details row per bank enforced (as failedbanks' own model has it).
    static func uniqueDetailsModel() -> Model {
        var details = BankModel.details
        details.uniqueKeys = [["info"]]
        return Model(version: 1, applicationID: BankModel.applicationID, entities: [BankModel.info, details])
    }

    static let keyPaths = ["details.closeDate", "name", "details.closeYear", "city"]

    static func known(_ changes: ChangeSet?, _ info: ManagedObject) -> [StoreValue?]? {
        changes?.writtenRows.knownValues(forKeyPaths: keyPaths, root: "FailedBankInfo", of: [info.objectID.rowID])[
            info.objectID.rowID
        ]
    }

    @Test func aSaveCarriesWhatItWroteAndNothingElse() throws {
        let f = try Fixture(model: Self.uniqueDetailsModel())
        let (info, details) = try insertBank(f.context, name: "Alpha", closeDate: "2011-07-29")
        #expect(Self.known(f.recorder.last, info) == [.text("2011-07-29"), .text("Alpha"), nil, .text("Springfield")])

        details["closeDate"] = .text("2015-01-02")
        try f.context.save()
        // The name was not written: the context's copy of it may be older than the file.
        #expect(Self.known(f.recorder.last, info) == [.text("2015-01-02"), nil, nil, nil])

        info["name"] = .text("Beta")
        try f.context.save()
        // The bank's row was written: all of it is known, as committed; its details row was not.
        #expect(Self.known(f.recorder.last, info) == [nil, .text("Beta"), nil, .text("Springfield")])
    }

    @Test func valuesAreTheFilesAfterTriggersRan() throws {
        let f = try Fixture(model: Self.uniqueDetailsModel())
        let (info, details) = try insertBank(f.context, name: "Alpha")
        try f.store.database.execute(
            """
            CREATE TRIGGER stamp AFTER UPDATE OF close_date ON failed_bank_details
            BEGIN UPDATE failed_bank_details SET fund = 2.5, close_date = NEW.close_date || 'T00:00' WHERE id = NEW.id; END
            """
        )
        details["closeDate"] = .text("2015-01-02")
        try f.context.save()
        let row = try #require(
            f.recorder.last?.writtenRows.knownValues(
                forKeyPaths: ["details.closeDate", "details.fund"],
                root: "FailedBankInfo",
                of: [info.objectID.rowID]
            )[info.objectID.rowID]
        )
        let stored = try f.store.database.query("SELECT close_date, fund FROM failed_bank_details").first
        #expect(row == [.text("2015-01-02T00:00"), .real(2.5)])
        #expect(row.map { $0 ?? .null } == stored)
    }

    @Test func aLinkFromRowsThatMayBeSeveralIsNotKnown() throws {
        let f = try Fixture()  // no unique key on details' link: another details row may point at the bank
        let (info, details) = try insertBank(f.context, name: "Alpha")
        details["closeDate"] = .text("2015-01-02")
        info["city"] = .text("Shelbyville")
        try f.context.save()
        #expect(Self.known(f.recorder.last, info) == [nil, .text("Alpha"), nil, .text("Shelbyville")])
    }

    @Test func throughTheForeignKeySideBothRowsMustBeWritten() throws {
        let f = try Fixture(model: Self.uniqueDetailsModel())
        let (info, details) = try insertBank(f.context, name: "Alpha")
        let id = details.objectID.rowID
        func name() -> StoreValue?? {
            f.recorder.last?.writtenRows.knownValues(forKeyPaths: ["info.name"], root: "FailedBankDetails", of: [id])[
                id
            ]?.first
        }
        #expect(name() == .some(.text("Alpha")))
        details["closeDate"] = .text("2015-01-02")  // the link is known, the bank's row was not written
        try f.context.save()
        #expect(name() == nil)
        details.setRelated(nil, for: "info")
        try f.context.save()
        #expect(name() == .some(.null))  // no bank: NULL, as the join gives
        _ = info
    }

    @Test func deletedRowsAndOtherProcessesWritesCarryNothing() throws {
        let f = try Fixture(model: Self.uniqueDetailsModel())
        let (info, _) = try insertBank(f.context, name: "Alpha")
        f.context.delete(info)
        try f.context.save()
        #expect(Self.known(f.recorder.last, info) == nil)

        let other = try Store(path: f.path, model: f.store.model)
        let (bank, _) = try insertBank(ObjectContext(store: other), name: "Gamma")
        let changes = try #require(try f.context.processExternalChanges())
        #expect(changes.inserted.contains(bank.objectID))
        #expect(changes.writtenRows.isEmpty)
    }

    @Test func anUndoCarriesTheValuesItRestored() throws {
        let f = try Fixture(model: Self.uniqueDetailsModel())
        let (info, details) = try insertBank(f.context, name: "Alpha", closeDate: "2011-07-29")
        details["closeDate"] = .text("2015-01-02")
        try f.context.save()
        let undone = try #require(try f.context.undo())
        #expect(Self.known(undone.changes, info)?.first == .some(.text("2011-07-29")))
    }

    @Test func equalityIgnoresTheWrittenRows() throws {
        let f = try Fixture(model: Self.uniqueDetailsModel())
        let (info, _) = try insertBank(f.context, name: "Alpha")
        info["city"] = .text("Shelbyville")
        try f.context.save()
        let saved = try #require(f.recorder.last)
        #expect(!saved.writtenRows.isEmpty)
        #expect(saved.updated[info.objectID] == ["city"])
        #expect(saved == ChangeSet(inserted: saved.inserted, updated: saved.updated, deleted: saved.deleted))
    }
}
