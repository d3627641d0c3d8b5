import SQLiteStore

/// The groups of a ``GroupedResultsController`` and their order: each distinct value
/// with its count, the groups that have rows ordered by count (most first), then by
/// value (SQLite's binary order) — and the batch that takes the order from before a
/// change of counts to after it.
///
/// A group keeps its *ordinal* (its index in ``values`` and ``counts``) for as long as
/// the table lives, also while its count is 0 (a value that comes back is the same
/// group); ``order`` lists the ordinals of the groups with rows, ``positions`` says
/// where each one is in it. Applying a change of counts costs O(G + K log K) for G
/// groups and K changed ones: the unchanged groups keep their relative order, so the
/// new order is a merge of them with the changed ones sorted.
///
///     var table = GroupTable(groups: [(.text("CA"), 3), (.text("TX"), 5)])
///     let changes = table.apply([table.ordinal(for: .text("CA")): +3])   // CA (6) moves above TX (5)
struct GroupTable {
    /// Each group's value, by ordinal.
    private(set) var values: [StoreValue] = []
    /// Each group's count, by ordinal (0: no rows now).
    private(set) var counts: [Int] = []
    /// The ordinal of each value (under SQLite's equality: 1 and 1.0 are one group).
    private var ordinals: [StoreValue: Int32] = [:]
    /// The ordinals of the groups with rows, most rows first.
    private(set) var order: [Int32] = []
    /// Each ordinal's index in ``order``, -1 for a group without rows.
    private var positions: [Int32] = []
    /// The rows counted: the sum of the counts.
    private(set) var total = 0

    /// No groups.
    init() {}

    /// The groups a `GROUP BY` returned (a value may come twice, as 1 and 1.0: one group), their
    /// ordinals in the order given.
    init(groups: [(value: StoreValue, count: Int)]) {
        for (value, count) in groups {
            let ordinal = self.ordinal(for: value)
            counts[Int(ordinal)] += max(0, count)
            total += max(0, count)
        }
        let ordered = (0..<Int32(values.count)).filter { counts[Int($0)] > 0 }.sorted { precedes($0, $1) }
        order = ordered
        for (position, ordinal) in order.enumerated() { positions[Int(ordinal)] = Int32(position) }
    }

    /// The groups with rows.
    var count: Int { order.count }

    /// The value and count of the group at `position` in ``order``.
    func group(at position: Int) -> (value: StoreValue, count: Int) {
        let ordinal = Int(order[position])
        return (values[ordinal], counts[ordinal])
    }

    /// Where the group of `value` is in ``order`` (nil: no such group, or it has no rows).
    func position(of value: StoreValue) -> Int? {
        guard let ordinal = ordinals[FetchedResultsController.sectionIdentity(value)] else { return nil }
        let position = positions[Int(ordinal)]
        return position >= 0 ? Int(position) : nil
    }

    /// The ordinal of `value`'s group, made (with no rows) when there is none yet.
    mutating func ordinal(for value: StoreValue) -> Int32 {
        let identity = FetchedResultsController.sectionIdentity(value)
        if let existing = ordinals[identity] { return existing }
        let ordinal = Int32(values.count)
        ordinals[identity] = ordinal
        values.append(value)
        counts.append(0)
        positions.append(-1)
        return ordinal
    }

    /// Becomes `other` (the groups counted again); returns the changes that take the old order
    /// to the new one, as ``apply(_:)`` does. The ordinals are `other`'s from then on.
    mutating func replace(with other: GroupTable) -> [GroupChangeBatch.Change] {
        var changed: [StoreValue] = []
        var oldPositions: [Int32] = []
        var newPositions: [Int32] = []
        for (ordinal, value) in values.enumerated() {
            let new = other.position(of: value).map(Int32.init) ?? -1
            let newCount = new >= 0 ? other.counts[Int(other.order[Int(new)])] : 0
            guard newCount != counts[ordinal] else { continue }
            changed.append(value)
            oldPositions.append(positions[ordinal])
            newPositions.append(new)
        }
        for (ordinal, value) in other.values.enumerated() where other.counts[ordinal] > 0 && position(of: value) == nil
        {
            changed.append(value)
            oldPositions.append(-1)
            newPositions.append(other.positions[ordinal])
        }
        self = other
        return GroupTable.changes(of: changed, from: oldPositions, to: newPositions)
    }

    /// Whether the group `a` comes before `b`: more rows, or as many and a lower value.
    private func precedes(_ a: Int32, _ b: Int32) -> Bool {
        let (ca, cb) = (counts[Int(a)], counts[Int(b)])
        if ca != cb { return ca > cb }
        return StoreValue.compare(values[Int(a)], values[Int(b)]) < 0
    }

