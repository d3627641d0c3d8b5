import FetchedResults
import FetchedResultsUI
import Foundation
import SQLiteStore
import TerminalUI
import Testing

/// Seven failed banks (name, city, state, closing date), newest first, over four years.
let sampleBanks: [(String, String, String, String)] = [
    ("Pulaski Savings Bank", "Chicago", "IL", "2025-01-17"),
    ("The First National Bank of Lindsay", "Lindsay", "OK", "2023-10-18"),
    ("First Bank of Ohio", "Canton", "OH", "2023-09-13"),
    ("Republic First Bank", "Philadelphia", "PA", "2023-04-26"),
    ("Citizens Bank", "Sac City", "IA", "2021-11-03"),
    ("Heartland Tri-State Bank", "Elkhart", "KS", "2021-07-28"),
    ("First Republic Bank", "San Francisco", "CA", "2021-05-01"),
]

/// Golden frames of the adapter over a real controller on a temporary store:
/// what a person sees while a change animates.
@Suite struct FetchedResultsTableAdapterTests {
    @Test func deleteAnimatesTheRowOutAndTheSectionCountDrops() throws {
        let f = try BankFixture(banks: sampleBanks)
        let before = f.render(at: 0)
        f.table.selectRow(at: IndexPath(row: 1, section: 1))
        _ = f.render(at: 0)

        f.context.delete(try f.bank(named: "First Bank of Ohio"))
        try f.context.save()

        #expect(f.logged.isEmpty)
        #expect(f.adapter.batchCount == 1)
        let frames = f.frames(from: 1)
        let (ok, message) = matchesGolden("── before ──\n" + before + "\n" + frames, "delete")
        #expect(ok, Comment(rawValue: message))
        // The selected (deleted) bank's successor is selected.
        #expect(f.adapter.selectedObject?.string("name") == "Republic First Bank")
    }

    @Test func insertIntoANewYearCreatesTheSectionAndTheIndexTitle() throws {
        let f = try BankFixture(banks: sampleBanks, height: 18)
        _ = f.render(at: 0)
        #expect(f.adapter.sectionIndexTitles() == ["2025", "2023", "2021"])

        // A bank of 2024: a new section between 2025 and 2023, opening a gap on screen.
        try BankFixture.insert(
            ("Santa Anna National Bank", "Santa Anna", "TX", "2024-06-27"),
            cert: 99,
            into: f.context
        )
        try f.context.save()

        #expect(f.logged.isEmpty)
        #expect(f.adapter.sectionIndexTitles() == ["2025", "2024", "2023", "2021"])
        let (ok, message) = matchesGolden(f.frames(from: 1), "insert-new-year")
        #expect(ok, Comment(rawValue: message))
        // The selection stayed on the bank it was on.
        #expect(f.adapter.selectedObject?.string("name") == "Pulaski Savings Bank")
    }

    @Test func closingDateChangeMovesTheBankToAnotherYear() throws {
        let f = try BankFixture(banks: sampleBanks, height: 18)
        _ = f.render(at: 0)
        let bank = try f.bank(named: "Pulaski Savings Bank")
        f.adapter.select(bank.objectID)
        _ = f.render(at: 0)

        // 2025 → 2023: the 2025 section empties (deleted) and the bank travels into 2023.
        bank.related("details")!["closeDate"] = .text("2023-08-01")
        try f.context.save()

        #expect(f.logged.isEmpty)
        #expect(f.adapter.sectionIndexTitles() == ["2023", "2021"])
        let (ok, message) = matchesGolden(f.frames(from: 1), "move-between-years")
        #expect(ok, Comment(rawValue: message))
        #expect(f.adapter.selectedObjectID == bank.objectID, "the selection follows the moved bank")
    }

    @Test func swappingTheControllerKeepsTheSelectionOnTheSameObject() throws {
        let f = try BankFixture(banks: sampleBanks)
        _ = f.render(at: 0)
        let bank = try f.bank(named: "Heartland Tri-State Bank")
        f.adapter.select(bank.objectID)
        let byState = BankFixture.makeController(context: f.context, byName: true)
        try byState.performFetch()

        f.adapter.swap(to: byState)

        #expect(f.adapter.controller === byState)
        #expect(byState.delegate === f.adapter)
        #expect(f.controller.delegate == nil, "the old controller stops tracking")
        #expect(f.adapter.selectedObjectID == bank.objectID)
        #expect(f.table.selection == byState.indexPath(for: bank.objectID))
        let text = f.render(at: 0)
        #expect(text.contains("KS (1)"))
        #expect(text.contains("Heartland Tri-State Bank"))
    }

