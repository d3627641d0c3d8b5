import TestSupport
import Testing

@testable import FetchedResults

/// The ordered id list behind the controller: positions, membership and
/// order must match a plain array through any mix of inserts and removals,
/// across chunk splits and the growth of its dense row-id map.
@Suite struct OrderedIDListTests {

    @Test(arguments: [1, 2, 3])
    func randomInsertsAndRemovalsKeepPositionsAndMembershipExact(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var builder = OrderedIDList.Builder()
        var model: [Int64] = []
        for id in 1...500 as ClosedRange<Int64> {
            builder.append(id)
            model.append(id)
        }
        var list = builder.finish()
        var nextID: Int64 = 501
        for step in 0..<6000 {
            if model.isEmpty || random.below(3) != 0 {
                // New ids arrive out of order, far beyond the dense range at first
                // (as a large import's rows reach a watching controller).
                let id = nextID + Int64(random.below(4000))
                nextID += 1
                guard !model.contains(id) else { continue }
                let position = random.below(model.count + 1)
                list.insert(ranked: [(id, .invalid, position)])
                model.insert(id, at: position)
            } else {
                let position = random.below(model.count)
                let removed = list.remove(sortedPositions: [position])
                #expect(removed.map(\.id) == [model.remove(at: position)], "seed \(seed) step \(step)")
            }
            if step % 500 == 0 || step == 5999 {
                #expect(list.count == model.count, "seed \(seed) step \(step)")
                for (position, id) in model.enumerated() {
                    guard list.contains(id), list.position(of: id) == position, list.id(at: position) == id else {
                        Issue.record(
                            "seed \(seed) step \(step): id \(id) expected at \(position), list says \(String(describing: list.position(of: id)))"
                        )
                        return
                    }
                }
            }
        }
    }

