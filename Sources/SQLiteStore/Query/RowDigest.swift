/// A 128-bit digest of a row's values (or of some of them: its key), for telling a query's
/// rows apart from one run to the next without keeping them in memory.
///
/// Two lanes of 64 bits, each a multiply-and-fold mix (the 64×64→128-bit product's halves
/// xored, as wyhash does) over every value's storage class, length and bytes, seeded once per
/// process at random: equal values give equal digests within a process, and two different
/// rows share one with a probability of about 2⁻¹²⁸ — far below a disk's undetected error rate.
/// An integer is mixed as its 8 bytes, a real as its bit pattern, text and blobs as their bytes
/// eight at a time after one word of their storage class and length, so a row costs a few
/// nanoseconds per value.
///
///     var digest = RowDigest()
///     digest.add(.integer(42))
///     digest.add(.text("Ada"))
///     let value = digest.value       // (UInt64, UInt64)
package struct RowDigest: Sendable {
    private var a: UInt64
    private var b: UInt64

    /// The process's seeds: digests are compared within one process only.
    private static let seeds: (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }()

    private static let k0: UInt64 = 0xa076_1d64_78bd_642f
    private static let k1: UInt64 = 0xe703_7ed1_a0b4_28db
    private static let k2: UInt64 = 0x8ebc_6af0_9c88_c6e3
    private static let k3: UInt64 = 0x5899_65cc_7537_4cc3

    /// An empty digest.
    @inline(__always)
    package init() {
        a = RowDigest.seeds.0
        b = RowDigest.seeds.1
    }

    @inline(__always)
    private static func mix(_ x: UInt64, _ y: UInt64) -> UInt64 {
        let product = x.multipliedFullWidth(by: y)
        return product.high ^ product.low
    }

    /// Mixes in one 64-bit word.
    @inline(__always)
    package mutating func add(word: UInt64) {
        a = RowDigest.mix(a ^ word, RowDigest.k0) &+ RowDigest.k1
        b = RowDigest.mix(b ^ word ^ RowDigest.k2, RowDigest.k3) &+ (a >> 32)
    }

    /// Mixes in the count of `bytes` and `kind` (one word, first: no sequence of values is a
    /// prefix of another's), then the bytes eight at a time.
    @inline(__always)
    package mutating func add(bytes: UnsafeRawBufferPointer, kind: UInt64 = 0) {
        var index = 0
        let count = bytes.count
        add(word: UInt64(count) | kind << 56 | 0x8000_0000_0000_0000)
        while index + 8 <= count {
            add(word: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index += 8
        }
        if index < count, let base = bytes.baseAddress {
            var last: UInt64 = 0
            withUnsafeMutableBytes(of: &last) { word in
                word.copyMemory(from: UnsafeRawBufferPointer(start: base + index, count: count - index))
            }
            add(word: last)
        }
    }

    /// Mixes in one field: its storage class, then its value.
    @inline(__always)
    package mutating func add(_ field: QueryField) {
        switch field {
        case .null:
            add(word: 0x6E75_6C6C)
        case .integer(let value):
            add(word: 1)
            add(word: UInt64(bitPattern: value))
        case .real(let value):
            add(word: 2)
            add(word: value.bitPattern)
        case .text(let bytes):
            add(bytes: bytes, kind: 3)  // the storage class in the length's word
        case .blob(let bytes):
            add(bytes: bytes, kind: 4)
        }
    }

    /// Mixes in one value (the same digest as the field that holds it).
    package mutating func add(_ value: StoreValue) {
        value.withField { add($0) }
    }

    /// The digest of what was added.
    @inline(__always)
    package var value: Digest {
        Digest(high: RowDigest.mix(a, RowDigest.k1 ^ b), low: RowDigest.mix(b, RowDigest.k0 ^ a))
    }

    /// A finished digest: two 64-bit halves.
    package struct Digest: Hashable, Sendable {
        package var high: UInt64
        package var low: UInt64

        /// One half is hash enough: the halves are already uniform (half the hashing per lookup).
        package func hash(into hasher: inout Hasher) { hasher.combine(low) }

        /// The digest of this one and `number` (a row's occurrence among equal rows).
        package func numbered(_ number: Int) -> Digest {
            guard number > 0 else { return self }
            var digest = RowDigest()
            digest.add(word: high)
            digest.add(word: low)
            digest.add(word: UInt64(number))
            return digest.value
        }
    }
}
