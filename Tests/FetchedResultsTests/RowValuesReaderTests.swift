import Foundation
import SQLiteStore
import Testing

@testable import FetchedResults

/// ``RowValuesReader/finish(_:handingRowsTo:)``: the caller gets the rows chunk by
/// chunk as the two connections read them (a large change set turns them into
/// members meanwhile), and every row arrives exactly once.
@Suite struct RowValuesReaderTests {
    static func plan(_ t: TempStore) throws -> FetchPlan {
        try FetchPlan(
            request: BackgroundPreparationTests.byDate(),
            model: t.store.model,
            sectionNameKeyPath: "details.closeYear"
        )
    }

    static func allIDs(_ t: TempStore) throws -> [Int64] {
        try t.store.database.query("SELECT id FROM failed_bank_info ORDER BY id").map { $0[0].int64! }
    }

    static func byID(_ rows: [(id: Int64, values: [StoreValue])]) -> [Int64: [StoreValue]] {
        Dictionary(rows.map { ($0.id, $0.values) }, uniquingKeysWith: { a, _ in a })
    }

    @Test func aSplitReadHandsOverEveryRowOnceInChunks() throws {
        let t = try BackgroundPreparationTests.filledStore()
        let plan = try Self.plan(t)
        let ids = try Self.allIDs(t)
        var single = RowValuesReader(store: t.store, plan: plan, splits: false)
        let expected = Self.byID(try single.read(ids))
        #expect(expected.count == ids.count)

        var reader = RowValuesReader(store: t.store, plan: plan)
        let pending = reader.begin(ids)
        var handed: [[(id: Int64, values: [StoreValue])]] = []
        try reader.finish(pending) { handed.append($0) }
        let all = handed.flatMap { $0 }
        #expect(handed.count > 1)
        #expect(handed.allSatisfy { $0.count <= RowValuesReader.chunkSize(of: ids.count) })
        #expect(all.count == ids.count)
        #expect(Set(all.map(\.id)).count == ids.count)
        #expect(Self.byID(all) == expected)
        // The lease went back: the second connection can be had again.
        let lease = try #require(t.store.acquireReaderConnection())
        lease.release()
    }

    @Test func withoutASecondConnectionTheCallerGetsEveryRow() throws {
        let t = try BackgroundPreparationTests.filledStore()
        let plan = try Self.plan(t)
        let ids = try Self.allIDs(t)
        var reader = RowValuesReader(store: t.store, plan: plan, splits: false)
        let pending = reader.begin(ids)
        var calls = 0
        var own: [(id: Int64, values: [StoreValue])] = []
        try reader.finish(pending) {
            own = $0
            calls += 1
        }
        #expect(!reader.wasSplit)
        #expect(calls == 1)
        #expect(Set(own.map(\.id)) == Set(ids))
    }

    @Test(arguments: [false, true])
    func knownValuesAreTakenAsGivenAndOnlyTheOthersRead(splits: Bool) throws {
        let t = try BackgroundPreparationTests.filledStore()
        let plan = try Self.plan(t)
        let ids = try Self.allIDs(t)
        var full = RowValuesReader(store: t.store, plan: plan, splits: false)
        let stored = Self.byID(try full.read(ids))
        let date = try #require(plan.valueIndex["details.closeDate"])
        let name = try #require(plan.valueIndex["name"])
        let computed = plan.sectionValueFromSortValue
        // Values unlike the file's: a row shows them only if they were not read.
        var known: [Int64: [StoreValue?]] = [:]
        var expected = stored
        for (k, id) in ids.enumerated() where k % 3 != 2 {
            var values = [StoreValue?](repeating: nil, count: plan.valueKeyPaths.count)
            values[date] = .text(k % 3 == 0 ? "1999-12-31" : "1998-01-01")
            if k % 3 == 1 {  // every value known: the row is not read at all
                values[name] = .text("Known \(k)")
                for i in values.indices where values[i] == nil && i != computed?.index { values[i] = .text("1998") }
            }
            known[id] = values
            var row = stored[id]!
            for (i, value) in values.enumerated() { if let value { row[i] = value } }
            computed?.fill(&row)
            expected[id] = row
        }
        // The caller waits for the other thread's first chunk: the read is split however the
        // threads are scheduled (on a loaded machine the caller could otherwise read it all).
        var reader = RowValuesReader(store: t.store, plan: plan, splits: splits, waitsForOtherThread: true)
        let pending = reader.begin(ids, known: known)
        var rows: [(id: Int64, values: [StoreValue])] = []
        try reader.finish(pending) { rows += $0 }
        #expect(rows.count == ids.count)
        #expect(Set(rows.map(\.id)).count == ids.count)
        #expect(Self.byID(rows) == expected)
        #expect(reader.wasSplit == splits)
    }

    struct Stop: Error {}

    @Test func anErrorFromTheCallerWaitsForTheOtherShareAndReturnsTheConnection() throws {
        let t = try BackgroundPreparationTests.filledStore()
        var reader = RowValuesReader(store: t.store, plan: try Self.plan(t))
        let pending = reader.begin(try Self.allIDs(t))
        #expect(throws: Stop.self) { try reader.finish(pending) { _ in throw Stop() } }
        let lease = try #require(t.store.acquireReaderConnection())
        lease.release()
    }
}
