import Foundation
import SQLiteStore
import TestSupport
import Testing

@testable import FetchedResults

/// The grouped controller's rules, one by one: order, batches, what a change set costs,
/// resets, and the work it does in the background.
@Suite("Grouped controller")
struct GroupedControllerTests {
    static func request(_ predicate: String? = nil) throws -> FetchRequest {
        FetchRequest(entity: "FailedBankInfo", predicate: try predicate.map { try FetchPredicate($0) })
    }

    static func states(_ controller: GroupedResultsController) -> [String] {
        controller.groups.map { "\($0.value.string ?? "∅")=\($0.count)" }
    }

    @Test func groupsAreOrderedByCountThenValueAndNullIsAGroup() throws {
        let t = try TempStore()
        for (name, state) in [("a", "TX"), ("b", "CA"), ("c", "TX"), ("e", "CA"), ("f", "TX")] {
            try t.addBank(name, state: state)
        }
        let grouped = GroupedResultsController(
            fetchRequest: try Self.request(),
            context: t.context,
            groupKeyPath: "state"
        )
        try grouped.performFetch()
        #expect(Self.states(grouped) == ["TX=3", "CA=2"])
        #expect(grouped.totalCount == 5)
        #expect(grouped.index(ofGroupValue: .text("CA")) == 1)
        #expect(grouped.index(ofGroupValue: .text("WY")) == nil)
        // A NULL fund, and a bank without details (its fund NULL too, as a LEFT JOIN reads it): one group.
        try t.addBank("g", fund: 7)
        try t.addBank("h", closeDate: nil)
        let funds = GroupedResultsController(
            fetchRequest: try Self.request(),
            context: t.context,
            groupKeyPath: "details.fund"
        )
        try funds.performFetch()
        #expect(funds.groups == [GroupInfo(value: .null, count: 6), GroupInfo(value: .integer(7), count: 1)])
        #expect(funds.index(ofGroupValue: .null) == 0)
        #expect(funds.index(ofGroupValue: .real(7)) == 1, "1 and 1.0 are one group, as in SQL")
    }

