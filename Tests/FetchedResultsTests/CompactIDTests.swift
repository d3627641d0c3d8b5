import TestSupport
import Testing

@testable import FetchedResults

/// The ordered id list keeps 4 bytes per id while a chunk's ids fit in 32 bits
/// (the target: ≤ 12 bytes per row at 10 million rows), and promotes only the
/// chunks that receive an id that does not fit, without changing what any
/// position or id lookup returns.
@Suite struct CompactIDTests {

    /// Ids as SQLite may hand them out: mostly small, some past 2^32, some negative, the extremes.
    static func id(_ random: inout SeededGenerator, next: inout Int64) -> Int64 {
        switch random.below(20) {
        case 0: return Int64(UInt32.max) + 1 + Int64(random.below(1_000_000))
        case 1: return -1 - Int64(random.below(1_000_000))
        case 2: return [Int64.max, Int64.min, Int64(UInt32.max), 0][random.below(4)]
        default:
            next += 1
            return next
        }
    }

    @Test func smallIDsKeepFourBytesEachAndOneLargeIDPromotesOnlyItsChunk() {
        var builder = OrderedIDList.Builder()
        for id in 1...1000 as ClosedRange<Int64> { builder.append(id) }
        var list = builder.finish()
        var wide: [Bool] = []
        list.sequence.forEachChunk { wide.append($0.ids.isWide) }
        #expect(!wide.isEmpty && wide.allSatisfy { !$0 })

        let large = Int64(UInt32.max) + 7
        list.insert(ranked: [(large, .invalid, 500)])
        wide = []
        list.sequence.forEachChunk { wide.append($0.ids.isWide) }
        #expect(wide.filter { $0 }.count == 1, "only the chunk holding \(large) keeps 8-byte ids")
        #expect(list.position(of: large) == 500)
        #expect(list.id(at: 500) == large)
        #expect(list.position(of: 501) == 501)
        #expect(list.id(at: 1000) == 1000)
        #expect(!list.contains(Int64(UInt32.max) + 8))
        #expect(list.position(of: 8 - (1 << 32)) == nil, "an id whose low 32 bits match a stored one is not found")

        // Removing the large id again: a later split of that chunk makes narrow pieces.
        let removed = list.remove(sortedPositions: [500])
        #expect(removed.map(\.id) == [large])
        #expect(list.position(of: 500) == 499)
    }

    @Test(arguments: [11, 12, 13])
    func mixedIDsThroughInsertsRemovalsAndSplitsMatchAnArray(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var next: Int64 = 0
        var model: [Int64] = []
        var seen = Set<Int64>()
        var builder = OrderedIDList.Builder()
        while model.count < 700 {
            let id = CompactIDTests.id(&random, next: &next)
            guard seen.insert(id).inserted else { continue }
            builder.append(id)
            model.append(id)
        }
        var list = builder.finish()
        for step in 0..<150 {
            var positions = Set<Int>()
            for _ in 0..<random.below(min(model.count, 60) + 1) { positions.insert(random.below(model.count)) }
            let sorted = positions.sorted()
            #expect(
                list.remove(sortedPositions: sorted).map(\.id) == sorted.map { model[$0] },
                "seed \(seed) step \(step)"
            )
            for p in sorted.reversed() { seen.remove(model.remove(at: p)) }

            var rows: [(id: Int64, key: SortPrefix, rank: Int)] = []
            let crowded = random.below(model.count + 1)
            for _ in 0..<random.below(random.below(4) == 0 ? 300 : 60) {
                let id = CompactIDTests.id(&random, next: &next)
                guard seen.insert(id).inserted else { continue }
                rows.append((id, .invalid, random.below(2) == 0 ? crowded : random.below(model.count + 1)))
            }
            rows.sort { $0.rank < $1.rank }
            list.insert(ranked: rows)
            var merged: [Int64] = []
            var r = 0
            for (rank, id) in model.enumerated() {
                while r < rows.count && rows[r].rank == rank {
                    merged.append(rows[r].id)
                    r += 1
                }
                merged.append(id)
            }
            while r < rows.count {
                merged.append(rows[r].id)
                r += 1
            }
            model = merged

            #expect(list.count == model.count, "seed \(seed) step \(step)")
            var listed: [Int64] = []
            list.sequence.forEachID { listed.append($0) }
            #expect(listed == model, "seed \(seed) step \(step): ids in order")
            #expect(list.sequence.ids(in: 0..<model.count) == model, "seed \(seed) step \(step): ids(in:)")
            for (position, id) in model.enumerated() where position % 5 == step % 5 {
                guard list.position(of: id) == position, list.id(at: position) == id else {
                    Issue.record(
                        "seed \(seed) step \(step): id \(id) expected at \(position), list says \(String(describing: list.position(of: id)))"
                    )
                    return
                }
            }
        }
    }

    @Test func chunkIDsWidenOnlyWhenAnIDDoesNotFitAndNarrowAgainWhenCopied() {
        var ids = ChunkIDs()
        for id in [0, 1, Int64(UInt32.max)] { ids.append(id) }
        #expect(!ids.isWide)
        ids.append(-1)
        #expect(ids.isWide)
        #expect(Array(ids) == [0, 1, Int64(UInt32.max), -1])
        #expect(ids.offset(of: -1) == 3)
        #expect(ids.offset(of: Int64(UInt32.max)) == 2)
        let copy = ChunkIDs(ids, 0..<3)
        #expect(!copy.isWide)
        #expect(Array(copy) == [0, 1, Int64(UInt32.max)])
        #expect(copy.offset(of: -1) == nil)
        #expect(copy.offset(of: Int64(UInt32.max) + 1) == nil)
        #expect(copy.withInt64Buffer { Array($0) } == [0, 1, Int64(UInt32.max)])
    }

    /// A fetch fills the row-id map a chunk at a time through one pointer (`RowIDMap.insert(newIDs:slot:)`):
    /// ids inside the dense range and ids beyond it (kept in the sparse part) are all found at their
    /// positions, in a list of dense ids alone, one with a few far-off ids, and one too spread out to be dense.
    @Test(arguments: [0, 3, 5_000])
    func aBuiltListFindsEveryIDWhetherItsMapEntryIsDenseOrSparse(farOff: Int) {
        var random = SeededGenerator(seed: 2024)
        var ids: [Int64] = Array(1...3_000)
        for k in 0..<farOff { ids.append(Int64(UInt32.max) * 4 + Int64(k) * 1_000_003) }
        ids.append(contentsOf: farOff > 0 ? [-42, Int64.min, Int64.max] : [])
        for i in stride(from: ids.count - 1, to: 0, by: -1) { ids.swapAt(i, random.below(i + 1)) }
        var builder = OrderedIDList.Builder()
        for id in ids { builder.append(id) }
        let list = builder.finish()
        #expect(list.count == ids.count)
        let misplaced = ids.indices.filter { list.position(of: ids[$0]) != $0 }
        #expect(misplaced.isEmpty, "ids not found at their positions: \(misplaced.prefix(5).map { ids[$0] })")
        #expect(!list.contains(0) && !list.contains(3_001) && !list.contains(Int64(UInt32.max) * 4 - 1))
    }
}
