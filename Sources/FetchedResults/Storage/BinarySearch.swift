/// The controller's one binary search over positions.
///
/// `order(position)` tells on which side of the probed position the target
/// lies: `true` when the target comes after it, `false` when at or before it,
/// and `nil` when the comparison cannot be decided from what is at hand (an
/// inexact sort-key prefix). The search narrows `range` until it is empty —
/// its `lowerBound` is then the answer, the first position the target does
/// not come after — or until an undecided probe, where it returns the
/// remaining range for a slower, exact comparison.
///
///     let sorted = [2, 3, 5, 8]
///     binarySearch(0..<sorted.count) { sorted[$0] < 5 }.lowerBound   // 2
///
/// (The sort-key prefix search inside ``OrderedIDList`` is written out by hand:
/// it runs over chunk-local arrays on the change hot path.)
@inline(__always)
func binarySearch(_ range: Range<Int>, targetIsAfter order: (Int) throws -> Bool?) rethrows -> Range<Int> {
    var lo = range.lowerBound
    var hi = range.upperBound
    while lo < hi {
        let mid = (lo + hi) / 2
        guard let after = try order(mid) else { return lo..<hi }
        if after { lo = mid + 1 } else { hi = mid }
    }
    return lo..<lo
}

/// The number of elements of the sorted array `a` that are less than `x`.
func lowerBound(_ a: [Int], _ x: Int) -> Int {
    binarySearch(0..<a.count) { a[$0] < x }.lowerBound
}

/// Indexes of one longest strictly increasing subsequence of `values` (patience sorting, O(n log n)).
func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
    guard !values.isEmpty else { return [] }
    var tails: [Int] = []  // index into values of the smallest tail of each length
    var previous = [Int](repeating: -1, count: values.count)
    for (i, v) in values.enumerated() {
        let length = binarySearch(0..<tails.count) { values[tails[$0]] < v }.lowerBound
        if length > 0 { previous[i] = tails[length - 1] }
        if length == tails.count { tails.append(i) } else { tails[length] = i }
    }
    var out: [Int] = []
    var k = tails.last!
    while k >= 0 {
        out.append(k)
        k = previous[k]
    }
    return out.reversed()
}