    @Test func aGroupThatGainsRowsMovesUpAndOneThatLosesItsLastRowIsDeleted() throws {
        let t = try TempStore()
        for (name, state) in [("a", "TX"), ("b", "TX"), ("c", "CA"), ("d", "NY")] { try t.addBank(name, state: state) }
        let grouped = GroupedResultsController(
            fetchRequest: try Self.request(),
            context: t.context,
            groupKeyPath: "state"
        )
        try grouped.performFetch()
        var batches: [GroupChangeBatch] = []
        grouped.onChange = { batches.append($0) }
        #expect(Self.states(grouped) == ["TX=2", "CA=1", "NY=1"])

        try t.addBank("e", state: "NY")
        #expect(Self.states(grouped) == ["NY=2", "TX=2", "CA=1"])
        #expect(
            batches.last?.changes == [.init(change: .move, value: .text("NY"), from: 2, to: 0)],
            "NY passed CA and TX (as many rows, a lower value): a move"
        )
        try t.addBank("f", state: "NY")
        #expect(Self.states(grouped) == ["NY=3", "TX=2", "CA=1"])
        #expect(batches.last?.changes == [.init(change: .update, value: .text("NY"), from: 0, to: 0)])
        let ca = try #require(try t.context.fetch("FailedBankInfo").first { $0.string("state") == "CA" })
        ca["state"] = .text("WY")
        try t.context.save()
        #expect(Self.states(grouped) == ["NY=3", "TX=2", "WY=1"])
        #expect(
            Set(batches.last?.changes ?? [])
                == [
                    .init(change: .delete, value: .text("CA"), from: 2, to: nil),
                    .init(change: .insert, value: .text("WY"), from: nil, to: 2),
                ]
        )
        try t.addBank("g", state: "TX")
        #expect(Self.states(grouped) == ["NY=3", "TX=3", "WY=1"])
        #expect(
            batches.last?.changes == [.init(change: .update, value: .text("TX"), from: 1, to: 1)],
            "TX's count changed, its place did not: an update"
        )
        #expect(batches.last?.totalCount == 7 && batches.last?.numberOfGroups == 3)
        #expect(grouped.statistics.refetches == 0 && grouped.statistics.membershipBuilds == 1)
    }

    @Test func aChangeOfAKeyThatNeitherGroupsNorFiltersDeliversNothing() throws {
        let t = try TempStore()
        let bank = try t.addBank("a", state: "TX")
        let grouped = GroupedResultsController(
            fetchRequest: try Self.request(),
            context: t.context,
            groupKeyPath: "state"
        )
        try grouped.performFetch()
        var batches: [GroupChangeBatch] = []
        grouped.onChange = { batches.append($0) }
        bank["city"] = .text("Austin")
        try t.context.save()
        #expect(batches.isEmpty)
        #expect(grouped.statistics.incrementalBatches == 0 && grouped.statistics.membershipBuilds == 0)
    }

    @Test func thePredicateSaysWhichRowsAreCounted() throws {
        let t = try TempStore()
        let a = try t.addBank("a", state: "TX", fund: 10)
        try t.addBank("b", state: "TX", fund: 90)
        let grouped = GroupedResultsController(
            fetchRequest: try Self.request("details.fund < 50"),
            context: t.context,
            groupKeyPath: "state"
        )
        try grouped.performFetch()
        grouped.onChange = { _ in }
        #expect(Self.states(grouped) == ["TX=1"])
        a.related("details")?["fund"] = .integer(70)
        try t.context.save()
        #expect(grouped.numberOfGroups == 0 && grouped.totalCount == 0)
    }

    @Test func aResetCountsAgainAndDiffs() throws {
        let t = try TempStore()
        for (name, state) in [("a", "TX"), ("b", "CA")] { try t.addBank(name, state: state) }
        let grouped = GroupedResultsController(
            fetchRequest: try Self.request(),
            context: t.context,
            groupKeyPath: "state"
        )
        try grouped.performFetch()
        var batches: [GroupChangeBatch] = []
        grouped.onChange = { batches.append($0) }
        try t.store.database.run("UPDATE failed_bank_info SET state = 'CA'")
        try grouped.process(ChangeSet(isReset: true))
        #expect(Self.states(grouped) == ["CA=2"])
        #expect(batches.count == 1 && batches[0].isReset)
        #expect(grouped.statistics.refetches == 1)
    }

    @Test func aGroupedControllerStopsObservingWhenOnChangeIsNil() throws {
        let t = try TempStore()
        try t.addBank("a", state: "TX")
        let grouped = GroupedResultsController(
            fetchRequest: try Self.request(),
            context: t.context,
            groupKeyPath: "state"
        )
        try grouped.performFetch()
        grouped.onChange = { _ in }
        grouped.onChange = nil
        try t.addBank("b", state: "TX")
        #expect(Self.states(grouped) == ["TX=1"], "untracked: no change applied")
        // Tracking again after the store moved: the next change set counts again.
        grouped.onChange = { _ in }
        try t.addBank("c", state: "TX")
        #expect(Self.states(grouped) == ["TX=3"])
        #expect(grouped.statistics.refetches == 1)
    }

    @Test func theFirstCountAndTheRowsGroupsRunInTheBackground() throws {
        let t = try TempStore()
        for i in 0..<50 { try t.addBank("bank \(i)", state: ["TX", "CA", "NY"][i % 3], save: false) }
        try t.context.save()
        let grouped = GroupedResultsController(
            fetchRequest: try Self.request(),
            context: t.context,
            groupKeyPath: "state"
        )
        #expect(grouped.startInBackground(.fetch) == .started)
        #expect(try grouped.waitForBackgroundWork() == .fetch)
        #expect(Self.states(grouped) == ["CA=17", "TX=17", "NY=16"])
        grouped.onChange = { _ in }
        #expect(grouped.startInBackground(.prepareForChanges) == .started)
        #expect(try grouped.waitForBackgroundWork() == .prepareForChanges)
        #expect(grouped.membership != nil)
        try t.addBank("more", state: "NY")
        #expect(Self.states(grouped) == ["CA=17", "NY=17", "TX=17"])
        #expect(grouped.statistics.membershipBuilds == 1 && grouped.statistics.refetches == 0)
    }

    @Test func backgroundWorkWakesItsOwnerWhenItEndsAndARefetchThatFindsTheConnectionBusyWakesItAgain() throws {
        let t = try TempStore()
        for i in 0..<30 { try t.addBank("bank \(i)", state: ["TX", "CA"][i % 2], save: false) }
        try t.context.save()
        let grouped = GroupedResultsController(
            fetchRequest: try Self.request(),
            context: t.context,
            groupKeyPath: "state"
        )
        let woken = DispatchSemaphore(value: 0)
        grouped.onBackgroundWorkFinished = { woken.signal() }
        #expect(grouped.startInBackground(.fetch) == .started)
        #expect(woken.wait(timeout: .now() + 20) == .success, "the fetch's end wakes the owner")
        #expect(try grouped.pollBackgroundWork() == .fetch)
        #expect(Self.states(grouped) == ["CA=15", "TX=15"])
        // Another job holds the second connection: the refetch waits, and the owner is woken to try again.
        let lease = try #require(t.context.store.acquireReaderConnection())
        #expect(grouped.startBackgroundRefetch(isReset: true) == .busy)
        #expect(woken.wait(timeout: .now() + 20) == .success, "woken a tenth of a second later")
        lease.release()
        #expect(try grouped.pollBackgroundWork() == nil, "the poll the wake posts starts the refetch")
        #expect(grouped.backgroundWork == [.refetch])
        #expect(woken.wait(timeout: .now() + 20) == .success, "the refetch's end wakes the owner")
        #expect(try grouped.pollBackgroundWork() == .refetch)
        #expect(grouped.backgroundWork.isEmpty)
    }

    @Test func aResetOfAForeignFileCountsAgainInTheBackground() throws {
        let folder = TemporaryDirectory("grouped-foreign")
        let path = folder.path("plain.sqlite")
        var options = Database.Options()
        options.walMode = false
        let writer = try Database(path: path, options: options)
        try writer.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, color TEXT)")
        try writer.execute("INSERT INTO t(color) VALUES ('red'), ('red'), ('blue')")
        let entity = Entity(
            "t",
            tableName: "t",
            idColumn: "id",
            attributes: [Attribute("color", .text, column: "color")]
        )
        let store = try Store(
            foreignDatabaseAt: path,
            model: Model(version: 1, applicationID: 0, entities: [entity]),
            readOnly: true
        )
        let context = ObjectContext(store: store)
        let grouped = GroupedResultsController(
            fetchRequest: FetchRequest(entity: "t"),
            context: context,
            groupKeyPath: "color"
        )
        grouped.refetchesInBackgroundOnReset = true
        try grouped.performFetch()
        var batches: [GroupChangeBatch] = []
        grouped.onChange = { batches.append($0) }
        try writer.execute("INSERT INTO t(color) VALUES ('blue'), ('blue')")
        _ = try context.processExternalChanges()
        #expect(batches.isEmpty, "counted on the second connection: nothing yet")
        #expect(try grouped.waitForBackgroundWork() == .refetch)
        #expect(grouped.groups.map(\.count) == [3, 2] && grouped.group(at: 0).value == .text("blue"))
        #expect(batches.count == 1 && batches[0].isReset)
        #expect(batches[0].changes == [.init(change: .move, value: .text("blue"), from: 1, to: 0)])
    }
}
