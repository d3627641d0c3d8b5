/// A compact set of whole-number keys, for finding a key repeated within one file.
///
/// Upsert keys are usually small non-negative numbers (an ISBN-like number, a
/// student number), so a bitmap holds them in a bit each: a million keys
/// below 4 million take 512 KB where `Set<Int64>` would take about 24 MB.
/// Values outside the bitmap's range go to a `Set`.
///
///     var seen = KeySet()
///     seen.insert(24735) // true
///     seen.insert(24735) // false: a duplicate
package struct KeySet: Sendable {
    /// Values in 0..<bitmapLimit live in the bitmap (at most 8 MB).
    package static let bitmapLimit: Int64 = 1 << 26
    private var words: [UInt64] = []
    private var others: Set<Int64> = []

    /// An empty set.
    package init() {}

    /// Inserts `value`; false when it was already present.
    @inline(__always)
    package mutating func insert(_ value: Int64) -> Bool {
        guard value >= 0 && value < KeySet.bitmapLimit else { return others.insert(value).inserted }
        let word = Int(value >> 6)
        if word >= words.count {
            let wanted = max(word + 1, min(words.count * 2, Int(KeySet.bitmapLimit >> 6)), 1024)
            words.append(contentsOf: repeatElement(0, count: wanted - words.count))
        }
        let mask: UInt64 = 1 << UInt64(value & 63)
        if words[word] & mask != 0 { return false }
        words[word] |= mask
        return true
    }

    /// True when `value` was inserted.
    package func contains(_ value: Int64) -> Bool {
        guard value >= 0 && value < KeySet.bitmapLimit else { return others.contains(value) }
        let word = Int(value >> 6)
        return word < words.count && words[word] & (1 << UInt64(value & 63)) != 0
    }
}