    @Test func swappingToResultsWithoutTheSelectedObjectSelectsTheFirstRowAtTheTop() throws {
        let f = try BankFixture(banks: sampleBanks, height: 8)
        _ = f.render(at: 0)
        f.adapter.select(try f.bank(named: "Citizens Bank").objectID)
        _ = f.render(at: 0)
        #expect(f.table.scrollOffset > 0)
        let filtered = BankFixture.makeController(
            context: f.context,
            byName: false,
            predicate: try FetchPredicate("state != %@", "IA")
        )
        try filtered.performFetch()
        f.adapter.swap(to: filtered)
        #expect(f.table.totalNumberOfRows == sampleBanks.count - 1)
        #expect(f.table.selection == IndexPath(row: 0, section: 0))
        #expect(f.render(at: 0).hasPrefix(" 2025 (1)"))
    }

    @Test func rowIdentityIsTheObjectIDAndFindsTheRowAgain() throws {
        let f = try BankFixture(banks: sampleBanks)
        let path = IndexPath(row: 2, section: 1)
        let identity = try #require(f.adapter.rowIdentity(at: path))
        let id = try #require(identity.base as? ObjectID)
        #expect(id == f.controller.objectID(at: path))
        #expect(f.adapter.indexPath(forRowIdentity: identity) == path)
        #expect(f.adapter.indexPath(forRowIdentity: AnyHashable("not an id")) == nil)
    }

    @Test func headersAndIndexComeFromTheControllersSections() throws {
        let f = try BankFixture(banks: sampleBanks)
        #expect(f.adapter.numberOfSections == 3)
        #expect((0..<3).map { f.adapter.titleForHeader(inSection: $0) } == ["2025 (1)", "2023 (3)", "2021 (3)"])
        #expect(f.adapter.section(forSectionIndexTitle: "2021", at: 2) == 2)
        #expect(f.adapter.selectedPosition == 1)
        f.table.selectRow(at: IndexPath(row: 0, section: 2))
        #expect(f.adapter.selectedPosition == 5)
    }

    @Test func changesFromAnotherConnectionReachTheTable() throws {
        let f = try BankFixture(banks: sampleBanks)
        _ = f.render(at: 0)
        let other = try Database(path: f.store.path)
        try other.execute(
            """
            INSERT INTO bank(name, city, state) VALUES ('Evergreen Bank', 'Seattle', 'WA');
            INSERT INTO details(close_date, cert, bank_id) VALUES ('2023-01-05', 77, last_insert_rowid());
            """
        )
        try f.context.processExternalChanges()
        #expect(f.logged.isEmpty)
        #expect(f.table.totalNumberOfRows == sampleBanks.count + 1)
        #expect(f.adapter.titleForHeader(inSection: 1) == "2023 (4)")
    }

    @Test func aBatchTheTableRefusesIsLoggedAndTheTableReloads() throws {
        let f = try BankFixture(banks: sampleBanks)
        _ = f.render(at: 0)
        // Drive the delegate by hand with a batch that does not match the results.
        f.adapter.controllerWillChangeContent(f.controller)
        f.adapter.controller(
            f.controller,
            didChange: ObjectID(entity: "Bank", rowID: 999),
            at: nil,
            for: .insert,
            newIndexPath: IndexPath(row: 0, section: 0)
        )
        f.adapter.controllerDidChangeContent(f.controller)

        #expect(f.logged.count == 1)
        #expect(f.logged.first?.contains("invalid number of rows in section 0") == true)
        #expect(f.adapter.lastError != nil)
        #expect(f.table.totalNumberOfRows == sampleBanks.count, "reloaded from the controller")
        #expect(f.render(at: 5).contains("2025 (1)"))
    }

    @Test func anUpdateInPlaceReloadsTheRowWithoutMovingIt() throws {
        let f = try BankFixture(banks: sampleBanks, height: 18)
        _ = f.render(at: 0)
        let bank = try f.bank(named: "Citizens Bank")
        let before = f.controller.indexPath(for: bank.objectID)
        bank["city"] = .text("Storm Lake")
        try f.context.save()
        #expect(f.logged.isEmpty)
        #expect(f.controller.indexPath(for: bank.objectID) == before)
        let frame = f.render(at: 10)
        #expect(frame.contains("Storm Lake, IA"))
        #expect(!frame.contains("Sac City"))
    }

    @Test func withoutAnimationTheNextFrameIsTheFinalOne() throws {
        let f = try BankFixture(banks: sampleBanks)
        f.adapter.animatesChanges = false
        _ = f.render(at: 0)
        f.context.delete(try f.bank(named: "Citizens Bank"))
        try f.context.save()
        #expect(!f.table.isAnimating(at: 1))
        #expect(!f.render(at: 1).contains("Citizens Bank"))
    }
}
