import Testing
@testable import FetchedResults

/// The ordered id list behind the controller: positions, membership and
/// order must match a plain array through any mix of inserts and removals,
/// across chunk splits and the growth of its dense row-id map.
@Suite struct OrderedIDListTests {
    /// A reproducible generator (SplitMix64), so a failure names its seed.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    @Test(arguments: [1, 2, 3])
    func randomInsertsAndRemovalsKeepPositionsAndMembershipExact(seed: UInt64) {
        var random = Random(state: seed)
        var builder = OrderedIDList.Builder()
        var model: [Int64] = []
        for id in 1...500 as ClosedRange<Int64> { builder.append(id); model.append(id) }
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
                list.insert(id, key: .invalid, at: position)
                model.insert(id, at: position)
            } else {
                let position = random.below(model.count)
                let removed = list.remove(at: position)
                #expect(removed.id == model.remove(at: position), "seed \(seed) step \(step)")
            }
            if step % 500 == 0 || step == 5999 {
                #expect(list.count == model.count, "seed \(seed) step \(step)")
                for (position, id) in model.enumerated() {
                    guard list.contains(id), list.position(of: id) == position, list.id(at: position) == id else {
                        Issue.record("seed \(seed) step \(step): id \(id) expected at \(position), list says \(String(describing: list.position(of: id)))")
                        return
                    }
                }
            }
        }
    }
}
