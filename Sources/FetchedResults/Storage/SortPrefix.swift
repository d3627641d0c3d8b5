import SQLiteStore

/// A compact, order-preserving 192-bit prefix of a row's sort key.
///
/// The controller keeps one per fetched row so that finding the new position
/// of a changed object is a binary search in memory, without reading the
/// sort values of probe rows from SQLite. Two prefixes `a` and `b`:
///
/// - if they differ, the rows compare as the prefixes do (the encoding is
///   monotonic with SQLite's `ORDER BY` of all sort descriptors);
/// - if they are equal and both are *exact*, the rows tie on every sort
///   descriptor (the object ID decides);
/// - otherwise the comparison is unknown and the full values are needed.
///
/// Layout, from the most significant bit of `hi`: a marker bit `1` (so an
/// all-zero value can mean "invalid"), up to 190 payload bits, and an exact
/// flag in the least significant bit of `lo`.
struct SortPrefix: Hashable {
    var hi: UInt64
    var mid: UInt64
    var lo: UInt64

    /// A prefix that compares as unknown with everything.
    static let invalid = SortPrefix(hi: 0, mid: 0, lo: 0)

    var isValid: Bool { hi != 0 }
    var isExact: Bool { lo & 1 == 1 }

    /// -1 / 0 / 1 when decided (0 = full tie on the sort values), nil when unknown.
    @inline(__always)
    static func compare(_ a: SortPrefix, _ b: SortPrefix) -> Int? {
        guard a.hi != 0, b.hi != 0 else { return nil }
        if a.hi != b.hi { return a.hi < b.hi ? -1 : 1 }
        if a.mid != b.mid { return a.mid < b.mid ? -1 : 1 }
        let la = a.lo & ~1
        let lb = b.lo & ~1
        if la != lb { return la < lb ? -1 : 1 }
        return (a.lo & b.lo & 1) == 1 ? 0 : nil
    }

    /// Compares the prefix bits only (not the exact flag): -1, 0, 1. Both must be valid.
    @inline(__always)
    static func compareBits(_ a: SortPrefix, _ b: SortPrefix) -> Int {
        if a.hi != b.hi { return a.hi < b.hi ? -1 : 1 }
        if a.mid != b.mid { return a.mid < b.mid ? -1 : 1 }
        let la = a.lo & ~1
        let lb = b.lo & ~1
        return la == lb ? 0 : (la < lb ? -1 : 1)
    }
}

/// Turns a row's sort values into a ``SortPrefix``.
///
/// Each sort value contributes a memcomparable code: a 2-bit storage class
/// (NULL, number, text, blob) and then
/// - numbers: non-negative integers by byte length and bytes, then one bit
///   for "has a fraction" (which ends the prefix); negatives and huge reals
///   end the prefix right after the class;
/// - dates (`.date` attributes, `YYYY-MM-DD`): 23 bits of year, month, day;
///   date-times likewise with the time, in SQLiteStore's form (`YYYY-MM-DDTHH:MM:SSZ`) or
///   with a space (`YYYY-MM-DD HH:MM:SS`, as a server's timestamps are copied; a bit
///   for the separator keeps the two apart as SQLite's text order does, and a
///   fraction of a second after it ends the prefix); any other text in such a column makes
///   the whole prefix invalid (compared through SQLite instead);
/// - other text: per UTF-8 byte, 7 bits (binary) for printable ASCII, or 6
///   bits (NOCASE: after folding, printable ASCII has 69 values; all but
///   `[\]^_`` and `{|}~` get a code of their own, those two runs share one
///   code each, which ends the prefix), a terminator 0, and codes that end
///   the prefix for control characters and non-ASCII bytes;
/// - blobs end the prefix after the class.
/// A field with a value that sorts last in both directions (`FetchSort.sortsLast`) starts with
/// one bit, 1 for that value, which a descending sort does not invert. A field whose NULL is the
/// greatest value (`FetchSort.nulls`) then has one bit, 1 for NULL (and NaN), which a descending
/// sort inverts as the rest, and nothing more for NULL.
/// A descending sort inverts its field's bits. A field that ends the prefix
/// (or running out of bits) makes it inexact.
struct SortKeyEncoder {
    enum Mode { case generic, date, dateTime }

    struct Field {
        var mode: Mode
        var nocase: Bool
        var ascending: Bool
        /// A value that sorts after every other in both directions (`FetchSort.sortsLast`): a
        /// leading bit, set for it, not inverted by a descending sort.
        var last: StoreValue? = nil
        /// NULL above every value (`FetchSort.NullOrder.greatest`): a bit, set for NULL.
        var nullsGreatest = false
    }

    let fields: [Field]

    init(fields: [Field]) { self.fields = fields }

