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