    @Test(arguments: [4, 5, 6])
    func batchRemovalsAndRankedInsertsMatchAnArrayWithKeysAlongside(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var builder = OrderedIDList.Builder()
        var model: [(id: Int64, key: SortPrefix)] = []
        func key(_ id: Int64) -> SortPrefix { SortPrefix(hi: 1 << 63 | UInt64(id), mid: UInt64(id) &* 31, lo: 1) }
        for id in 1...3000 as ClosedRange<Int64> {
            builder.append(id)
            model.append((id, key(id)))
        }
        var list = builder.finish()
        list.installKeys { set in for (p, row) in model.enumerated() { set(p, row.key) } }
        var nextID: Int64 = 3001
        for step in 0..<120 {
            // Remove a random set of positions: sometimes a few, sometimes a whole run (emptying chunks).
            var positions = Set<Int>()
            if !model.isEmpty {
                if random.below(5) == 0 {
                    let start = random.below(model.count)
                    let length = min(model.count - start, 1 + random.below(1500))
                    positions.formUnion(start..<(start + length))
                } else {
                    for _ in 0..<random.below(min(model.count, 200) + 1) { positions.insert(random.below(model.count)) }
                }
            }
            let sorted = positions.sorted()
            let removed = list.remove(sortedPositions: sorted)
            let expected = sorted.map { model[$0] }
            #expect(removed.map(\.id) == expected.map(\.id), "seed \(seed) step \(step): removed ids")
            #expect(removed.map(\.key) == expected.map(\.key), "seed \(seed) step \(step): removed keys")
            for p in sorted.reversed() { model.remove(at: p) }

            // Insert a batch by rank: sometimes many at one rank (a chunk that must split several times).
            var rows: [(id: Int64, key: SortPrefix, rank: Int)] = []
            let n = random.below(5) == 0 ? 1 + random.below(3000) : random.below(200)
            let crowded = random.below(model.count + 1)
            for _ in 0..<n {
                let rank = random.below(3) == 0 ? crowded : random.below(model.count + 1)
                rows.append((nextID, key(nextID), rank))
                nextID += 1
            }
            rows.sort { $0.rank < $1.rank }
            list.insert(ranked: rows)
            var merged: [(id: Int64, key: SortPrefix)] = []
            var next = 0
            for (rank, row) in model.enumerated() {
                while next < rows.count && rows[next].rank == rank {
                    merged.append((rows[next].id, rows[next].key))
                    next += 1
                }
                merged.append(row)
            }
            while next < rows.count {
                merged.append((rows[next].id, rows[next].key))
                next += 1
            }
            model = merged

            #expect(list.count == model.count, "seed \(seed) step \(step)")
            for (position, row) in model.enumerated() where position % 7 == step % 7 || position == model.count - 1 {
                guard list.position(of: row.id) == position, list.id(at: position) == row.id,
                    list.key(at: position) == row.key
                else {
                    Issue.record(
                        "seed \(seed) step \(step): id \(row.id) expected at \(position), list says \(String(describing: list.position(of: row.id)))"
                    )
                    return
                }
            }
            // Many positions at once, as one at a time (an id never in the list has none).
            let sample = model.enumerated().filter { $0.offset % 5 == step % 5 }.map(\.element.id) + [-1]
            #expect(
                list.positions(of: sample) == sample.map { list.position(of: $0) },
                "seed \(seed) step \(step): positions(of:)"
            )
            // The chunk-level search reads each chunk's last prefix: kept up to date.
            var lastKeys: [SortPrefix] = []
            list.sequence.forEachChunk { lastKeys.append($0.keys.last ?? .invalid) }
            #expect(list.sequence.lastKeys == lastKeys, "seed \(seed) step \(step): the chunks' last prefixes")
        }
    }

    @Test func lowerBoundFindsTheFirstPrefixNotBelowAndPastEqualTheFirstAbove() throws {
        // 1,000 rows in list order with runs of equal prefixes (up to 200 long, across chunks).
        var random = SeededGenerator(seed: 7)
        var keys: [SortPrefix] = []
        var value: UInt64 = 10
        while keys.count < 1000 {
            value += UInt64(1 + random.below(3))
            let run = random.below(10) == 0 ? 1 + random.below(200) : 1 + random.below(3)
            keys += Array(repeating: SortPrefix(hi: 1 << 63 | value, mid: 0, lo: 1), count: run)
        }
        var builder = OrderedIDList.Builder()
        for id in keys.indices { builder.append(Int64(id + 1)) }
        var list = builder.finish()
        list.installKeys { set in for (p, k) in keys.enumerated() { set(p, k) } }
        let probes = stride(from: 8, through: value + 2, by: 1).map { SortPrefix(hi: 1 << 63 | $0, mid: 0, lo: 1) }
        // All at once, in step and in any order, as one at a time.
        let shuffled = probes.shuffled(using: &random)
        for (key, found) in zip(shuffled, list.sequence.lowerBounds(bits: shuffled)) {
            let single = try #require(list.sequence.lowerBound(bits: key))
            #expect(found?.position == single.position && found?.isEqual == single.isEqual, "\(key)")
        }
        #expect(list.sequence.lowerBounds(bits: []).isEmpty)
        let empty = OrderedIDList().sequence
        #expect(
            empty.lowerBounds(bits: [probes[0]]).map { $0?.position } == [empty.lowerBound(bits: probes[0])?.position]
        )
        for probe in stride(from: 8, through: value + 2, by: 1) {
            let key = SortPrefix(hi: 1 << 63 | probe, mid: 0, lo: 1)
            let below = keys.firstIndex { SortPrefix.compareBits($0, key) >= 0 } ?? keys.count
            let notAbove = keys.firstIndex { SortPrefix.compareBits($0, key) > 0 } ?? keys.count
            let found = list.sequence.lowerBound(bits: key)
            #expect(found?.position == below, "probe \(probe)")
            #expect(found?.isEqual == (below < keys.count && keys[below] == key), "probe \(probe)")
            #expect(
                list.sequence.lowerBound(bits: key, pastEqual: true)?.position == notAbove,
                "probe \(probe), past equal"
            )
        }
    }

    /// Found by the cache fuzzer: ids as far apart as Int64 allows (SQLite accepts such row ids).
    @Test func idsSpanningTheWholeInt64RangeBuildAList() {
        var builder = OrderedIDList.Builder()
        for id in [Int64.max, 0, Int64.min, 3] { builder.append(id) }
        let list = builder.finish()
        #expect(list.position(of: Int64.min) == 2)
        #expect(list.position(of: Int64.max) == 0)
        #expect(list.position(of: 3) == 3)
        #expect(list.position(of: 1) == nil)
    }
}