    /// Fields for sort descriptors whose key paths have the given attribute types.
    init(sorts: [FetchSort], types: [AttributeType]) {
        fields = zip(sorts, types).map { sort, type in
            let mode: Mode
            switch type {
            case .date: mode = .date
            case .dateTime: mode = .dateTime
            default: mode = .generic
            }
            return Field(
                mode: mode,
                nocase: sort.comparison == .caseInsensitive,
                ascending: sort.ascending,
                last: sort.sortsLast,
                nullsGreatest: sort.nulls == .greatest
            )
        }
    }

    private struct Writer {
        var w0: UInt64 = 1 << 63
        var w1: UInt64 = 0
        var w2: UInt64 = 0
        var pos = 1  // bits used, including the marker
        var full = false
        var invert: UInt64 = 0  // all ones for a descending field

        static let capacity = 191  // the last bit is the exact flag

        /// Appends the low `n` bits of `v` (n ≤ 64); false when the prefix is full.
        @inline(__always)
        mutating func write(_ v: UInt64, _ n: Int) -> Bool {
            if full { return false }
            var value = (v ^ invert) & (n == 64 ? ~0 : ((1 << UInt64(n)) - 1))
            var count = n
            let avail = Writer.capacity - pos
            if count > avail {
                value >>= UInt64(count - avail)
                count = avail
                full = true
            }
            while count > 0 {
                let word = pos >> 6
                let bit = pos & 63
                let take = min(64 - bit, count)
                let chunk = (value >> UInt64(count - take)) & (take == 64 ? ~0 : ((1 << UInt64(take)) - 1))
                let shifted = chunk << UInt64(64 - bit - take)
                switch word {
                case 0: w0 |= shifted
                case 1: w1 |= shifted
                default: w2 |= shifted
                }
                pos += take
                count -= take
            }
            return !full
        }
    }

    /// Encodes `count` sort values given by `value(i)`.
    func encode(_ value: (Int) -> StoreValue) -> SortPrefix {
        var w = Writer()
        var exact = true
        fieldLoop: for (i, f) in fields.enumerated() {
            let v = value(i)
            if let last = f.last {
                w.invert = 0
                if !w.write(v == last ? 1 : 0, 1) {
                    exact = false
                    break fieldLoop
                }
            }
            w.invert = f.ascending ? 0 : ~0
            if f.nullsGreatest {
                let isNull = v.isNullInOrder
                if !w.write(isNull ? 1 : 0, 1) {
                    exact = false
                    break fieldLoop
                }
                if isNull { continue }
            }
            switch v {
            case .null:
                if !w.write(0, 2) {
                    exact = false
                    break fieldLoop
                }
            case .integer(let x):
                if !w.write(1, 2) {
                    exact = false
                    break fieldLoop
                }
                if x < 0 {
                    _ = w.write(0, 1)
                    exact = false
                    break fieldLoop
                }
                if !Self.writeMagnitude(UInt64(x), fraction: false, &w) {
                    exact = false
                    break fieldLoop
                }
            case .real(let d):
                if d.isNaN {
                    if !w.write(0, 2) {
                        exact = false
                        break fieldLoop
                    }
                    continue
                }
                if !w.write(1, 2) {
                    exact = false
                    break fieldLoop
                }
                if d < 0 {
                    _ = w.write(0, 1)
                    exact = false
                    break fieldLoop
                }
                if d >= 9223372036854775808.0 {
                    _ = w.write(1, 1)
                    _ = w.write(9, 4)
                    exact = false
                    break fieldLoop
                }
                let f = d.rounded(.down)
                let hasFraction = f != d
                if !Self.writeMagnitude(UInt64(Int64(f)), fraction: hasFraction, &w) || hasFraction {
                    exact = false
                    break fieldLoop
                }
            case .text(let s):
                if !w.write(2, 2) {
                    exact = false
                    break fieldLoop
                }
                switch f.mode {
                case .date, .dateTime:
                    guard let bits = Self.dateBits(s, dateTime: f.mode == .dateTime) else { return .invalid }
                    if !w.write(bits.value, bits.count) || !bits.complete {
                        exact = false
                        break fieldLoop
                    }
                case .generic:
                    if !Self.writeText(s, nocase: f.nocase, &w) {
                        exact = false
                        break fieldLoop
                    }
                }
            case .blob:
                _ = w.write(3, 2)
                exact = false
                break fieldLoop
            }
        }
        return SortPrefix(hi: w.w0, mid: w.w1, lo: w.w2 | (exact && !w.full ? 1 : 0))
    }

    /// Sign bit 1, byte length (4 bits), the bytes, then the fraction bit.
    @inline(__always)
    private static func writeMagnitude(_ x: UInt64, fraction: Bool, _ w: inout Writer) -> Bool {
        let bytes = (64 - x.leadingZeroBitCount + 7) / 8
        guard w.write(1, 1), w.write(UInt64(bytes), 4) else { return false }
        if bytes > 0, !w.write(x, bytes * 8) { return false }
        return w.write(fraction ? 1 : 0, 1)
    }

