/// A compact set of cert numbers, for finding a cert repeated within one file.
///
/// Certs are small positive numbers (the FDIC's are below 100,000; generated
/// lists stay below a few million), so a bitmap holds them in a bit each:
/// a million certs below 4 million take 512 KB where `Set<Int64>` would take
/// about 24 MB. Values outside the bitmap's range go to a `Set`.
///
///     var seen = CertSet()
///     seen.insert(24735) // true
///     seen.insert(24735) // false: a duplicate
struct CertSet {
    /// Values in 0..<bitmapLimit live in the bitmap (at most 8 MB).
    static let bitmapLimit: Int64 = 1 << 26
    private var words: [UInt64] = []
    private var others: Set<Int64> = []

    /// Inserts `value`; false when it was already present.
    @inline(__always)
    mutating func insert(_ value: Int64) -> Bool {
        guard value >= 0 && value < CertSet.bitmapLimit else { return others.insert(value).inserted }
        let word = Int(value >> 6)
        if word >= words.count {
            let wanted = max(word + 1, min(words.count * 2, Int(CertSet.bitmapLimit >> 6)), 1024)
            words.append(contentsOf: repeatElement(0, count: wanted - words.count))
        }
        let mask: UInt64 = 1 << UInt64(value & 63)
        if words[word] & mask != 0 { return false }
        words[word] |= mask
        return true
    }

    func contains(_ value: Int64) -> Bool {
        guard value >= 0 && value < CertSet.bitmapLimit else { return others.contains(value) }
        let word = Int(value >> 6)
        return word < words.count && words[word] & (1 << UInt64(value & 63)) != 0
    }
}
