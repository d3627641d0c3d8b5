import Foundation
import Testing

@testable import SQLiteStore

@Suite("Object context")
struct ObjectContextTests {
    @Test func insertGetsAPermanentIDAtSaveAndTheChangeSetCarriesIt() throws {
        let f = try Fixture()
        let info = f.context.insert(into: "FailedBankInfo")
        #expect(info.objectID.isTemporary)
        #expect(info.isInserted && f.context.hasChanges)
        info["name"] = "First–Citizens"
        info["city"] = "Raleigh"
        info["state"] = "NC"
        try f.context.save()
        #expect(!info.objectID.isTemporary)
        #expect(!info.isInserted && !info.hasChanges && !f.context.hasChanges)
        #expect(f.recorder.changes == [ChangeSet(inserted: [info.objectID])])
        #expect(
            try f.store.database.scalar(
                "SELECT name FROM failed_bank_info WHERE id = ?",
                [.integer(info.objectID.rowID)]
            ) == "First–Citizens"
        )
        #expect(try f.context.object(with: info.objectID) === info)
    }

    @Test func newObjectsLinkedToEachOtherAreSavedTogether() throws {
        let f = try Fixture()
        let (info, details) = try insertBank(f.context, name: "Bank")
        #expect(
            try f.store.database.scalar(
                "SELECT info_id FROM failed_bank_details WHERE id = ?",
                [.integer(details.objectID.rowID)]
            )
                == .integer(info.objectID.rowID)
        )
        #expect(f.recorder.last == ChangeSet(inserted: [info.objectID, details.objectID]))
        #expect(info.related("details") === details)
        #expect(details["info"] == .integer(info.objectID.rowID))
    }

    @Test func identityMapGivesOneObjectPerRow() throws {
        let f = try Fixture()
        let (info, _) = try insertBank(f.context, name: "Bank")
        let fetched = try f.context.fetch("FailedBankInfo", where: "name = ?", ["Bank"])
        #expect(fetched.count == 1 && fetched[0] === info)
        let other = ObjectContext(store: f.store)
        let elsewhere = try other.object(with: info.objectID)
        #expect(elsewhere !== info && elsewhere?.string("name") == "Bank")
        #expect(try other.object(with: info.objectID) === elsewhere)
    }

    @Test func attributeChangesArePublishedWithTheirKeys() throws {
        let f = try Fixture()
        let (info, _) = try insertBank(f.context, name: "Bank")
        info["city"] = "Chicago"
        info["state"] = "IL"  // unchanged value: not a change
        #expect(info.changedKeys == ["city"])
        try f.context.save()
        #expect(f.recorder.last?.updated[info.objectID] == ["city"])
        #expect(f.recorder.last?.inserted.isEmpty == true)
    }

    @Test func changeOfARelatedObjectIsAnUpdateOfTheObjectThatReachesIt() throws {
        let f = try Fixture()
        let (info, details) = try insertBank(f.context, name: "Bank")
        details["closeDate"] = "2012-01-13"
        try f.context.save()
        let changes = try #require(f.recorder.last)
        #expect(changes.updated[details.objectID] == ["closeDate", "closeYear"])
        #expect(changes.updated[info.objectID] == ["details.closeDate", "details.closeYear"])
        #expect(info.value(forKeyPath: "details.closeDate") == "2012-01-13")
    }

    @Test func relatedObjectChangeReachesAnUnloadedReferencingObjectToo() throws {
        let f = try Fixture()
        let (info, details) = try insertBank(f.context, name: "Bank")
        let other = ObjectContext(store: f.store)
        let recorder = ChangeRecorder(other)
        let d = try #require(try other.object(with: details.objectID))
        d["zip"] = .integer(60601)
        try other.save()
        #expect(recorder.last?.updated[info.objectID] == ["details.zip", "details.closeYear"])
    }

    @Test func keyPathsReadThroughToOneRelationshipsAndGiveNullForAMissingLink() throws {
        let f = try Fixture()
        let (info, details) = try insertBank(f.context, name: "Bank", closeDate: "2010-03-05")
        #expect(info.value(forKeyPath: "details.closeDate") == "2010-03-05")
        #expect(info.value(forKeyPath: "details.closeYear") == "2010")
        #expect(details.value(forKeyPath: "info.name") == "Bank")
        #expect(info.date("details.closeDate") == StoreDate.date(from: "2010-03-05"))
        #expect(details["closeYear"] == "2010")
        #expect(details.bool("insured") == true)
        let lonely = f.context.insert(into: "FailedBankInfo")
        #expect(lonely.value(forKeyPath: "details.closeDate") == .null)

        // Through a fresh context: the inverse side is looked up in the store.
        let other = ObjectContext(store: f.store)
        let again = try #require(try other.object(with: info.objectID))
        #expect(again.value(forKeyPath: "details.closeDate") == "2010-03-05")
    }

    @Test func deletingAnInfoCascadesToItsDetails() throws {
        let f = try Fixture()
        let (info, details) = try insertBank(f.context, name: "Bank")
        try insertBank(f.context, name: "Other")
        let infoID = info.objectID
        let detailsID = details.objectID
        // Through a fresh context, so the cascade must find the details in the store.
        let other = ObjectContext(store: f.store)
        let recorder = ChangeRecorder(other)
        other.delete(try #require(try other.object(with: infoID)))
        try other.save()
        #expect(recorder.last == ChangeSet(deleted: [infoID, detailsID]))
        #expect(try f.count("failed_bank_info") == 1)
        #expect(try f.count("failed_bank_details") == 1)
    }

    @Test func deletingDetailsNullifiesTheInfosLink() throws {
        let f = try Fixture()
        let (info, details) = try insertBank(f.context, name: "Bank")
        f.context.delete(details)
        try f.context.save()
        #expect(f.recorder.last == ChangeSet(updated: [info.objectID: ["details"]], deleted: [details.objectID]))
        #expect(info.related("details") == nil)
        #expect(try f.count("failed_bank_info") == 1)
        #expect(details.isDeleted)
        #expect(try f.context.object(with: details.objectID) == nil)
    }

    @Test func movingDetailsToAnotherInfoUnlinksTheOldOne() throws {
        let f = try Fixture()
        let (a, details) = try insertBank(f.context, name: "A")
        let b = f.context.insert(into: "FailedBankInfo")
        b["name"] = "B"
        b["city"] = "C"
        b["state"] = "D"
        try f.context.save()
        details.setRelated(b, for: "info")
        #expect(a.related("details") == nil)
        #expect(b.related("details") === details)
        try f.context.save()
        let changes = try #require(f.recorder.last)
        #expect(changes.updated[details.objectID] == ["info"])
        #expect(changes.updated[a.objectID] == ["details"])
        #expect(changes.updated[b.objectID]?.contains("details") == true)
        #expect(try f.store.database.scalar("SELECT info_id FROM failed_bank_details") == .integer(b.objectID.rowID))
    }

    @Test func rollbackRestoresSavedValuesAndDropsUnsavedInserts() throws {
        let f = try Fixture()
        let (info, details) = try insertBank(f.context, name: "Bank")
        info["name"] = "Changed"
        f.context.delete(details)
        let extra = f.context.insert(into: "FailedBankInfo")
        #expect(f.context.hasChanges)
        f.context.rollback()
        #expect(!f.context.hasChanges)
        #expect(info["name"] == "Bank")
        #expect(!details.isDeleted)
        #expect(extra.isDeleted && !extra.isInserted)
        try f.context.save()
        #expect(f.recorder.changes.count == 1)
    }

    @Test func undoOfADeleteRestoresTheSameRowIDsWithCascadedChildrenAndRedoDeletesAgain() throws {
        let f = try Fixture()
        let (info, details) = try insertBank(f.context, name: "Bank", closeDate: "2009-05-01")
        let infoID = info.objectID
        let detailsID = details.objectID
        f.context.delete(info)
        try f.context.save()
        #expect(try f.count("failed_bank_details") == 0)
        #expect(f.context.canUndo)

        try f.context.undo()
        #expect(f.recorder.last == ChangeSet(inserted: [infoID, detailsID]))
        #expect(
            try f.store.database.query("SELECT id, name FROM failed_bank_info") == [[.integer(infoID.rowID), "Bank"]]
        )
        #expect(
            try f.store.database.query("SELECT id, close_date, info_id FROM failed_bank_details")
                == [[.integer(detailsID.rowID), "2009-05-01", .integer(infoID.rowID)]]
        )
        let restored = try #require(try f.context.object(with: infoID))
        #expect(restored.value(forKeyPath: "details.closeDate") == "2009-05-01")
        #expect(f.context.canRedo)

        try f.context.redo()
        #expect(f.recorder.last == ChangeSet(deleted: [infoID, detailsID]))
        #expect(try f.count("failed_bank_info") == 0)
        #expect(restored.isDeleted)
    }

    @Test func undoAndRedoOfAnUpdatePublishTheKeys() throws {
        let f = try Fixture()
        let (info, details) = try insertBank(f.context, name: "Bank")
        details["closeDate"] = "2001-02-03"
        try f.context.save()
        try f.context.undo()
        #expect(details["closeDate"] == "2011-07-29")
        #expect(f.recorder.last?.updated[details.objectID] == ["closeDate", "closeYear"])
        #expect(f.recorder.last?.updated[info.objectID] == ["details.closeDate", "details.closeYear"])
        try f.context.redo()
        #expect(details["closeDate"] == "2001-02-03")
        try f.context.undo()
        try f.context.undo()  // undoes the insert
        #expect(f.recorder.last == ChangeSet(deleted: [info.objectID, details.objectID]))
        #expect(try f.count("failed_bank_info") == 0)
        #expect(!f.context.canUndo)
    }

    @Test func aNewSaveClearsRedo() throws {
        let f = try Fixture()
        let (info, _) = try insertBank(f.context, name: "Bank")
        info["city"] = "X"
        try f.context.save()
        try f.context.undo()
        #expect(f.context.canRedo)
        info["city"] = "Y"
        try f.context.save()
        #expect(!f.context.canRedo)
    }

    @Test func requiredAttributesAreCheckedAtSave() throws {
        let f = try Fixture()
        let info = f.context.insert(into: "FailedBankInfo")
        info["name"] = "No city"
        let error = #expect(throws: StoreError.self) { try f.context.save() }
        #expect(error == .validation(entity: "FailedBankInfo", key: "city", reason: "is required"))
        #expect(try f.count("failed_bank_info") == 0)
        info["city"] = "C"
        info["state"] = "S"
        try f.context.save()
        #expect(try f.count("failed_bank_info") == 1)
    }

    @Test func unknownKeysAndEntitiesFailTheNextSave() throws {
        let f = try Fixture()
        let (info, _) = try insertBank(f.context, name: "Bank")
        info["nope"] = "x"
        #expect(throws: StoreError.unknownKeyPath("nope", entity: "FailedBankInfo")) { try f.context.save() }
        _ = f.context.insert(into: "Nope")
        #expect(throws: StoreError.unknownEntity("Nope")) { try f.context.save() }
    }

    @Test func objectsWithIDsKeepsTheOrderAndSkipsMissingRows() throws {
        let f = try Fixture()
        var ids: [ObjectID] = []
        for i in 0..<1200 {
            let info = f.context.insert(into: "FailedBankInfo")
            info["name"] = .text("Bank \(i)")
            info["city"] = "C"
            info["state"] = "S"
        }
        try f.context.save()
        ids = try f.store.database.query("SELECT id FROM failed_bank_info ORDER BY id DESC").map {
            ObjectID(entity: "FailedBankInfo", rowID: $0[0].int64!)
        }
        let other = ObjectContext(store: f.store)
        let missing = ObjectID(entity: "FailedBankInfo", rowID: 999_999)
        let objects = try other.objects(with: [missing] + ids)
        #expect(objects.map(\.objectID) == ids)
        #expect(objects.first?.string("name") == "Bank 1199")
    }

    @Test func fetchFiltersOrdersAndLimitsInSQL() throws {
        let f = try Fixture()
        for (name, state) in [("b", "IL"), ("A", "IL"), ("c", "NC")] {
            try insertBank(f.context, name: name, state: state, save: false)
        }
        try f.context.save()
        let il = try f.context.fetch("FailedBankInfo", where: "state = ?", ["IL"], orderBy: "name COLLATE NOCASE")
        #expect(il.map { $0.string("name") } == ["A", "b"])
        #expect(try f.context.fetch("FailedBankInfo", orderBy: "name", limit: 1).map { $0.string("name") } == ["A"])
        #expect(throws: StoreError.unknownEntity("Nope")) { try f.context.fetch("Nope") }
    }

    @Test func datesAndBoolsAreStoredAsReadableText() throws {
        let f = try Fixture()
        let (_, details) = try insertBank(f.context, name: "Bank", save: false)
        details["closeDate"] = .date(Date(timeIntervalSince1970: 1_311_897_600))
        details["insured"] = .bool(false)
        try f.context.save()
        #expect(
            try f.store.database.query("SELECT close_date, insured FROM failed_bank_details") == [
                ["2011-07-29", .integer(0)]
            ]
        )
    }

    @Test func observersCanBeRemoved() throws {
        let f = try Fixture()
        var count = 0
        let token = f.context.addObserver { _ in count += 1 }
        try insertBank(f.context, name: "A")
        f.context.removeObserver(token)
        try insertBank(f.context, name: "B")
        #expect(count == 1)
    }

    @Test func savingWithoutChangesPublishesNothing() throws {
        let f = try Fixture()
        try f.context.save()
        #expect(f.recorder.changes.isEmpty)
    }
}

@Suite("Object context: saving new object graphs")
struct NewObjectGraphTests {
    @Test func aSaveOfNewLinkedObjectsWritesEachRowOnce() throws {
        let f = try Fixture()
        let start = try f.store.historyPosition()
        try insertBank(f.context, name: "A")
        let ops = try f.store.database.query(
            "SELECT entity, op FROM store_history WHERE seq > ? ORDER BY seq",
            [.integer(start)]
        )
        #expect(ops == [["FailedBankInfo", "I"], ["FailedBankDetails", "I"], ["FailedBankInfo", "U"]])
    }

    @Test func detailsInsertedBeforeTheirInfoStillGetTheRightForeignKey() throws {
        let f = try Fixture()
        let details = f.context.insert(into: "FailedBankDetails")
        details["closeDate"] = "2011-01-01"
        let info = f.context.insert(into: "FailedBankInfo")
        info["name"] = "N"
        info["city"] = "C"
        info["state"] = "S"
        info.setRelated(details, for: "details")
        try f.context.save()
        #expect(try f.store.database.scalar("SELECT info_id FROM failed_bank_details") == .integer(info.objectID.rowID))
        #expect(details.related("info") === info)
    }
}