    /// 7-bit (binary) or 6-bit (NOCASE) codes per byte; false when the prefix ended (a stop code or no more room).
    private static func writeText(_ s: String, nocase: Bool, _ w: inout Writer) -> Bool {
        var s = s
        // Codes are gathered in a word and written ten (six-bit) or nine (seven-bit) at a time: the
        // same bits as one write per byte, a tenth of the writes.
        return s.withUTF8 { bytes -> Bool in
            var codes: UInt64 = 0
            var count = 0
            if nocase {
                return nocaseCodes.withUnsafeBufferPointer { table in
                    for b in bytes {
                        let code = table[Int(b)]
                        codes = codes << 6 | UInt64(code & 0x3F)
                        count += 1
                        if code & 0x80 != 0 {
                            _ = w.write(codes, count * 6)
                            return false
                        }
                        if count == 10 {
                            if !w.write(codes, 60) { return false }
                            codes = 0
                            count = 0
                        }
                    }
                    return w.write(codes << 6, count * 6 + 6)
                }
            }
            for b in bytes {
                if b < 0x20 || b >= 0x7F {
                    _ = w.write(codes << 7 | (b < 0x20 ? 1 : 97), count * 7 + 7)
                    return false
                }
                codes = codes << 7 | (UInt64(b) - 0x20 + 2)
                count += 1
                if count == 9 {
                    if !w.write(codes, 63) { return false }
                    codes = 0
                    count = 0
                }
            }
            return w.write(codes << 7, count * 7 + 7)
        }
    }

    /// NOCASE 6-bit codes by byte; bit 7 set marks a code that ends the prefix.
    /// 0 is the terminator, 1 control characters, 63 bytes ≥ 0x7F.
    static let nocaseCodes: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        var code: UInt8 = 2
        var b = 0x20
        while b <= 0x7E {
            if b >= 0x41 && b <= 0x5A {
                b += 1
                continue
            }  // folded to lower case
            if (b >= 0x5B && b <= 0x60) || (b >= 0x7B && b <= 0x7E) {
                let end = b <= 0x60 ? 0x60 : 0x7E
                for x in b...end { table[x] = code | 0x80 }
                code += 1
                b = end + 1
                continue
            }
            table[b] = code
            code += 1
            b += 1
        }
        for x in 0x41...0x5A { table[x] = table[x | 0x20] }
        for x in 0..<0x20 { table[x] = 1 | 0x80 }
        for x in 0x7F...0xFF { table[x] = 63 | 0x80 }
        precondition(code <= 63, "NOCASE code table overflows 6 bits")
        return table
    }()

    /// The bits of a date (23) or date-time (42: the date, the separator — 0 for a space,
    /// 1 for `T` —, the time, and whether more follows); `complete` is false when a fraction
    /// of a second follows the space form (the prefix ends there). Nil for any other text.
    private static func dateBits(_ s: String, dateTime: Bool) -> (value: UInt64, count: Int, complete: Bool)? {
        var s = s
        return s.withUTF8 { u -> (value: UInt64, count: Int, complete: Bool)? in
            let spaced = dateTime && u.count >= 19 && u[10] == 0x20
            if spaced {
                // `YYYY-MM-DD HH:MM:SS`, or with a fraction `.f…` (digits only).
                guard
                    u.count == 19 || (u.count > 20 && u[19] == 0x2E && u[20...].allSatisfy { $0 >= 0x30 && $0 <= 0x39 })
                else { return nil }
            } else {
                guard u.count == (dateTime ? 20 : 10) else { return nil }
            }
            guard u[4] == 0x2D, u[7] == 0x2D else { return nil }
            func digits(_ a: Int, _ n: Int) -> UInt64? {
                var v: UInt64 = 0
                for k in a..<(a + n) {
                    let c = u[k]
                    guard c >= 0x30 && c <= 0x39 else { return nil }
                    v = v * 10 + UInt64(c - 0x30)
                }
                return v
            }
            guard let y = digits(0, 4), let m = digits(5, 2), let d = digits(8, 2), m < 16, d < 32 else { return nil }
            var value = (y << 9) | (m << 5) | d
            if !dateTime { return (value, 23, true) }
            guard spaced || (u[10] == 0x54 && u[19] == 0x5A), u[13] == 0x3A, u[16] == 0x3A,
                let h = digits(11, 2), let mi = digits(14, 2), let sec = digits(17, 2), h < 32, mi < 64, sec < 64
            else { return nil }
            let more: UInt64 = spaced && u.count > 19 ? 1 : 0
            value = (value << 19) | ((spaced ? 0 : 1) << 18) | (h << 13) | (mi << 7) | (sec << 1) | more
            return (value, 42, more == 0)
        }
    }
}
