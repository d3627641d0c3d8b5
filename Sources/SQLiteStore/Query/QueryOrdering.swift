/// The places in a query's order that a new run's rows take in its result table: as few rows
/// as possible change place.
///
/// Each row of a result keeps a number (`Double`) that increases along the query's order. In
/// a new run the rows that were there before keep theirs when they are on a longest run whose
/// numbers still increase (a longest increasing subsequence, O(n log n)); the others — moved
/// rows and new ones — get numbers between their neighbours'. So a row inserted at the top of
/// an ordered result changes one row, not every row after it.
///
///     QueryOrdering.places(old: [1, nil, 2, 3])   // [1, 1.5, 2, 3]: the new row between 1 and 2
///     QueryOrdering.places(old: [3, 1, 2])        // [0.5, 1, 2]: the row of 3 moved to the top
enum QueryOrdering {
    /// For the rows of a run in their order — each the number of a row that was there before, or
    /// nil for a new row — the number each has now. When numbers run out of room between two
    /// neighbours (after many inserts at one place), every row is numbered again: 1, 2, 3…
    static func places(old: [Double?]) -> [Double] {
        let kept = longestIncreasing(old)
        // The next kept number after each position (nil: none after it).
        var nextKept = [Double?](repeating: nil, count: old.count)
        var next: Double?
        for index in old.indices.reversed() {
            nextKept[index] = next
            if kept[index], let number = old[index] { next = number }
        }
        var places = [Double](repeating: 0, count: old.count)
        var previous = 0.0
        var index = 0
        while index < old.count {
            if kept[index], let number = old[index] {
                places[index] = number
                previous = number
                index += 1
                continue
            }
            // A run of rows that move or are new, up to the next kept row.
            var end = index
            while end < old.count && !kept[end] { end += 1 }
            let count = end - index
            let upper = nextKept[index] ?? previous + Double(count + 1)
            let step = (upper - previous) / Double(count + 1)
            for offset in 0..<count {
                let number = previous + step * Double(offset + 1)
                let below = offset == 0 ? previous : places[index + offset - 1]
                guard number > below, number < upper else { return renumbered(old.count) }
                places[index + offset] = number
            }
            previous = places[end - 1]
            index = end
        }
        return places
    }

    /// 1, 2, 3… `count`.
    static func renumbered(_ count: Int) -> [Double] { (0..<count).map { Double($0 + 1) } }

    /// Which positions of `numbers` lie on one longest strictly increasing subsequence of the
    /// non-nil numbers (patience sorting with back links; in one pass when they all increase, as
    /// in a run whose rows kept their order).
    static func longestIncreasing(_ numbers: [Double?]) -> [Bool] {
        if allIncreasing(numbers) { return numbers.map { $0 != nil } }
        var tails: [Int] = []  // position of the smallest tail of each length
        var previous = [Int](repeating: -1, count: numbers.count)
        for (position, number) in numbers.enumerated() {
            guard let number else { continue }
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if numbers[tails[middle]]! < number { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var kept = [Bool](repeating: false, count: numbers.count)
        var position = tails.last ?? -1
        while position >= 0 {
            kept[position] = true
            position = previous[position]
        }
        return kept
    }

    /// Whether the non-nil numbers of `numbers` strictly increase.
    static func allIncreasing(_ numbers: [Double?]) -> Bool {
        var last = -Double.infinity
        for case let number? in numbers {
            guard number > last else { return false }
            last = number
        }
        return true
    }
}