    /// Adds `deltas` to the groups' counts and reorders them; returns the changes that take
    /// the old order to the new one (see ``GroupChangeBatch``): a group that gained its first
    /// row is inserted, one that lost its last is deleted, and one whose count changed is
    /// updated in place when the groups around it stay the same, else moved.
    mutating func apply(_ deltas: [Int32: Int]) -> [GroupChangeBatch.Change] {
        let changed = deltas.filter { $0.value != 0 }.map(\.key)
        guard !changed.isEmpty else { return [] }
        var isChanged = [Bool](repeating: false, count: values.count)
        for ordinal in changed { isChanged[Int(ordinal)] = true }
        let oldPositions = changed.map { positions[Int($0)] }
        for ordinal in changed {
            counts[Int(ordinal)] += deltas[ordinal]!
            precondition(counts[Int(ordinal)] >= 0, "a group's count fell below 0")
            total += deltas[ordinal]!
        }
        reorder(changed: changed, isChanged: isChanged)
        let newPositions = changed.map { positions[Int($0)] }
        return GroupTable.changes(of: changed.map { values[Int($0)] }, from: oldPositions, to: newPositions)
    }

    /// The new ``order``: the unchanged groups in their order, merged with the changed ones that have rows.
    private mutating func reorder(changed: [Int32], isChanged: [Bool]) {
        let moving = changed.filter { counts[Int($0)] > 0 }.sorted { precedes($0, $1) }
        var merged: [Int32] = []
        merged.reserveCapacity(order.count + moving.count)
        var next = 0
        for ordinal in order where !isChanged[Int(ordinal)] {
            while next < moving.count, precedes(moving[next], ordinal) {
                merged.append(moving[next])
                next += 1
            }
            merged.append(ordinal)
        }
        merged.append(contentsOf: moving[next...])
        for ordinal in changed { positions[Int(ordinal)] = -1 }
        order = merged
        for (position, ordinal) in order.enumerated() { positions[Int(ordinal)] = Int32(position) }
    }

    /// The batch for the `changed` groups, which were at `oldPositions` and are at `newPositions`
    /// (-1: no rows).
    ///
    /// A changed group that keeps rows may stay where it is (an update) when as many unchanged
    /// groups come before it after as before, and its order among the changed groups that stay
    /// in the same gap between unchanged ones is kept (the longest such run stays); the others
    /// move. Then the groups that stay are in the same order before and after, which is what
    /// applying the batch needs (rule 4 of <doc:ChangeBatches>).
    private static func changes(
        of changed: [StoreValue],
        from oldPositions: [Int32],
        to newPositions: [Int32]
    ) -> [GroupChangeBatch.Change] {
        let oldSorted = oldPositions.filter { $0 >= 0 }.sorted()
        let newSorted = newPositions.filter { $0 >= 0 }.sorted()
        /// How many unchanged groups come before `position` in an order whose changed groups are at `sorted`.
        func unchangedBefore(_ position: Int32, _ sorted: [Int32]) -> Int {
            Int(position) - binarySearch(0..<sorted.count) { sorted[$0] < position }.lowerBound
        }
        var deletes: [GroupChangeBatch.Change] = []
        var inserts: [GroupChangeBatch.Change] = []
        var candidates: [(gap: Int, old: Int32, new: Int32, index: Int)] = []
        var moves: [GroupChangeBatch.Change] = []
        var updates: [GroupChangeBatch.Change] = []
        for (i, value) in changed.enumerated() {
            let (old, new) = (oldPositions[i], newPositions[i])
            switch (old >= 0, new >= 0) {
            case (true, false): deletes.append(.init(change: .delete, value: value, from: Int(old), to: nil))
            case (false, true): inserts.append(.init(change: .insert, value: value, from: nil, to: Int(new)))
            case (true, true):
                let gap = unchangedBefore(old, oldSorted)
                if gap == unchangedBefore(new, newSorted) {
                    candidates.append((gap, old, new, i))
                } else {
                    moves.append(.init(change: .move, value: value, from: Int(old), to: Int(new)))
                }
            case (false, false): break
            }
        }
        // In each gap, the candidates in new order whose old positions rise the longest way stay.
        candidates.sort { ($0.gap, $0.new) < ($1.gap, $1.new) }
        var start = 0
        while start < candidates.count {
            var end = start
            while end < candidates.count, candidates[end].gap == candidates[start].gap { end += 1 }
            let run = Array(candidates[start..<end])
            let staying = Set(longestIncreasingSubsequence(run.map { Int($0.old) }))
            for (k, candidate) in run.enumerated() {
                let value = changed[candidate.index]
                let change: ChangeType = staying.contains(k) ? .update : .move
                let item = GroupChangeBatch.Change(
                    change: change,
                    value: value,
                    from: Int(candidate.old),
                    to: Int(candidate.new)
                )
                if change == .update { updates.append(item) } else { moves.append(item) }
            }
            start = end
        }
        deletes.sort { $0.from! < $1.from! }
        inserts.sort { $0.to! < $1.to! }
        moves.sort { $0.to! < $1.to! }
        updates.sort { $0.to! < $1.to! }
        return deletes + inserts + moves + updates
    }
}
