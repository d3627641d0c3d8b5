import CZlib

/// A gzip body that unpacks to many zero bytes, made without zlib: one fixed-Huffman deflate block
/// of a literal zero and then matches of 258 bytes at distance 1 (13 bits each, about 160:1), with
/// the CRC-32 and size of the unpacked bytes in the trailer, so that it is a valid gzip stream.
///
///     let body = ZeroBomb.gzip(unpackedMatches: 400_000)   // ~650 KB that unpack to ~103 MB
///     ZeroBomb.unpackedSize(matches: 400_000)               // 103_200_001
enum ZeroBomb {
    /// The bytes unpacked from `gzip(unpackedMatches:)`.
    static func unpackedSize(matches: Int) -> Int { 1 + 258 * matches }

    static func gzip(unpackedMatches matches: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman
        bits.writeCode(0b0011_0000, length: 8)  // literal 0
        for _ in 0..<matches {
            bits.writeCode(0b1100_0101, length: 8)  // length code 285: 258 bytes
            bits.writeCode(0, length: 5)  // distance code 0: distance 1
        }
        bits.writeCode(0, length: 7)  // end of block
        let size = unpackedSize(matches: matches)
        let crc = crc32OfZeros(count: size)
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        out += bits.bytes()
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: size >> shift)) }
        return out
    }

    /// CRC-32 (gzip's) of `count` zero bytes, by powers of the one-zero-bit operator over GF(2).
    static func crc32OfZeros(count: Int) -> UInt32 {
        var op = [UInt32](repeating: 0, count: 32)
        op[0] = 0xEDB8_8320
        for i in 1..<32 { op[i] = 1 << UInt32(i - 1) }
        for _ in 0..<3 { op = square(op) }  // one zero byte
        var crc: UInt32 = 0xFFFF_FFFF
        var n = count
        while n > 0 {
            if n & 1 == 1 { crc = times(op, crc) }
            n >>= 1
            if n > 0 { op = square(op) }
        }
        return ~crc
    }

    private static func times(_ matrix: [UInt32], _ vector: UInt32) -> UInt32 {
        var result: UInt32 = 0
        var v = vector
        var i = 0
        while v != 0 {
            if v & 1 == 1 { result ^= matrix[i] }
            v >>= 1
            i += 1
        }
        return result
    }

    private static func square(_ matrix: [UInt32]) -> [UInt32] { matrix.map { times(matrix, $0) } }

    /// Deflate's bit order: fields LSB first, Huffman codes MSB first.
    struct BitWriter {
        private var buffer: [UInt8] = []
        private var current: UInt32 = 0
        private var filled: UInt32 = 0

        mutating func write(_ value: UInt32, count: UInt32) {
            for i in 0..<count { push((value >> i) & 1) }
        }

        mutating func writeCode(_ code: UInt32, length: UInt32) {
            for i in stride(from: Int(length) - 1, through: 0, by: -1) { push((code >> UInt32(i)) & 1) }
        }

        private mutating func push(_ bit: UInt32) {
            current |= bit << filled
            filled += 1
            if filled == 8 {
                buffer.append(UInt8(current))
                (current, filled) = (0, 0)
            }
        }

        func bytes() -> [UInt8] { filled > 0 ? buffer + [UInt8(current)] : buffer }
    }
}

extension ZeroBomb {
    /// A gzip body of `mebibytes` MiB of zeros at zlib's best ratio (about 1,000:1: 2 GiB in 2 MB),
    /// made quickly: each MiB is deflated with a full flush, which resets the compressor, so the
    /// bytes of one MiB after the first are the same every time and are repeated; the trailer's
    /// CRC-32 and size are computed, not deflated.
    static func denseGzip(mebibytes: Int) -> [UInt8] {
        precondition(mebibytes >= 1)
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        let deflater = Deflater(windowBits: -15)
        let first = deflater.deflate(zeros, flush: Z_FULL_FLUSH)
        let next = deflater.deflate(zeros, flush: Z_FULL_FLUSH)
        let end = deflater.deflate([], flush: Z_FINISH)
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        out.reserveCapacity(out.count + first.count + next.count * (mebibytes - 1) + end.count + 8)
        out += first
        for _ in 1..<mebibytes { out += next }
        out += end
        let size = mebibytes << 20
        let crc = crc32OfZeros(count: size)
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: size >> shift)) }
        return out
    }

    /// `bytes` as one gzip stream (zlib's, best compression).
    static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        Deflater(windowBits: 15 + 16).deflate(bytes, flush: Z_FINISH)
    }

    /// zlib's deflate, for the tests' compressed bodies.
    final class Deflater {
        private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)

        /// -15 raw deflate, 15 + 16 gzip.
        init(windowBits: Int32) {
            stream.initialize(to: z_stream())
            precondition(czlib_deflate_init(stream, 9, windowBits) == Z_OK)
        }

        deinit {
            CZlib.deflateEnd(stream)
            stream.deallocate()
        }

        /// The bytes deflate writes for `input` and `flush`.
        func deflate(_ input: [UInt8], flush: Int32) -> [UInt8] {
            var input = input
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            input.withUnsafeMutableBufferPointer { inBytes in
                stream.pointee.next_in = inBytes.baseAddress
                stream.pointee.avail_in = UInt32(inBytes.count)
                repeat {
                    buffer.withUnsafeMutableBufferPointer { outBytes in
                        stream.pointee.next_out = outBytes.baseAddress
                        stream.pointee.avail_out = UInt32(outBytes.count)
                        _ = CZlib.deflate(stream, flush)
                        out += outBytes[..<(outBytes.count - Int(stream.pointee.avail_out))]
                    }
                } while stream.pointee.avail_out == 0
            }
            return out
        }
    }
}
